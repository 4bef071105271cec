"""Paced retries.

A Gate stands in front of one dependency (SQS, SNS, PostgreSQL connects) for the
whole process. While the dependency answers, every call goes through. After a
failure, calls are held back and only one "probe" call is let through per
interval; the interval doubles (with jitter) up to BACKOFF_CAP. The first
success opens the gate again for everyone. So however many threads want the
dependency, a lasting failure costs at most a handful of refused calls per
second per process.
"""

import random
import threading
import time

from . import settings


class Gate:
    def __init__(self, name, base=settings.BACKOFF_BASE, cap=settings.BACKOFF_CAP):
        self.name = name
        self.base = base
        self.cap = cap
        self._lock = threading.Lock()
        self._failures = 0
        self._next = 0.0

    def _delay(self):
        d = min(self.cap, self.base * (2 ** max(0, self._failures - 1)))
        return random.uniform(d / 2, d)

    def attempt(self):
        """True if a call may be made now (claims the probe slot when failing)."""
        with self._lock:
            if self._failures == 0:
                return True
            now = time.monotonic()
            if now < self._next:
                return False
            self._next = now + self._delay()
            return True

    def remaining(self):
        with self._lock:
            if self._failures == 0:
                return 0.0
            return max(0.0, self._next - time.monotonic())

    def success(self):
        with self._lock:
            self._failures = 0
            self._next = 0.0

    def failure(self):
        with self._lock:
            self._failures += 1
            self._next = max(self._next, time.monotonic() + self._delay())

    @property
    def failing(self):
        return self._failures > 0

    def pause(self, event, longest=0.5):
        """Sleep until the gate may open (or `event` is set). Returns event.is_set()."""
        return event.wait(min(longest, max(0.02, self.remaining())))
