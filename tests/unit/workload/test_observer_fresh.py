"""The effects observer's fresh look (kit/workload/observer.py): `fresh` returns once a
poll that began after the call has finished, however long the polling interval, so a
fault deciding on what is not recorded yet sees every effect there was when it asked."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from kit.recorder import Recorder
from kit.workload import observer
from kit.workload.observer import _Watcher


class Table(_Watcher):
    """A watcher over rows the test commits; each poll can be held at its start."""

    def __init__(self, recorder: Recorder) -> None:
        super().__init__("id", recorder)
        self.rows: list[dict[str, str]] = []
        self.gate = threading.Event()
        self.gate.set()

    def poll(self) -> None:
        self.gate.wait(5)
        for row in list(self.rows):
            self._saw(row)

    def run(self) -> None:
        self.watch(self.poll)


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    monkeypatch.setattr(observer, "POLL_SECONDS", 60)  # only `fresh` or the stop wakes it
    watcher = Table(Recorder())
    watcher.start()
    yield watcher
    watcher.gate.set()
    watcher.stop()


def _recorded(table: Table) -> set[str]:
    return {op.value.key for op in table.recorder.snapshot() if op.kind == "recorded"}


def test_a_row_committed_before_the_call_is_recorded_when_it_returns(table: Table) -> None:
    assert table.fresh()  # the first poll is done: the watcher is now idle for 60 s
    table.rows.append({"id": "a"})
    assert table.fresh(timeout=5)
    assert _recorded(table) == {"a"}


def test_a_poll_already_under_way_does_not_count(table: Table) -> None:
    assert table.fresh()
    table.gate.clear()
    started = threading.Thread(target=table.fresh)  # a poll begins and is held
    started.start()
    table.rows.append({"id": "b"})  # committed while that poll is under way
    answer: list[bool] = []
    asking = threading.Thread(target=lambda: answer.append(table.fresh(timeout=5)))
    asking.start()
    asking.join(0.3)
    assert answer == []  # the poll under way may have missed "b": not enough
    table.gate.set()
    asking.join(5)
    started.join(5)
    assert answer == [True] and _recorded(table) == {"b"}


def test_a_look_that_does_not_finish_in_time_says_so(table: Table) -> None:
    assert table.fresh()
    table.gate.clear()
    assert table.fresh(timeout=0.2) is False
