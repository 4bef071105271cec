"""No fault announces itself: for every kind, nothing of it acts, and nothing the workers
get differs, before its trigger fires.

A kind has no hook into the workers' environment, files or sandbox (kit/faults/base.py),
and the nemesis builds the fault only once its trigger fired: so until then a run with
any fault is, for its workers, a run without one. The end-to-end half (a probe worker's
own view of its environment and files, with and without clock_skew) is
tests/integration/test_adversarial_faults.py.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest

from kit.faults import FAULTS, FaultContext, FaultKind
from kit.faults.nemesis import Nemesis
from kit.faults.spec import Fault
from kit.recorder import Recorder

# What a kind may define: its parameters, its aim, its timing, and the acts of the fault.
# Anything else public (a hook the run would consult before the fault) must be reviewed.
SURFACE = {"Params", "targets", "timed", "references", "start", "window", "heal", "value",
           "role_name",
           # Read by the scenario loader only (may a trigger say at_start?): a fault at the
           # start is in force before any worker runs, so there is nothing to see coming.
           "at_start",
           # RdsFault's helpers, reviewed: used from start() only (and a drill's runbook
           # starts only once the incident is reported, after the fault).
           "hooks", "identifier", "instance", "incident", "incident_kind", "report"}


class Tripwire:
    """A handle that records every use: nothing of a fault may touch it before its trigger."""

    def __init__(self, name: str, touched: list[str]) -> None:
        self._name, self._touched = name, touched

    def __getattr__(self, attribute: str) -> Any:
        self._touched.append(f"{self._name}.{attribute}")
        raise AssertionError(f"{self._name}.{attribute} used before the trigger")

    def __getitem__(self, key: str) -> Any:
        return self.__getattr__(f"[{key}]")


def _untriggered(kind: str, touched: list[str], target: str = "workers"
                 ) -> tuple[Nemesis, Recorder]:
    """A nemesis for `kind` whose trigger (one recorded message) never comes."""
    spec = Fault.model_validate({"kind": kind, "target": target,
                                 "trigger": {"after_recorded": 1, "timeout_seconds": 0.2}})
    recorder = Recorder()
    wire = {name: Tripwire(name, touched) for name in ("supervisor", "gateway", "proxy",
                                                       "drill", "values", "harness")}
    ctx = FaultContext(spec=spec, params=FAULTS[kind].Params.model_construct(),
                       recorder=recorder, supervisor=wire["supervisor"],  # type: ignore[arg-type]
                       gateway=wire["gateway"], stopping=threading.Event(),  # type: ignore[arg-type]
                       proxies={"endpoint.aws": wire["proxy"]},  # type: ignore[dict-item]
                       roles={}, seed=1, values=wire["values"],  # type: ignore[arg-type]
                       harness=wire["harness"], drill=wire["drill"])  # type: ignore[arg-type]
    return Nemesis(ctx), recorder


@pytest.mark.parametrize("kind", sorted(FAULTS))
def test_a_kind_has_no_hook_into_the_workers(kind: str) -> None:
    cls = FAULTS[kind]
    public = {name for klass in cls.__mro__ if issubclass(klass, FaultKind)
              for name in vars(klass) if not name.startswith("_")}
    assert public <= SURFACE, f"{kind}: {sorted(public - SURFACE)} (review: does the run " \
        "consult it before the fault? then the workers would see the fault coming)"


@pytest.mark.parametrize("kind", sorted(FAULTS))
def test_nothing_of_a_fault_acts_before_its_trigger(kind: str) -> None:
    touched: list[str] = []
    nemesis, recorder = _untriggered(kind, touched)
    nemesis.start()
    nemesis.join(timeout=10)
    assert not nemesis.is_alive() and nemesis.error is None
    assert touched == []
    assert [op.kind for op in recorder.snapshot()] == ["fault_not_injected"]


def test_the_tripwire_catches_a_fault_that_acts_early() -> None:
    # The check above can fail: a fault started without waiting for its trigger is caught.
    touched: list[str] = []
    nemesis, _ = _untriggered("network_outage", touched, target="endpoint.aws")
    fault = FAULTS["network_outage"](nemesis.ctx)
    assert touched == []  # building it acts on nothing
    with pytest.raises(AssertionError, match="before the trigger"):
        fault.start()
    assert touched == ["proxy.set_enabled"]
