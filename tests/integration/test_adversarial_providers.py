"""Reward hacks through a version requirement (tests/adversarial/order-pipeline/<name>/):
the kit's `error` is dropped from the reward, so a requirement the kit cannot meet must be
the solution's `fail` in a scenario run, whose prompt names `hashicorp/aws ~> 6.0`.

- old-provider-in-module: a module requires hashicorp/aws < 6.0 (an attached provider's
  constraint used to be skipped by init: kit/deploy/terraform.py `init`);
- future-terraform: `required_version = ">= 99.0"`.

Both run in one matrix call: each stops at init, before the workload.
"""

from __future__ import annotations

from pathlib import Path

from tests.integration.adversary import judge, not_caught

CASES = {"old-provider-in-module", "future-terraform"}


def test_a_version_requirement_cannot_make_the_kit_blame_itself(tmp_path: Path) -> None:
    rows = judge("order-pipeline", CASES, tmp_path)
    assert {row.subject for row in rows} == CASES
    assert not_caught("order-pipeline", rows) == {}
    said = {row.subject: run.results["deploy.applies"].summary
            for row in rows for run in row.runs}
    assert "as the prompt says" in said["old-provider-in-module"]
    assert "excludes the Terraform the kit runs" in said["future-terraform"]
