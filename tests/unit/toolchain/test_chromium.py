"""Chromium, the HTML report's test browser: found, installed with its font where the kit can
(root, apt-get), said how elsewhere without failing the setup, reported as optional."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit import cli, toolchain
from kit.toolchain import chromium


def _path(tmp_path: Path, *tools: str) -> str:
    """A PATH holding only these (empty) executables."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for tool in tools:
        (bin_dir / tool).write_text("#!/bin/sh\n")
        (bin_dir / tool).chmod(0o755)
    return str(bin_dir)


def test_found_from_kit_chromium_or_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    browser = tmp_path / "chromium"
    browser.write_text("")
    monkeypatch.setenv("KIT_CHROMIUM", str(browser))
    assert chromium.binary() == browser
    monkeypatch.setenv("KIT_CHROMIUM", str(tmp_path / "gone"))
    assert chromium.binary() is None
    monkeypatch.delenv("KIT_CHROMIUM")
    monkeypatch.setenv("PATH", _path(tmp_path, "chromium"))
    assert chromium.binary() == tmp_path / "bin" / "chromium"
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    assert chromium.binary() is None


def test_install_as_root_asks_apt_for_chromium_and_a_font(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[list[str]] = []
    monkeypatch.delenv("KIT_CHROMIUM", raising=False)
    monkeypatch.setenv("KIT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PATH", _path(tmp_path, "apt-get"))
    monkeypatch.setattr(chromium.os, "geteuid", lambda: 0)
    monkeypatch.setattr(toolchain, "_run", lambda cmd, *rest: asked.append(cmd))
    chromium.install(print)
    assert asked == [["apt-get", "update"], ["apt-get", "install", "-y",
                                             "--no-install-recommends", "chromium",
                                             "fonts-dejavu-core"]]


@pytest.mark.parametrize(("tools", "uid", "why"), [((), 0, "no apt-get"),
                                                   (("apt-get",), 1000, "not running as root")])
def test_where_it_cannot_install_it_says_how_and_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tools: tuple[str, ...], uid: int,
        why: str) -> None:
    said: list[str] = []
    monkeypatch.delenv("KIT_CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", _path(tmp_path, *tools))
    monkeypatch.setattr(chromium.os, "geteuid", lambda: uid)
    monkeypatch.setattr(toolchain, "_run", lambda *a: pytest.fail("must not run apt"))
    assert chromium.install(said.append) is None
    assert why in said[0] and chromium.FIX in said[0] and "will skip" in said[0]


def test_doctor_reports_a_missing_chromium_as_optional(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KIT_CHROMIUM", str(tmp_path / "gone"))
    monkeypatch.setenv("PATH", _path(tmp_path))
    cli.main(["doctor"])
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if "chromium" in ln)
    assert "not installed" in line and "missing" not in line
