"""The workload stage (kit/run/workload.py): one shape for every workload kind, over a fake
kind: the order of its steps, recovery only when the kind says so, and everything stopped
however the stage ends."""

from __future__ import annotations

import dataclasses
import shutil
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from kit import scenario
from kit.errors import InputError, KitError
from kit.faults import FaultContext
from kit.faults.base import NoParams
from kit.faults.nemesis import Nemesis
from kit.faults.spec import Fault, Trigger
from kit.recorder import Recorder
from kit.run import fault, workload
from kit.run.context import Stages
from tests.unit.faults.proxy_double import ProxyState


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
    nemesis = SimpleNamespace(start=lambda: kind.calls.append("nemesis"),
                              starts_first=lambda: False)
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


class StartWatcher(FakeKind):
    """A kind that notes, as it starts, whether the proxy passed traffic then."""

    def __init__(self, proxy: ProxyState) -> None:
        super().__init__()
        self.proxy = proxy
        self.proxy_enabled_at_start: bool | None = None

    def start(self) -> None:
        self.proxy_enabled_at_start = self.proxy.enabled
        super().start()

    def drive(self, nemesis: Any) -> None:
        nemesis.join(10)
        super().drive(nemesis)


@pytest.mark.parametrize(("at_start", "enabled"), [(True, False), (False, True)])
def test_a_fault_triggered_at_the_start_is_in_force_before_the_kind_starts(
        monkeypatch: pytest.MonkeyPatch, at_start: bool, enabled: bool) -> None:
    proxy, recorder = ProxyState(), Recorder()
    kind = StartWatcher(proxy)
    spec = Fault(kind="network_outage", target="database.main", duration_seconds=0.05,
                 trigger=Trigger(at_start=at_start, after_recorded=0 if at_start else 1,
                                 timeout_seconds=0.5))
    nemesis = Nemesis(FaultContext(
        spec=spec, params=NoParams(), recorder=recorder, supervisor=None,
        gateway=None, stopping=kind.stopping,  # type: ignore[arg-type]
        proxies={"database.main": proxy}))  # type: ignore[dict-item]
    monkeypatch.setattr(workload, "kind_of", lambda ctx, bound: kind)
    monkeypatch.setattr(fault, "nemesis", lambda ctx, bound, stopping, hooks: nemesis)
    ctx = SimpleNamespace(stage=Stages("test"), recorder=recorder)
    workload.run_workload(ctx, SimpleNamespace())  # type: ignore[arg-type]
    assert kind.proxy_enabled_at_start is enabled
    assert proxy.enabled  # healed
    kinds = [op.kind for op in recorder.history(None).ops if op.process == "nemesis"]
    assert kinds == (["fault_start", "fault_end"] if at_start else ["fault_not_injected"])


def test_at_start_is_refused_with_a_record_count_and_for_kinds_needing_the_workload(
        tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="leave after_recorded and after_acknowledged"):
        Trigger(at_start=True, after_recorded=3)
    data = yaml.safe_load((scenario.SCENARIOS / "order-pipeline" / "scenario.yaml").read_text())
    data["faults"]["worker_crash"]["trigger"] = {"at_start": True}
    (tmp_path / "scenario.yaml").write_text(yaml.safe_dump(data))
    shutil.copy(scenario.SCENARIOS / "order-pipeline" / "workload.py", tmp_path)
    with pytest.raises(InputError, match="faults.worker_crash.trigger.at_start: worker_crash "
                                         "acts on what the workload brings"):
        scenario.load(tmp_path / "scenario.yaml")


def test_the_fault_context_is_built_by_keyword_only() -> None:
    assert all(f.kw_only for f in dataclasses.fields(FaultContext))
    with pytest.raises(TypeError):
        FaultContext(None, None, None, None, None, None)  # type: ignore[misc]
