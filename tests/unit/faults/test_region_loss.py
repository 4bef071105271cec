"""region_loss: the instance's whole Region goes (its instances through the plane, its API
endpoints through the gateway) before the incident is reported, the incident names the
Region, and heal brings both back, safely even when the fault never started."""

from __future__ import annotations

from tests.unit.faults.drill_double import Drill


def test_the_region_is_cut_off_before_the_runbook_hears_of_it() -> None:
    drill = Drill()
    seen: list[tuple[list[str], int]] = []
    lose = drill.gateway.lose_region
    drill.gateway.lose_region = lambda region: (  # type: ignore[method-assign]
        seen.append((list(drill.instance.events), len(drill.incidents))), lose(region))
    fault = drill.fault("region_loss", duration=5)
    record = fault.start()
    assert seen == [(["region_cut"], 0)]  # the databases first, then the API; no incident yet
    assert record["region"] == "us-east-1" and record["instances_cut"] == ["orders-db"]
    assert drill.gateway.lost == ["us-east-1"]
    (kind, incident), = drill.incidents
    assert kind == "region_loss" and incident["region"] == "us-east-1"
    assert incident["kind"] == "region_loss"
    fault.heal()
    assert drill.instance.events == ["region_cut", "region_healed"]
    assert drill.gateway.lost == [] and drill.gateway.changes == ["lose us-east-1",
                                                                   "restore us-east-1"]


def test_heal_before_start_changes_nothing() -> None:
    drill = Drill()
    drill.fault("region_loss", duration=5).heal()
    assert drill.instance.events == [] and drill.gateway.changes == []
