"""lost_deletes: the gateway acknowledges the next `count` deletes without performing them;
the window closes once that many were lost (an event, not a clock), and heal stops losing
the rest. How the gateway swallows a delete on the wire is tests/integration/test_gateway.py.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from kit.faults import FAULTS, FaultContext, FaultNotInjected
from kit.faults.messages import LostDeletes
from kit.faults.spec import Fault
from kit.gateway.server import Gateway
from kit.recorder import Recorder


@pytest.fixture
def gateway() -> Iterator[Gateway]:
    with Gateway("http://127.0.0.1:9", Recorder()) as gw:
        yield gw


def _fault(gateway: Gateway, **params: object) -> LostDeletes:
    spec = Fault(kind="lost_deletes", target="queue.jobs", params=params)
    ctx = FaultContext(spec=spec, params=FAULTS["lost_deletes"].Params.model_validate(params),
                       recorder=gateway.recorder, supervisor=None, gateway=gateway,
                       stopping=threading.Event())
    return LostDeletes(ctx)


def _lose(gateway: Gateway) -> bool:
    """What the gateway does with one delete: True when it swallows it (and records the
    fault's effect, as it does)."""
    lost = gateway._take_lost_delete()
    if lost:
        gateway.recorder.record("nemesis", "fault_effect", effect="delete lost",
                                message_id="m")
    return lost


def test_the_next_count_deletes_are_lost_and_the_window_closes_on_them(
        gateway: Gateway) -> None:
    fault = _fault(gateway, count=2, within_seconds=5)
    assert fault.start() == {"target": "queue.jobs", "lost_deletes": 2}
    assert [_lose(gateway), _lose(gateway), _lose(gateway)] == [True, True, False]
    fault.window()  # both were lost: returns at once
    fault.heal()
    assert not _lose(gateway)


def test_heal_stops_losing_the_deletes_that_never_came(gateway: Gateway) -> None:
    fault = _fault(gateway, count=3)
    fault.start()
    assert _lose(gateway)
    fault.heal()
    assert gateway.lost_deletes == 0 and not _lose(gateway)


def test_deletes_that_never_come_are_the_solution_s_doing(gateway: Gateway) -> None:
    fault = _fault(gateway, count=1, within_seconds=0.1)
    fault.start()
    with pytest.raises(FaultNotInjected, match="1 deletes by workers"):
        fault.window()
    fault.heal()
    assert gateway.lost_deletes == 0
