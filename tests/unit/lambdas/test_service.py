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
from kit.lambdas.invoke import Environment
from kit.lambdas.service import Deployed, LambdaService, _mid_batch
from kit.recorder import Recorder
from kit.workload.supervisor import NoSession

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


def _untrusted(name: str) -> aws.Credentials:
    raise NoSession(name)  # the role's trust no longer admits lambda.amazonaws.com


def _service(tmp_path: Path, mapping: config.MappingConfig | None,
             session_for: Any = _refused) -> tuple[LambdaService, Recorder]:
    recorder = Recorder()
    service = LambdaService(Deployed(FUNCTION, mapping, "http://q", "code"), None,  # type: ignore[arg-type]
                            {}, session_for, "http://gateway", Admin(), tmp_path, recorder,
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


def test_an_environment_its_role_no_longer_trusts_stops_the_service(tmp_path: Path) -> None:
    # Each new execution environment assumes the role anew (a trust policy narrowed since
    # the last one refuses it): the service stops by itself, refused, not as an error.
    service, recorder = _service(tmp_path, MAPPING, _untrusted)
    service.start()
    service.join(timeout=10)
    assert not service.is_alive()
    assert service.refused and service.error is None
    ops = _ops(recorder)
    started = [v["worker"] for kind, _, v in ops if kind == "worker_start"]
    assert started and sorted(started) == sorted(
        v["worker"] for kind, _, v in ops if kind == "worker_exit")  # a slot may not start


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


class Queue:
    """ReceiveMessage as SQS answers it: up to MaxNumberOfMessages of what is waiting."""

    def __init__(self, waiting: int) -> None:
        self.waiting = [{"MessageId": f"m{i}", "ReceiptHandle": f"r{i}", "Body": f"k{i}"}
                        for i in range(waiting)]
        self.receives = 0

    def receive_message(self, **kwargs: Any) -> dict[str, Any]:
        self.receives += 1
        got = self.waiting[:min(kwargs["MaxNumberOfMessages"], 2)]  # two per answer at most
        del self.waiting[:len(got)]
        return {"Messages": got}


def _mapping(**changes: Any) -> config.MappingConfig:
    return config.MappingConfig(**{**MAPPING.__dict__, **changes})


def test_without_a_window_one_receive_makes_the_batch(tmp_path: Path) -> None:
    # "Using Lambda with Amazon SQS": without a batching window Lambda invokes with what
    # one poll returned, up to the batch size.
    service, _ = _service(tmp_path, _mapping(batch_size=10, window=0))
    queue = Queue(waiting=6)
    assert [m["MessageId"] for m in service._gather(queue)] == ["m0", "m1"]
    assert queue.receives == 1


def test_a_window_gathers_up_to_the_batch_size(tmp_path: Path) -> None:
    # MaximumBatchingWindowInSeconds: records are gathered until the batch is full or the
    # window ends.
    service, _ = _service(tmp_path, _mapping(batch_size=5, window=5))
    queue = Queue(waiting=9)
    assert len(service._gather(queue)) == 5  # full before the window's end
    assert queue.receives == 3


def test_beyond_the_reserved_concurrency_an_invocation_is_throttled(tmp_path: Path) -> None:
    # Reserved concurrency 0: the batch is never invoked and nothing of it is deleted.
    service, recorder = _service(tmp_path, MAPPING)
    service.limit = 0
    service.stopping.set()  # no backoff wait
    environment = Environment(service.confinement, {}, tmp_path / "log")
    outcome, fatal = service._invoke("worker-0#0", Queue(2).waiting, environment)
    assert (outcome.ok, outcome.error, fatal) == (False, "throttled", False)
    (op,) = recorder.snapshot()
    assert (op.kind, op.type, op.value.as_dict()["outcome"]) == ("invocation", "fail",
                                                                 "throttled")
    assert service.running == {}
