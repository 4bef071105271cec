"""The plugin's messages for what went wrong before anything runs: a solution that did not
deploy says why (the gate's or the deploy's own words), a fault that is not the
scenario's lists those that are (kit/testing/stack.py, kit/testing/fault.py)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from kit import scenario as scenarios
from kit.errors import InputError
from kit.recorder import Recorder
from kit.testing.fault import inject
from kit.testing.stack import _why


def test_a_gate_refusal_is_named_with_its_violations() -> None:
    recorder = Recorder()
    recorder.record("kit", "gate", violations=["main.tf:3: provisioner local-exec"])
    assert _why(recorder) == "refused by the gate: main.tf:3: provisioner local-exec"


def test_a_failed_apply_is_named_with_its_diagnostics() -> None:
    recorder = Recorder()
    recorder.record("kit", "gate", violations=[])
    recorder.record("kit", "deploy", ok=False, stage="apply", diagnostics=["Error: boom"],
                    kit_error=None, gaps=[])
    assert _why(recorder) == "apply failed: Error: boom"
    assert _why(Recorder()) == "no diagnostics recorded"


@pytest.mark.parametrize("name", ["db_outgae", "none"])
def test_a_fault_not_of_the_scenario_lists_its_faults(name: str) -> None:
    stack = SimpleNamespace(scenario=scenarios.load("order-pipeline"))
    with pytest.raises(InputError) as raised, inject(stack, name):  # type: ignore[arg-type]
        pass
    assert str(raised.value) == (
        f"inject({name!r}): not a fault of order-pipeline (scenario.yaml, field faults); its "
        "faults: worker_crash, duplicate_delivery, db_outage, db_outage_at_start, "
        "db_latency, sqs_outage, iam_revoke")
