"""A producer that publishes to an SNS topic, end to end: the fixture scenario sns-orders
(tests/fixtures/sns-orders: topic -> subscription with raw delivery and a filter policy ->
the orders queue -> order-pipeline's worker -> PostgreSQL) under `kit validate`.

The golden passes delivery.no_loss; a filter policy that drops valid orders and a queue
without a policy for sns.amazonaws.com are each killed by delivery.no_loss alone, with the
reason SNS did not deliver in the evidence. One validate run: three runs of the kit.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

KIT = [sys.executable, "-m", "kit.cli"]
FIXTURE = ROOT / "tests" / "fixtures" / "sns-orders"
NAME = "sns-orders"
# What the fixture takes from order-pipeline unchanged (tests/fixtures/sns-orders/README.md).
FROM_GOLDEN = ("worker", "rds.tf", "sqs.tf", "variables.tf", "versions.tf")


def build_root(where: Path) -> Path:
    """The fixture's scenario root, completed with what it shares with order-pipeline."""
    root = where / "sns-root"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns("README.md"))
    golden = ROOT / "golden" / "order-pipeline"
    for name in FROM_GOLDEN:
        source, target = golden / name, root / "golden" / NAME / name
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, target)
    shutil.copy(ROOT / "scenarios" / "order-pipeline" / "workload.py",
                root / "scenarios" / NAME / "workload.py")
    return root


def _no_loss(out: Path, row: str) -> dict:
    """The delivery.no_loss result of the run of `row` under `out`."""
    result, = out.glob(f"{NAME}/validate-*/{row}/none-seed*/result.json")
    return json.loads(result.read_text())["invariants"]["delivery.no_loss"]


def test_topic_delivery_is_judged_by_its_subscriptions_and_queue_policy(
        tmp_path: Path) -> None:
    root, out = build_root(tmp_path), tmp_path / "runs"
    done = subprocess.run([*KIT, "validate", NAME, "--scenarios", str(root), "--jobs", "1",
                           "--out", str(out)], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    golden = _no_loss(out, "golden")
    assert golden["verdict"] == "pass", golden
    filtered = _no_loss(out, "filter-drops-valid")
    assert filtered["verdict"] == "fail"
    assert "dropped by the filter policy (MessageBody)" in filtered["summary"]
    refused = _no_loss(out, "no-queue-policy")
    assert refused["verdict"] == "fail"
    assert "refused by the queue policy of arn:aws:sqs:" in refused["summary"]
    assert refused["evidence"]["lost"]["count"] == refused["evidence"]["sent"]
