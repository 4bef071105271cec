"""function_throttle: the function's reserved concurrency is set to N for the window, as
PutFunctionConcurrency would ("Configuring reserved concurrency", Lambda developer guide);
heal puts back what was deployed (none, or the deployed value)."""

from __future__ import annotations

import threading

import boto3
import pytest

from kit.faults import FAULTS, FaultContext
from kit.faults.spec import Fault
from kit.recorder import Recorder
from tests.unit.faults.iam_moto import Admin
from tests.unit.lambdas.moto_function import REGION, function


def _fault(admin: Admin, arn: str, concurrency: int) -> object:
    spec = Fault(kind="function_throttle", target="function.consumer", duration_seconds=1,
                 params={"concurrency": concurrency})
    ctx = FaultContext(spec=spec, params=FAULTS["function_throttle"].Params(
        concurrency=concurrency), recorder=Recorder(), supervisor=None,
        gateway=admin,  # type: ignore[arg-type]
        stopping=threading.Event(), values={"function.consumer.arn": arn})
    return FAULTS["function_throttle"](ctx)


def _reserved(arn: str) -> int | None:
    return boto3.client("lambda", region_name=REGION).get_function_concurrency(
        FunctionName=arn).get("ReservedConcurrentExecutions")


@pytest.mark.parametrize("deployed", [None, 4])
def test_the_limit_bites_and_heal_restores_what_was_deployed(admin: Admin,
                                                              deployed: int | None) -> None:
    arn = function()
    if deployed is not None:
        boto3.client("lambda", region_name=REGION).put_function_concurrency(
            FunctionName=arn, ReservedConcurrentExecutions=deployed)
    fault = _fault(admin, arn, 0)
    assert fault.start() == {"target": "function.consumer",  # type: ignore[attr-defined]
                             "reserved_concurrency": 0, "deployed": deployed}
    assert _reserved(arn) == 0
    fault.heal()  # type: ignore[attr-defined]
    assert _reserved(arn) == deployed


def test_a_limit_above_zero_is_set_as_given(admin: Admin) -> None:
    arn = function()
    _fault(admin, arn, 1).start()  # type: ignore[attr-defined]
    assert _reserved(arn) == 1


def test_it_aims_at_a_function_only() -> None:
    assert FAULTS["function_throttle"].targets == ("function",)
    assert FAULTS["function_throttle"].timed
