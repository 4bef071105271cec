"""clock_skew on the server side: the gateway judges the workers' signatures against a
moved clock for the window, everyone else's against the real one, and heals exactly."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from botocore.exceptions import EndpointConnectionError

from kit.faults.base import FaultBroken, FaultContext
from kit.faults.clock import ClockSkew, SkewParams, draw_offset
from kit.faults.spec import Fault
from kit.gateway import sigv4
from kit.gateway.server import Gateway
from kit.recorder import Recorder
from kit.workload.supervisor import Supervisor
from tests.unit.gateway.wire import KEY, SECRET, capture

PRINCIPAL = "arn:aws:sts::123456789012:assumed-role/r/s"


@pytest.fixture
def gateway() -> Iterator[Gateway]:
    with Gateway("http://127.0.0.1:9", Recorder()) as gw:
        yield gw


def _fault(gateway: Gateway, seed: int = 1, **params: object) -> ClockSkew:
    spec = Fault.model_validate({"kind": "clock_skew", "target": "workers",
                                 "trigger": {"after_recorded": 1}, "duration_seconds": 10})
    ctx = FaultContext(spec=spec, params=SkewParams.model_validate(params),
                       recorder=gateway.recorder, supervisor=Supervisor.__new__(Supervisor),
                       gateway=gateway, stopping=threading.Event(), seed=seed)
    return ClockSkew(ctx)


def _authn(gateway: Gateway, process: str, key: str) -> list[str]:
    """What the gateway's authentication said of a signed request of `process` (its
    refusals' messages; [] when the signature was accepted)."""
    gateway.register(key, process, secret_access_key=SECRET, principal_arn=PRINCIPAL)
    before = len(gateway.recorder.snapshot())
    wire = capture("sqs", "list_queues", key=key)
    # An accepted request goes on to authorization, against an upstream that is not there.
    with contextlib.suppress(EndpointConnectionError):
        gateway.handle(wire.method, wire.path, wire.headers, wire.body)
    return [op.value.message for op in gateway.recorder.snapshot()[before:]
            if op.kind == "authn"]


def test_the_clock_moves_only_for_the_processes_it_targets() -> None:
    clock = sigv4.Clock()
    ahead = timedelta(minutes=30)
    clock.skew(ahead, lambda process: process.startswith("worker-"))
    real = datetime.now(UTC)
    assert abs(clock.now("worker-0#2") - (real - ahead)) < timedelta(seconds=5)
    assert abs(clock.now("producer") - real) < timedelta(seconds=5)
    clock.reset()
    assert abs(clock.now("worker-0#2") - real) < timedelta(seconds=5)


def test_a_signature_judged_by_a_moved_clock_is_refused_as_aws_refuses_it() -> None:
    wire = capture("sqs", "list_queues")
    auth = sigv4.parse_authorization(wire.headers["authorization"])
    assert auth is not None
    clock = sigv4.Clock()
    clock.skew(timedelta(minutes=20), lambda process: True)  # the caller is ahead of AWS
    with pytest.raises(sigv4.AuthFailure, match="Signature not yet current") as ahead:
        sigv4.verify(auth, SECRET, wire.method, wire.path, wire.headers, wire.body,
                     now=clock.now("worker-0"))
    clock.skew(timedelta(minutes=-20), lambda process: True)  # the caller is behind
    with pytest.raises(sigv4.AuthFailure, match="Signature expired") as behind:
        sigv4.verify(auth, SECRET, wire.method, wire.path, wire.headers, wire.body,
                     now=clock.now("worker-0"))
    assert ahead.value.code == behind.value.code == "SignatureDoesNotMatch"


def test_the_fault_refuses_the_workers_and_nobody_else_until_healed(gateway: Gateway) -> None:
    fault = _fault(gateway, direction="ahead")
    assert _authn(gateway, "worker-0#0", "AKIDW0") == []
    detail = fault.start()
    assert 1200 <= detail["offset_seconds"] <= 2400
    refused = _authn(gateway, "worker-1#3", "AKIDW1")
    assert len(refused) == 1 and refused[0].startswith("Signature not yet current")
    # A worker that re-executes itself or scrubs its environment still signs as a worker
    # (its credentials are the supervisor's): refused just the same.
    assert len(_authn(gateway, "worker-1#3", "AKIDW1")) == 1
    assert _authn(gateway, "producer", KEY) == []
    fault.heal()
    assert _authn(gateway, "worker-1#3", "AKIDW1") == []


def test_the_offset_is_seeded_in_range_and_follows_the_direction() -> None:
    either = SkewParams()
    offsets = {seed: draw_offset(seed, either) for seed in range(40)}
    assert offsets == {seed: draw_offset(seed, either) for seed in range(40)}
    assert all(1200 <= abs(o) <= 2400 for o in offsets.values())
    assert {o > 0 for o in offsets.values()} == {True, False}
    assert draw_offset(3, SkewParams(direction="ahead")) > 0
    assert draw_offset(3, SkewParams(direction="behind")) < 0


def test_a_run_without_workers_is_the_kits_error(gateway: Gateway) -> None:
    fault = _fault(gateway)
    fault.ctx.supervisor = None
    with pytest.raises(FaultBroken, match="has none"):
        fault.start()
