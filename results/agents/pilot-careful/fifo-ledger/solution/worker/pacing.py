"""Retry pacing shared by the threads of one caller class."""

from __future__ import annotations

import random
import threading
import time


class Pacer:
    """Spaces out attempts while a dependency is failing.

    While the last outcome was a success, ``wait`` returns at once. After a
    failure every ``wait`` reserves its own slot, ``delay`` after the previous
    one, so the threads sharing a pacer together make at most one attempt per
    ``delay``; ``delay`` doubles with each further failure, up to ``cap``.
    The first success ends the spacing and wakes every waiter, so recovery is
    not held back by slots reserved during the failure.
    """

    def __init__(self, base: float, cap: float):
        self._base = base
        self._cap = cap
        self._delay = base
        self._failing = False
        self._next = 0.0
        self._generation = 0
        self._cond = threading.Condition()

    def wait(self) -> None:
        with self._cond:
            if not self._failing:
                return
            generation = self._generation
            at = max(time.monotonic(), self._next)
            self._next = at + self._delay * random.uniform(1.0, 1.2)
            while self._generation == generation:
                remaining = at - time.monotonic()
                if remaining <= 0:
                    return
                self._cond.wait(remaining)

    def success(self) -> None:
        with self._cond:
            if not self._failing:
                return
            self._failing = False
            self._delay = self._base
            self._next = 0.0
            self._generation += 1
            self._cond.notify_all()

    def failure(self) -> None:
        with self._cond:
            now = time.monotonic()
            if self._failing:
                self._delay = min(self._cap, self._delay * 2)
            self._failing = True
            self._next = max(self._next, now + self._delay)
