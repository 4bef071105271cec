"""A stand-in for a Toxiproxy proxy that keeps the state the real one would be in (enabled,
the toxics by name), for the network faults' unit tests. The same faults through a real
Toxiproxy are tests/integration/test_toxiproxy.py and the scenarios' runs."""

from __future__ import annotations

import threading
from typing import Any

from kit.faults import FAULTS, FaultContext
from kit.faults.spec import Fault
from kit.recorder import Recorder


class ProxyState:
    """What a proxy is doing now: whether it passes traffic, and its toxics."""

    def __init__(self) -> None:
        self.enabled = True
        self.toxics: dict[str, tuple[str, dict[str, Any], str]] = {}  # name -> type, attrs

    def set_enabled(self, enabled: bool) -> None:
        """As Proxy.set_enabled."""
        self.enabled = enabled

    def add_toxic(self, name: str, type: str, attributes: dict[str, Any], *,
                  stream: str = "downstream", toxicity: float = 1.0) -> None:
        """As Proxy.add_toxic (Toxiproxy refuses a second toxic of the same name)."""
        if name in self.toxics:
            raise ValueError(f"toxic {name} already exists")
        self.toxics[name] = (type, attributes, stream)

    def remove_toxic(self, name: str) -> None:
        """As Proxy.remove_toxic."""
        del self.toxics[name]


def network_fault(kind: str, proxy: ProxyState, params: dict[str, Any] | None = None,
                  target: str = "database") -> Any:
    """A fault of `kind` aimed at `target`, whose path goes through `proxy`."""
    spec = Fault(kind=kind, target=target, duration_seconds=0.01, params=params or {})
    ctx = FaultContext(spec=spec, params=FAULTS[kind].Params.model_validate(params or {}),
                       recorder=Recorder(), supervisor=None,
                       gateway=None, stopping=threading.Event(),  # type: ignore[arg-type]
                       proxies={target: proxy})  # type: ignore[dict-item]
    return FAULTS[kind](ctx)
