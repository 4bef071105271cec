"""Escapes of the static IAM and hardening checks (issue 22), as full runs of order-pipeline:
a grant or trust under a condition every request meets, and a literal master password
reaching the instance through locals or a module input. Each is killed by exactly its
static invariant under fault `none` (the run itself is healthy), never `error`.

The breadth (every operator family, restricting conditions, every data-flow path) is in
tests/unit/iam/test_ranges.py, tests/unit/checks/test_condition_effect.py and
tests/unit/deploy/test_password_flow.py; these rows prove the same through the real run: moto's
IAM read back into final.iam (with the run's window and the roles' tags), Terraform's
parse of a local module, and the kit's verdict.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.integration.adversary import judge, not_caught, processes, survivors

pytestmark = pytest.mark.integration

SCENARIO = "order-pipeline"
IAM_CASES = {"sqs-star-under-time-condition", "trust-anyone-under-time-condition",
             "source-ip-everywhere"}
PASSWORD_CASES = {"password-through-locals", "password-through-module-input"}


@pytest.mark.timeout(900)
def test_conditions_and_data_flow_escapes_are_caught(tmp_path: Path) -> None:
    before, since = processes(), time.time()
    rows = judge(SCENARIO, IAM_CASES | PASSWORD_CASES, tmp_path)
    assert survivors(before, since) == []
    assert {row.subject for row in rows} == IAM_CASES | PASSWORD_CASES
    assert not_caught(SCENARIO, rows) == {}
    by_name = {row.subject: row.runs[0].results for row in rows}

    # Each names the statement or the path that gave it away.
    granted = by_name["sqs-star-under-time-condition"]["iam.least_privilege"]
    assert "AnySqsAfter2000" in str(granted.evidence["over_granted"])
    trusted = by_name["trust-anyone-under-time-condition"]["iam.least_privilege"]
    assert "sts:AssumeRole" in trusted.summary
    anywhere = by_name["source-ip-everywhere"]["iam.least_privilege"]
    assert "AnySqsFromAnywhere" in str(anywhere.evidence["over_granted"])
    for name, through in (("password-through-locals", "local.db_password"),
                          ("password-through-module-input", "modules/db: var.password")):
        where = by_name[name]["rds.hardening"].evidence["at_fault"]["MasterPasswordLiteral"]
        assert through in where["where"], where
