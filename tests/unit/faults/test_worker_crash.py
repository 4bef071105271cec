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


def _fault(recorder: Recorder, workers: Workers, single_send: frozenset[str] = frozenset(),
           **params: object) -> WorkerCrash:
    params = {"after_receive_seconds": 0, "within_seconds": 0.2, **params}
    spec = Fault(kind="worker_crash", target="workers", params=params)
    ctx = FaultContext(spec=spec, params=FAULTS["worker_crash"].Params.model_validate(params),
                       recorder=recorder, supervisor=workers,  # type: ignore[arg-type]
                       gateway=None, stopping=threading.Event(),  # type: ignore[arg-type]
                       single_send_keys=single_send)
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
