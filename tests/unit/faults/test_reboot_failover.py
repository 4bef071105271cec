"""reboot_failover: maintenance reboots the instance with ForceFailover, or plainly when it
is not Multi-AZ (AWS refuses ForceFailover then), and the runbook is told; nothing to heal
(the reboot completes by itself)."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from tests.unit.faults.drill_double import IDENTIFIER, Drill


def test_a_multi_az_instance_is_rebooted_with_a_failover() -> None:
    drill = Drill()
    fault = drill.fault("reboot_failover")
    assert fault.start()["effect"] == "rebooted with a failover"
    assert drill.admin.calls == [("RebootDBInstance", {"DBInstanceIdentifier": IDENTIFIER,
                                                        "ForceFailover": True})]
    assert drill.incidents[0][0] == "reboot_failover"
    assert fault.heal() is None


def test_a_single_az_instance_gets_a_plain_reboot() -> None:
    drill = Drill()
    drill.admin.refuse["RebootDBInstance"] = "InvalidParameterCombination"
    assert drill.fault("reboot_failover").start()["effect"].startswith("rebooted (not Multi-AZ")
    assert [kwargs for _, kwargs in drill.admin.calls] == [
        {"DBInstanceIdentifier": IDENTIFIER, "ForceFailover": True},
        {"DBInstanceIdentifier": IDENTIFIER}]


def test_any_other_refusal_is_not_swallowed() -> None:
    drill = Drill()
    drill.admin.refuse["RebootDBInstance"] = "InvalidDBInstanceState"
    with pytest.raises(ClientError):
        drill.fault("reboot_failover").start()
    assert drill.incidents == []
