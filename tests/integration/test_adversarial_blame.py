"""Reward hacks that reached `error` (dropped from the reward) by making the kit blame
itself: each is now the solution's `fail`, killed by the invariant its variant.yaml
names, with no run `error` (tests/adversarial/order-pipeline/<name>/).

- forged-connection-refused: a precondition whose message reads like the emulator down
  and like an emulator gap (blame is decided from the emulator's journal and the kit's
  probe: kit/deploy/evidence.py);
- fifo-where-standard: the solution's queue refuses the contract's producer
  (workload.producer_sends);
- deny-producer-by-source-ip: its policy denies the producer by the caller's address
  (iam.required_access: the static check judges aws:SourceIp over every address a call
  can come from);
- queue-in-another-region: an output names a queue that is not in the contract's region
  (deploy.applies, stage outputs).

All four run in one matrix call: one sandbox per job, one run per case.
"""

from __future__ import annotations

import time
from pathlib import Path

from tests.integration.adversary import judge, not_caught, processes, survivors

CASES = {"forged-connection-refused", "fifo-where-standard", "deny-producer-by-source-ip",
         "queue-in-another-region"}


def test_a_solution_cannot_make_the_kit_blame_itself(tmp_path: Path) -> None:
    before, since = processes(), time.time()
    rows = judge("order-pipeline", CASES, tmp_path)
    assert survivors(before, since) == []
    assert {row.subject for row in rows} == CASES
    assert not_caught("order-pipeline", rows) == {}
