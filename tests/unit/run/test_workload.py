"""The workload stage (kit/run/workload.py): one shape for every workload kind, over a fake
kind: the order of its steps, recovery only when the kind says so, and everything stopped
however the stage ends."""

from __future__ import annotations

import dataclasses
import threading
from types import SimpleNamespace
from typing import Any

import pytest

from kit.errors import KitError
from kit.faults import FaultContext
from kit.recorder import Recorder
from kit.run import fault, workload
from kit.run.context import Stages


class FakeKind:
    """Records each call the stage makes; `drive` raises `broken` when set."""

    def __init__(self, recovers: bool = True, broken: BaseException | None = None) -> None:
        self.stopping = threading.Event()
        self.calls: list[str] = []
        self._recovers, self.broken = recovers, broken

    def fault_hooks(self) -> fault.FaultHooks:
        return fault.FaultHooks()

    def start(self) -> None:
        self.calls.append("start")

    def drive(self, nemesis: Any) -> None:
        self.calls.append("drive")
        if self.broken is not None:
            raise self.broken

    def recovers(self) -> bool:
        return self._recovers

    def recover(self) -> None:
        self.calls.append("recover")

    def stop(self, nemesis: Any) -> None:
        self.calls.append("stop")
        self.stopping.set()

    def raise_errors(self, nemesis: Any) -> None:
        self.calls.append("raise_errors")


def _run(monkeypatch: pytest.MonkeyPatch, kind: FakeKind) -> SimpleNamespace:
    ctx = SimpleNamespace(stage=Stages("test"), recorder=Recorder())
    nemesis = SimpleNamespace(start=lambda: kind.calls.append("nemesis"))
    monkeypatch.setattr(workload, "kind_of", lambda ctx, bound: kind)
    monkeypatch.setattr(fault, "nemesis", lambda ctx, bound, stopping, hooks: nemesis)
    workload.run_workload(ctx, SimpleNamespace())  # type: ignore[arg-type]
    return ctx


def _phases(ctx: SimpleNamespace) -> list[str]:
    return [op.value.name for op in ctx.recorder.history(None).of_kind("phase")]


def test_the_kind_starts_before_the_nemesis_and_recovers_when_it_can(
        monkeypatch: pytest.MonkeyPatch) -> None:
    kind = FakeKind()
    ctx = _run(monkeypatch, kind)
    assert kind.calls == ["start", "nemesis", "drive", "recover", "stop", "raise_errors"]
    assert _phases(ctx) == ["workload", "recover"]
    assert set(ctx.stage.timings) == {"workload", "recover"}


def test_no_recovery_when_nothing_can_recover(monkeypatch: pytest.MonkeyPatch) -> None:
    kind = FakeKind(recovers=False)
    ctx = _run(monkeypatch, kind)
    assert kind.calls == ["start", "nemesis", "drive", "stop", "raise_errors"]
    assert _phases(ctx) == ["workload"] and "recover" not in ctx.stage.timings


@pytest.mark.parametrize("broken", [KitError("the drill stalled"), KeyboardInterrupt()])
def test_a_stage_that_breaks_still_stops_everything(monkeypatch: pytest.MonkeyPatch,
                                                    broken: BaseException) -> None:
    kind = FakeKind(broken=broken)
    with pytest.raises(type(broken)):
        _run(monkeypatch, kind)
    assert kind.calls == ["start", "nemesis", "drive", "stop"] and kind.stopping.is_set()


def test_the_fault_context_is_built_by_keyword_only() -> None:
    assert all(f.kw_only for f in dataclasses.fields(FaultContext))
    with pytest.raises(TypeError):
        FaultContext(None, None, None, None, None, None)  # type: ignore[misc]
