import random
import time


class Backoff:
    """Exponential back-off with jitter; never retries faster than base/2."""

    def __init__(self, base, cap):
        self.base = base
        self.cap = cap
        self.failures = 0

    def reset(self):
        self.failures = 0

    def next_delay(self):
        delay = min(self.cap, self.base * (2 ** min(self.failures, 16)))
        self.failures += 1
        return delay * (0.5 + random.random() * 0.5)

    def sleep(self, stop=None):
        """Wait before the next attempt. Returns True if `stop` was set meanwhile."""
        delay = self.next_delay()
        if stop is None:
            time.sleep(delay)
            return False
        return stop.wait(delay)
