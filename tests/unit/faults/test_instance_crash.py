"""instance_crash: the primary's postmaster is killed on the data plane and the runbook is
told; nothing to heal (the plane recovers the engine as RDS does)."""

from __future__ import annotations

import threading

import pytest

from kit.faults import FAULTS, FaultContext, FaultNotInjected
from kit.faults.base import FaultBroken
from kit.faults.spec import Fault
from kit.recorder import Recorder
from tests.unit.faults.drill_double import IDENTIFIER, Drill


def test_the_primary_is_killed_and_the_incident_reported() -> None:
    drill = Drill()
    fault = drill.fault("instance_crash")
    assert fault.start() == {"target": "database.main", "instance": IDENTIFIER,
                             "effect": "postmaster killed"}
    assert drill.plane.crashed == [IDENTIFIER]
    [(kind, incident)] = drill.incidents
    assert kind == "instance_crash"
    assert incident["kind"] == "instance_crash"
    assert incident["db_instance_identifier"] == IDENTIFIER
    assert incident["started_at"] <= incident["reported_at"]
    assert fault.heal() is None


def test_an_instance_that_is_not_available_is_not_crashed() -> None:
    drill = Drill()
    drill.instance.status = "rebooting"
    with pytest.raises(FaultNotInjected, match="rebooting, not available"):
        drill.fault("instance_crash").start()
    assert drill.plane.crashed == [] and drill.incidents == []


def test_outside_a_drill_an_rds_fault_is_the_kits_error() -> None:
    spec = Fault(kind="instance_crash", target="database.main")
    ctx = FaultContext(spec=spec, params=FAULTS["instance_crash"].Params(), recorder=Recorder(),
                       supervisor=None, gateway=None,  # type: ignore[arg-type]
                       stopping=threading.Event())
    with pytest.raises(FaultBroken, match="drills only"):
        FAULTS["instance_crash"](ctx).start()


def test_the_fault_holds_until_the_drill_settles() -> None:
    drill = Drill()
    fault = drill.fault("instance_crash", duration=5)
    drill.settled.set()
    fault.window()  # returns at once: the drill settled
