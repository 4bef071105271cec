"""The run's history ledger, written only by the kit process (workers cannot reach it)."""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

from kit.history import FinalState, History, Op, parse_op

SAMPLED_FIRST = 20


class Recorder:
    """Thread-safe, append-only list of ops, timed from the start of the run.

    It keeps running counts (ops per kind, distinct recorded keys) as ops arrive, so fault
    triggers and the supervisor ask them in constant time instead of rescanning the ops.
    """

    def __init__(self) -> None:
        # Re-entrant: trigger conditions read the ops while holding `changed`.
        self._lock = threading.RLock()
        self._ops: list[Op] = []
        self._start = time.monotonic()
        self._counts: Counter[str] = Counter()
        self._keys: set[str] = set()
        self._sampled: dict[tuple[str, str], int] = {}
        self.changed = threading.Condition(self._lock)

    def now(self) -> float:
        """Seconds since the run started."""
        return time.monotonic() - self._start

    def record(self, process: str, kind: str, *, type: str = "ok", **value: Any) -> None:
        """Append one op and wake whoever waits on an event (fault triggers, quiescence).
        The op is typed here: HistoryError names a malformed one where it is recorded."""
        with self._lock:
            self._ops.append(parse_op({"index": len(self._ops), "time": self.now(),
                                       "process": process, "type": type, "kind": kind,
                                       "value": value}))
            if type == "ok":
                self._counts[kind] += 1
                if kind == "recorded":
                    self._keys.add(value["key"])
            self.changed.notify_all()

    def record_sampled(self, process: str, kind: str, **value: Any) -> None:
        """Record a refusal a worker can repeat at will: each of the first SAMPLED_FIRST
        of its (process, kind), then only every power of two, each op with `occurrence`
        (how many so far), so a loop of bad requests cannot grow the history without bound."""
        with self._lock:
            seen = self._sampled[(process, kind)] = self._sampled.get((process, kind), 0) + 1
            if seen <= SAMPLED_FIRST or seen & (seen - 1) == 0:
                self.record(process, kind, occurrence=seen, **value)

    def count(self, kind: str) -> int:
        """How many `ok` ops of `kind` were recorded so far."""
        with self._lock:
            return self._counts[kind]

    def distinct_keys(self) -> int:
        """How many distinct keys the observer has seen recorded so far."""
        with self._lock:
            return len(self._keys)

    def snapshot(self) -> list[Op]:
        """A copy of the ops so far (typed, frozen)."""
        with self._lock:
            return list(self._ops)

    def history(self, final: FinalState | None) -> History:
        """The frozen history of the run."""
        # The ops are typed and in index order already: no second validation pass.
        return History(ops=tuple(self.snapshot()), final=final)
