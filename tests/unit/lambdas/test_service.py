"""The Lambda service's slots, without a queue: what the history says when a slot cannot
poll (its role refuses the session) or nothing is mapped, and that neither is the kit's
error (workload.workers_start judges them: up, never acted)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from botocore.exceptions import ClientError

from kit import aws
from kit.lambdas import config
from kit.lambdas.service import Deployed, LambdaService, _mid_batch
from kit.recorder import Recorder

FUNCTION = config.FunctionConfig(name="f", arn="arn:aws:lambda:us-east-1:1:function:f",
                                 handler="h.handle", runtime="python3.11", timeout=3,
                                 role="arn:aws:iam::1:role/r")
MAPPING = config.MappingConfig(uuid="u", queue_arn="arn:aws:sqs:us-east-1:1:q", batch_size=4,
                               window=0, maximum_concurrency=2, report_failures=True,
                               enabled=True)


class Admin:
    """The Lambda API as the service reads it while it runs."""

    def get_function_concurrency(self, FunctionName: str) -> dict[str, Any]:  # noqa: N803
        return {}


def _refused(name: str) -> aws.Credentials:
    raise ClientError({"Error": {"Code": "AccessDenied", "Message": "no"}}, "AssumeRole")


def _service(tmp_path: Path, mapping: config.MappingConfig | None) -> tuple[LambdaService,
                                                                              Recorder]:
    recorder = Recorder()
    service = LambdaService(Deployed(FUNCTION, mapping, "http://q", "code"), None,  # type: ignore[arg-type]
                            {}, _refused, "http://gateway", Admin(), tmp_path, recorder,
                            lambda body: body or None)
    return service, recorder


def _ops(recorder: Recorder) -> list[tuple[str, str, dict[str, Any]]]:
    return [(op.kind, op.type, op.value.as_dict()) for op in recorder.snapshot()]


def test_a_refused_session_leaves_each_slot_up_and_idle(tmp_path: Path) -> None:
    service, recorder = _service(tmp_path, MAPPING)
    service.start()
    time.sleep(1.2)  # a few backoffs of asking again
    service.stop()
    assert service.error is None
    assert sorted(_ops(recorder), key=str) == sorted([
        ("worker_start", "ok", {"worker": "worker-0#0", "pid": 0}),
        ("worker_start", "ok", {"worker": "worker-1#0", "pid": 0}),
        ("worker_exit", "ok", {"worker": "worker-0#0", "pid": 0, "code": 0}),
        ("worker_exit", "ok", {"worker": "worker-1#0", "pid": 0, "code": 0})], key=str)


def test_a_function_nothing_maps_is_up_and_never_acts(tmp_path: Path) -> None:
    service, recorder = _service(tmp_path, None)
    service.start()
    service.stop()
    assert service.error is None and service.slots == 0
    assert _ops(recorder) == [("worker_start", "ok", {"worker": "worker-0#0", "pid": 0})]


def test_an_invocation_is_mid_batch_once_part_of_its_batch_took_effect() -> None:
    batch = [{"Body": "a"}, {"Body": "b"}, {"Body": ""}]
    keys = lambda body: body or None  # noqa: E731
    assert not _mid_batch(keys, batch, set())  # nothing applied yet
    assert _mid_batch(keys, batch, {"a"})
    assert not _mid_batch(keys, batch, {"a", "b"})  # all applied: a kill loses nothing
