"""instance_delete: an administrator calls DeleteDBInstance (with a final snapshot unless
told to skip it) and the runbook is told whether AWS accepted it; nothing to heal."""

from __future__ import annotations

from tests.unit.faults.drill_double import IDENTIFIER, Drill


def test_the_instance_is_deleted_with_a_final_snapshot() -> None:
    drill = Drill()
    fault = drill.fault("instance_delete")
    detail = fault.start()
    assert drill.admin.calls == [("DeleteDBInstance", {
        "DBInstanceIdentifier": IDENTIFIER, "FinalDBSnapshotIdentifier": f"{IDENTIFIER}-final"})]
    assert detail["refused"] is None and detail["final_snapshot"] == f"{IDENTIFIER}-final"
    [(_, incident)] = drill.incidents
    assert incident["kind"] == "deletion_attempt" and not incident["deletion_refused"]
    assert fault.heal() is None


def test_skip_final_snapshot_is_asked_for_when_told() -> None:
    drill = Drill()
    drill.fault("instance_delete", {"skip_final_snapshot": True}).start()
    assert drill.admin.calls[0][1] == {"DBInstanceIdentifier": IDENTIFIER,
                                       "SkipFinalSnapshot": True}
    assert drill.incidents[0][1]["final_snapshot_identifier"] is None


def test_a_refused_deletion_is_reported_as_refused() -> None:
    drill = Drill()
    drill.admin.refuse["DeleteDBInstance"] = "InvalidParameterCombination"
    detail = drill.fault("instance_delete").start()
    assert detail["refused"] == "InvalidParameterCombination"
    incident = drill.incidents[0][1]
    assert incident["deletion_refused"] is True
    assert "refused (InvalidParameterCombination)" in incident["description"]
