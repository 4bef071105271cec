"""az_loss: the primary's zone is cut off before the incident is reported (nothing gets
through after it), the plane does what RDS does (fails over, or stays unreachable), and
heal brings the zone back unless the instance is gone."""

from __future__ import annotations

from tests.unit.faults.drill_double import IDENTIFIER, Drill


def test_the_zone_is_cut_off_before_the_runbook_hears_of_it() -> None:
    drill = Drill()
    seen: list[int] = []
    drill.instance.cut_off = lambda: (seen.append(len(drill.incidents)),  # type: ignore[method-assign]
                                      drill.instance.events.append("cut_off"))
    fault = drill.fault("az_loss", duration=5)
    assert fault.start()["effect"] == "the primary's zone cut off"
    assert seen == [0]  # no incident yet when the zone went
    assert drill.instance.events == ["cut_off", "lose_az"]
    assert [kind for kind, _ in drill.incidents] == ["az_loss"]
    fault.heal()
    assert drill.instance.events == ["cut_off", "lose_az", "heal_az"]


def test_heal_leaves_a_deleted_instance_alone_and_is_safe_before_start() -> None:
    drill = Drill()
    drill.fault("az_loss", duration=5).heal()  # never started: nothing to heal
    assert drill.instance.events == []
    fault = drill.fault("az_loss", duration=5)
    fault.start()
    drill.instance.status = "deleted"
    fault.heal()
    assert "heal_az" not in drill.instance.events
    assert IDENTIFIER in {i["db_instance_identifier"] for _, i in drill.incidents}
