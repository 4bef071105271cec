"""Reward hacks that go after the kit's own resources (tests/adversarial/order-pipeline/):
each is caught by its named invariant, never turned into the kit's `error`, and what it
costs the kit stays bounded.

`connection-hoarder`: every worker's 8 children open 400 idle connections each to the AWS
endpoint (9,600 in all). Before the caps, each cost the kit two descriptors and two threads
in the workers' relay and one of each in the gateway: the kit died of "Too many open
files" (an `error`). Now the workers' namespace relays at most PER_WORKER connections per
worker and refuses the rest, on the record.
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import psutil
import pytest

from kit.history import History
from kit.sandbox.netns import PER_WORKER
from tests.integration.adversary import judge, not_caught, processes, survivors

SCENARIO, CASE = "order-pipeline", "connection-hoarder"
WORKERS = 3  # order-pipeline's replicas


class Peak(threading.Thread):
    """The most descriptors and threads this process (the kit) held while it ran."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.me = psutil.Process()
        self.fds = self.threads = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.2):
            self.fds = max(self.fds, self.me.num_fds())
            self.threads = max(self.threads, self.me.num_threads())


# Serial: 9,600 connections asked at once are a hostile load, like test_adversarial's fork
# bomb, which the timing bounds of other tests must not share the cores with.
@pytest.mark.serial
@pytest.mark.timeout(600)
def test_a_connection_hoarder_is_caught_and_costs_the_kit_only_its_allowance(
        tmp_path: Path) -> None:
    before, since = processes(), time.time()
    me = psutil.Process()
    base_fds, base_threads = me.num_fds(), me.num_threads()
    peak = Peak()
    peak.start()
    try:
        rows = judge(SCENARIO, {CASE}, tmp_path, jobs=1)
    finally:
        peak.done.set()
        peak.join()
    assert not_caught(SCENARIO, rows) == {}
    assert not survivors(before, since)

    # 9,600 connections asked; the relay let through at most its cap.
    run = tmp_path / "connection-hoarder" / "none-seed1"
    history = History.load(run / "history.json")
    refused = history.of_kind("connection_refused")
    assert refused, "no connection over the cap was refused"
    assert {op.value.limit for op in refused} == {PER_WORKER * WORKERS}
    assert all(op.process.startswith(("worker-", "pid ")) for op in refused)
    opened = [int(m.group(1)) for log in run.glob("worker-*.log")
              for m in re.finditer(r"connection-hoarder: (\d+) opened",
                                   log.read_text(errors="replace"))]
    cap = PER_WORKER * WORKERS
    # The attack asked far more than the cap; the refusals (reported at powers of two past
    # the first 20, so the last one is at least half the total) account for the rest.
    assert len(opened) == 8 * WORKERS and sum(opened) > 4 * cap, opened
    assert max(op.value.refused for op in refused) * 2 >= sum(opened) - 2 * cap, (
        opened, [op.value.refused for op in refused])

    # What the kit held stayed far below 9,600 connections' worth (2-3 descriptors and
    # threads each): the caps, plus its services.
    assert peak.fds - base_fds < 4 * cap + 500, (peak.fds, base_fds)
    assert peak.threads - base_threads < 3 * cap + 300, (peak.threads, base_threads)
