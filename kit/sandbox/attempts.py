"""Connection attempts the workers' namespace refused while one of its ports was closed (a
network outage): counted by the kernel, sampled here, so a worker that reconnects in a
loop without pause shows in the history (workload.retries_paced).

A refused connection never reaches the kit: the namespace's listener is closed during an
outage, so the kernel answers the worker's SYN with a reset and nothing is accepted,
logged or relayed. The kernel counts each such attempt in the namespace's own TCP
statistics (`AttemptFails` in /proc/net/snmp, RFC 4022 tcpAttemptFails: connections that
went from SYN-SENT to CLOSED), per network namespace, so reading it costs one small file
per sample, whatever the worker's rate (thousands a second for a loop without pause).
It counts every port: during an outage of one port the others are open, so an attempt
refused then is (nearly always) one to the closed port. Attempts are not attributed to a
worker: that takes a scan of /proc per attempt (kit/sandbox/netns.py `owner`), which a
loop would make the kit pay thousands of times a second.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from kit.sandbox.netns import WorkerNetwork

SAMPLE_SECONDS = 0.25
# (the port closed, attempts refused since it closed): reported when the count grows.
OnAttempts = Callable[[int, int], None]


def attempt_fails() -> int:
    """The count of refused connection attempts (tcpAttemptFails) of the calling thread's
    network namespace so far."""
    lines = [line.split() for line in Path("/proc/thread-self/net/snmp").read_text().splitlines()
             if line.startswith("Tcp:")]
    return int(dict(zip(lines[0][1:], lines[1][1:], strict=True))["AttemptFails"])


class RefusedAttempts:
    """While a port of the namespace is closed, report the attempts refused since."""

    def __init__(self, network: WorkerNetwork, on_attempts: OnAttempts) -> None:
        self.network, self.on_attempts = network, on_attempts
        self._lock = threading.Lock()
        self._watch: tuple[threading.Thread, threading.Event] | None = None

    def set_enabled(self, port: int, enabled: bool) -> None:
        """Start counting when `port` closes; stop (after a last sample) when it opens."""
        if enabled:
            self.stop()
            return
        with self._lock:
            if self._watch is not None:
                return
            done = threading.Event()
            thread = threading.Thread(target=self._sample, args=(port, done), daemon=True,
                                      name=f"refused-attempts-{port}")
            self._watch = (thread, done)
        thread.start()

    def stop(self) -> None:
        """Stop counting (idempotent)."""
        with self._lock:
            watch, self._watch = self._watch, None
        if watch is not None:
            watch[1].set()
            watch[0].join(timeout=10)

    def _sample(self, port: int, done: threading.Event) -> None:
        try:
            # One thread in the namespace for the whole outage, not one per sample.
            self.network.in_namespace(lambda: self._count(port, done))
        except OSError:
            return  # the namespace is gone: the run is over

    def _count(self, port: int, done: threading.Event) -> None:
        base, reported = attempt_fails(), 0
        while True:
            stopping = done.wait(SAMPLE_SECONDS)
            count = attempt_fails() - base
            if count != reported:
                reported = count
                self.on_attempts(port, count)
            if stopping:
                return
