"""Used vs granted, accepted: the policy a golden run says each role needed
(kit/iam/usage.py `needed_policy`, in every run's `used_vs_granted`) is a valid policy that,
given to the roles instead of the golden's own, still passes every fault.

The roles of golden/order-pipeline get exactly the needed policies of its fault-free run
(the run's ARNs are the next runs' too: the emulator's account, region and the golden's
queue names do not change) as a correct alternative, and the kill matrix machinery runs it
under each fault of the scenario.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

import pytest

from kit import scenario
from kit.evaluate.validate import validate
from kit.run.pipeline import run_once

SC = scenario.load("order-pipeline")
ROLES = {"role.worker": "worker", "role.producer": "producer"}


def _iam_tf(needed: dict[str, Any]) -> str:
    """golden/order-pipeline's iam.tf with each role's policy replaced by its needed one."""
    # Top-level blocks are separated by blank lines: keep all but the role policies (and
    # the comments written on them).
    blocks = (SC.golden / "iam.tf").read_text().split("\n\n")
    kept = "\n\n".join(b for b in blocks if 'resource "aws_iam_role_policy"' not in b)
    policies = "".join(
        f'resource "aws_iam_role_policy" "{name}_used" {{\n'
        f'  name   = "used-by-{name}"\n'
        f"  role   = aws_iam_role.{name}.id\n"
        f"  policy = <<-EOT\n{json.dumps(needed[role], indent=2)}\n  EOT\n}}\n\n"
        for role, name in ROLES.items())
    return kept.rstrip() + "\n\n" + policies


def _as_alternative(root: Path, iam_tf: str) -> None:
    """Write the used-policy solution as a must_pass variant of order-pipeline under root."""
    golden = (SC.golden / "iam.tf").read_text().splitlines(keepends=True)
    patch = "".join(difflib.unified_diff(golden, iam_tf.splitlines(keepends=True),
                                         "a/iam.tf", "b/iam.tf"))
    where = root / SC.name / "used-policy"
    where.mkdir(parents=True)
    (where / "change.patch").write_text(patch)
    (where / "variant.yaml").write_text(
        "alternative: each role carries exactly the policy a golden run needed\n"
        "must_pass: true\n")


@pytest.mark.slow  # every fault once more: the validate tier
@pytest.mark.timeout(1200)
def test_the_needed_policies_of_a_golden_run_pass_every_fault(tmp_path: Path) -> None:
    golden = run_once(SC, SC.golden, "none", 1, tmp_path / "golden")
    assert golden.outcome == "pass", golden.error
    usage = golden.used_vs_granted or {}
    needed = {role: usage[role]["needed_policy"] for role in ROLES}
    assert all(needed.values()), usage
    # Exactly what was used: named actions on named resources, no wildcard anywhere.
    statements = [s for policy in needed.values() for s in policy["Statement"]]
    assert not [s for s in statements if "*" in json.dumps([s["Action"], s["Resource"]])]
    _as_alternative(tmp_path / "variants", _iam_tf(needed))
    rows = validate(SC, tmp_path / "matrix", jobs=2, root=tmp_path / "variants",
                    golden=False)
    assert [row.fault for row in rows] == list(SC.faults)
    failed = {row.fault: {i: r.summary for run in row.runs for i, r in run.results.items()
                          if r.verdict != "pass"} | {"error": row.runs[0].error}
              for row in rows if not row.ok}
    assert not failed, failed
