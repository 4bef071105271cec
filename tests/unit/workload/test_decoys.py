"""The decoys iam.least_privilege probes (kit/workload/iam_state.py DECOYS): a grant on
every resource of a service must reach one resource the solution never mentions, for
every service a scenario's least_privilege judges."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit import scenario
from kit.workload.iam_state import DECOYS

TEAM = Path(__file__).parents[3] / "examples" / "team-repo" / ".kit" / "scenarios"
JUDGED = [scenario.load(name) for name in scenario.known()] + [
    scenario.load(path / "scenario.yaml") for path in sorted(TEAM.iterdir())]
# Services whose calls name no resource of the account (sts:GetCallerIdentity is "*").
NO_RESOURCE = {"sts"}


@pytest.mark.parametrize("sc", JUDGED, ids=lambda sc: sc.name)
def test_every_judged_service_has_a_decoy(sc: scenario.Scenario) -> None:
    services = set(sc.params.get("iam.least_privilege", {}).get("services", [])) - NO_RESOURCE
    decoyed = {arn.split(":")[2] for arn in DECOYS.values()}
    assert services <= decoyed, f"{sc.name}: no decoy for {sorted(services - decoyed)}"
