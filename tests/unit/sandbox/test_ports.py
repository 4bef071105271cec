"""Listening ports are picked below the kernel's ephemeral range, where no outgoing
connection can take one between the pick and the server's bind."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from kit.sandbox import ports


def test_a_port_is_below_the_ephemeral_range_and_bindable() -> None:
    low = int(ports.EPHEMERAL.read_text().split()[0])
    for _ in range(20):
        port = ports.free_port()
        assert ports.LOWEST <= port < low
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", port))


def test_without_the_range_the_kernel_picks(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ports, "EPHEMERAL", tmp_path / "missing")
    assert ports._below_ephemeral() == range(0)
    assert 0 < ports.free_port() < 65536


def test_a_taken_port_is_never_given(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        taken = held.getsockname()[1]
        held.listen()
        monkeypatch.setattr(ports, "_below_ephemeral", lambda: range(taken, taken + 1))
        assert ports.free_port() != taken  # every try failed: the kernel's pick instead
