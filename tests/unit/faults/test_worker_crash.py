"""worker_crash: SIGKILL a live worker in the middle of a message (received a valid message
whose key is not recorded yet, held for `after_receive_seconds`), never one that is idle
or done with its message; nothing to heal (the supervisor restarts it)."""

from __future__ import annotations

import threading

import pytest

from kit.faults import FAULTS, FaultContext, FaultNotInjected
from kit.faults.process import WorkerCrash
from kit.faults.spec import Fault
from kit.recorder import Recorder


class Workers:
    """The supervisor as the fault sees it: who is alive, and a kill that is recorded."""

    def __init__(self, *alive: str) -> None:
        self.alive = set(alive)
        self.killed: list[str] = []

    def holders(self) -> dict[str, int]:
        return {name: 1000 + i for i, name in enumerate(sorted(self.alive))}

    def kill(self, name: str) -> bool:
        if name not in self.alive:
            return False
        self.alive.discard(name)
        self.killed.append(name)
        return True


class Requests:
    """The gateway as the fault sees it: whose request is being answered, and when each
    process's last one was."""

    def __init__(self) -> None:
        self.busy: set[str] = set()
        self.last: dict[str, float] = {}

    def calling(self) -> frozenset[str]:
        return frozenset(self.busy)

    def answered(self, process: str) -> float | None:
        return self.last.get(process)


def _fault(recorder: Recorder, workers: Workers, single_send: frozenset[str] = frozenset(),
           requests: Requests | None = None, **params: object) -> WorkerCrash:
    params = {"after_receive_seconds": 0, "within_seconds": 0.2, **params}
    spec = Fault(kind="worker_crash", target="workers", params=params)
    ctx = FaultContext(spec=spec, params=FAULTS["worker_crash"].Params.model_validate(params),
                       recorder=recorder, supervisor=workers,  # type: ignore[arg-type]
                       gateway=requests or Requests(),  # type: ignore[arg-type]
                       stopping=threading.Event(), single_send_keys=single_send)
    return WorkerCrash(ctx)


def _sent(recorder: Recorder, key: str, valid: bool = True) -> None:
    recorder.record("producer", "send", message_id=f"s-{key}", duplicate_of=None, body="{}",
                    key=key, fields={}, valid=valid)


def _received(recorder: Recorder, worker: str, key: str) -> None:
    recorder.record(worker, "receive", message_id=f"m-{key}", key=key, receive_count=1)


def test_the_worker_holding_an_unrecorded_message_is_killed() -> None:
    recorder, workers = Recorder(), Workers("worker-0", "worker-1", "worker-2")
    for key in ("a", "b"):
        _sent(recorder, key)
    _received(recorder, "worker-0", "a")
    recorder.record("worker-0", "recorded", key="a", fields={})  # done with its message
    _received(recorder, "worker-1", "b")  # in the middle of it
    fault = _fault(recorder, workers)
    assert fault.start() == {"killed": "worker-1", "holding": "m-b"}
    assert workers.killed == ["worker-1"]
    assert fault.heal() is None  # fault_end says what fault_start said


@pytest.mark.parametrize("case", ["invalid message", "dead worker", "sent twice"])
def test_no_worker_in_the_middle_of_a_message_is_the_solution_s_doing(case: str) -> None:
    recorder, workers = Recorder(), Workers("worker-0")
    _sent(recorder, "a", valid=case != "invalid message")
    _received(recorder, "worker-9" if case == "dead worker" else "worker-0", "a")
    # "a" was sent twice: killing its holder cannot lose it, so only single sends count.
    single = frozenset({"z"}) if case == "sent twice" else frozenset()
    with pytest.raises(FaultNotInjected, match="no worker held a message"):
        _fault(recorder, workers, single).start()
    assert workers.killed == []


def test_a_worker_is_killed_only_once_it_held_its_message_long_enough() -> None:
    recorder, workers = Recorder(), Workers("worker-0")
    _sent(recorder, "a")
    _received(recorder, "worker-0", "a")
    with pytest.raises(FaultNotInjected):
        _fault(recorder, workers, after_receive_seconds=60, within_seconds=0.1).start()
    assert workers.killed == []
    assert _fault(recorder, workers, after_receive_seconds=0.05, within_seconds=5).start()[
        "killed"] == "worker-0"


def test_a_worker_whose_commit_the_observer_had_not_seen_yet_is_not_killed() -> None:
    # The worker committed "a" after the observer's last poll: the fault's fresh look
    # records it, so the worker is done with its message, not in the middle of it.
    recorder, workers = Recorder(), Workers("worker-0")
    _sent(recorder, "a")
    _received(recorder, "worker-0", "a")
    looks: list[int] = []

    def observe() -> bool:
        looks.append(1)
        recorder.record("observer", "recorded", key="a", fields={})
        return True

    fault = _fault(recorder, workers)
    fault.ctx.observe = observe
    with pytest.raises(FaultNotInjected):
        fault.start()
    assert looks and workers.killed == []


def test_a_worker_that_acted_on_its_message_is_killed_before_its_hold_is_up() -> None:
    # Its delete (or any request) was answered after the receipt: it has done what it does
    # first with the message, however long that took on a loaded machine.
    recorder, workers, requests = Recorder(), Workers("worker-0"), Requests()
    _sent(recorder, "a")
    _received(recorder, "worker-0", "a")
    with pytest.raises(FaultNotInjected):
        _fault(recorder, workers, requests=requests, after_receive_seconds=60,
               within_seconds=0.1).start()
    requests.last["worker-0"] = recorder.now()
    fault = _fault(recorder, workers, requests=requests, after_receive_seconds=60)
    assert fault.start() == {"killed": "worker-0", "holding": "m-a"}


def test_a_worker_is_not_killed_while_a_request_of_its_is_answered() -> None:
    recorder, workers, requests = Recorder(), Workers("worker-0"), Requests()
    _sent(recorder, "a")
    _received(recorder, "worker-0", "a")
    requests.busy.add("worker-0")
    with pytest.raises(FaultNotInjected):
        _fault(recorder, workers, requests=requests).start()
    requests.busy.clear()
    assert _fault(recorder, workers, requests=requests).start()["killed"] == "worker-0"
