"""`kit mutate` end to end on a tiny subset of order-pipeline's mutants: one killed by the
static stage (a trust policy widened to every principal: the policy lint's
iam.least_privilege, no emulator run), one killed by a run (the redrive policy dropped:
delivery.poison_to_dlq under any fault), one set aside as a listed equivalent (not run)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kit.cli import main
from tests.integration.conftest import traversable_tmp

pytestmark = [pytest.mark.integration, pytest.mark.slow]
tmp_path = traversable_tmp("mutate-")

STATIC = "iam.widen-principal:iam.tf:7"
RUN = "setting.drop:sqs.tf:30"
EQUIVALENT = "setting.change:rds.tf:22:false"


def test_kit_mutate_kills_statically_by_a_run_and_sets_equivalents_aside(
        tmp_path: Path) -> None:
    code = main(["mutate", "order-pipeline", "--only", STATIC, "--only", RUN, "--only",
                 EQUIVALENT, "--out", str(tmp_path)])
    report = next(tmp_path.glob("order-pipeline/mutate-*/mutate.json"))
    data = json.loads(report.read_text())
    by_id = {m["id"]: m for m in data["mutants"]}
    assert code == 0, data
    assert (by_id[STATIC]["status"], by_id[STATIC]["stage"]) == ("killed", "static")
    assert by_id[STATIC]["killed_by"] == ["iam.least_privilege"] and not by_id[STATIC]["runs"]
    assert (by_id[RUN]["status"], by_id[RUN]["stage"]) == ("killed", "run")
    assert "delivery.poison_to_dlq" in by_id[RUN]["killed_by"]
    assert by_id[EQUIVALENT]["status"] == "equivalent" and by_id[EQUIVALENT]["reason"]
    assert data["score"] == 1.0  # 2 killed / (3 mutants - 1 equivalent)
    assert "mutation score 1.00" in (report.parent / "mutate.md").read_text()


ESCALATED = "setting.change:sqs.tf:11:1"  # maxReceiveCount 5 -> 1


def test_a_survivor_of_its_fault_is_judged_again_until_a_fault_kills_it(
        tmp_path: Path) -> None:
    # One receive before the dead-letter queue survives a database that is only slow, and
    # loses a message the first time its processing fails: under seed 1 the next faults are
    # iam_revoke and db_outage_at_start (kit/mutate/run.py's `escalation`).
    code = main(["mutate", "order-pipeline", "--only", ESCALATED, "--fault", "db_latency",
                 "--escalate", "2", "--jobs", "2", "--out", str(tmp_path)])
    report = next(tmp_path.glob("order-pipeline/mutate-*/mutate.json"))
    data = json.loads(report.read_text())
    (mutant,) = data["mutants"]
    assert code == 0, mutant
    assert mutant["status"] == "killed" and mutant["killed_by"], mutant
    assert mutant["faults"] == ["db_latency", "iam_revoke", "db_outage_at_start"]
    first = json.loads(next(Path(mutant["runs"][0]).parent.glob(
        "db_latency-seed1/result.json")).read_text())
    assert first["outcome"] == "pass"  # the drawn fault alone let it through
    assert data["escalate"] == 2
