"""The run's history ledger, written only by the kit process (workers cannot reach it)."""

from __future__ import annotations

import threading
import time
from typing import Any

from kit.history import FinalState, History, make_history


class Recorder:
    """Thread-safe, append-only list of ops, timed from the start of the run."""

    def __init__(self) -> None:
        # Re-entrant: trigger conditions read the ops while holding `changed`.
        self._lock = threading.RLock()
        self._ops: list[dict[str, Any]] = []
        self._start = time.monotonic()
        self.changed = threading.Condition(self._lock)

    def now(self) -> float:
        """Seconds since the run started."""
        return time.monotonic() - self._start

    def record(self, process: str, kind: str, **value: Any) -> None:
        """Append one op and wake whoever waits on an event (fault triggers, quiescence)."""
        with self._lock:
            self._ops.append({"index": len(self._ops), "time": self.now(), "process": process,
                              "kind": kind, "value": value})
            self.changed.notify_all()

    def count(self, kind: str) -> int:
        """How many ops of `kind` were recorded so far."""
        with self._lock:
            return sum(1 for op in self._ops if op["kind"] == kind)

    def snapshot(self) -> list[dict[str, Any]]:
        """A copy of the ops so far."""
        with self._lock:
            return list(self._ops)

    def history(self, final: FinalState | None) -> History:
        """The frozen history of the run."""
        return make_history(self.snapshot(), final)
