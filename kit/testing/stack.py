"""A deployed stack for a team's test: the solution's Terraform applied in the session's
sandbox and bound as a run binds it (gateway, proxies, databases), its outputs, boto3
clients as the kit's admin or as a role the Terraform created, the scenario's workload
(the kit's producer, the solution's confined workers, the observer) and the history.

The stages are the run's own (kit/run/deploy.py, kit/run/pipeline.py's bind, kit/run/
queue.py, kit/run/observe.py): a test judges what `kit eval` would judge.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any

from kit import aws, interrupt
from kit.checks import CheckResult, invariants, run_checks
from kit.errors import InputError, SolutionError
from kit.faults.nemesis import Nemesis
from kit.history import FinalState, History
from kit.recorder import Recorder
from kit.run import fault
from kit.run.bind import Bound
from kit.run.context import RunContext, Stages
from kit.run.deploy import deploy
from kit.run.observe import observe
from kit.run.pipeline import _bind
from kit.run.queue import QueueWorkload
from kit.run.sandbox import Sandbox
from kit.scenario import Scenario

WAIT_SECONDS = 120.0  # the default bound of every wait_* (a run's trigger timeout is 120 s)


class DeployRefused(SolutionError):
    """The solution did not deploy: the gate refused it, or init, apply or the outputs
    failed (the message holds the diagnostics)."""


class Stack:
    """One deployed solution in the sandbox; `close()` stops and removes all it started."""

    def __init__(self, ctx: RunContext, bound: Bound) -> None:
        self.ctx, self.bound = ctx, bound
        self.scenario: Scenario = ctx.scenario
        self.values: dict[str, Any] = bound.values
        self.outputs: dict[str, Any] = {k.removeprefix("outputs."): v
                                        for k, v in bound.values.items()
                                        if k.startswith("outputs.")}
        self.recorder: Recorder = ctx.recorder
        self.workload: QueueWorkload | None = None
        self.final: FinalState | None = None
        self._idle = threading.Event()  # the faults' `stopping` before a workload starts

    def client(self, service: str, role: str | None = None) -> Any:
        """A boto3 client of `service`: as the kit's admin, straight to the emulator; or,
        given a role resource of the scenario ("role.producer"), as a fresh session of the
        role the Terraform created, through the kit's gateway (which records each call)."""
        if role is None:
            return self.ctx.admin(service)
        if role not in self.bound.roles:
            raise InputError(f"client({service!r}, role={role!r}): not a role of "
                             f"{self.scenario.name}; its roles: {', '.join(self.bound.roles)}")
        return aws.client(service, self.bound.gateway.url, self.bound.session(role, "test"))

    def start(self) -> None:
        """Start the scenario's workload: the observer, the solution's workers and the
        kit's producer, which sends the plan the seed draws."""
        if self.scenario.workload.kind != "queue":
            raise InputError(f"start(): {self.scenario.name} is a {self.scenario.workload.kind}"
                             " scenario; the plugin drives queue workloads only")
        if self.workload is not None:
            raise InputError("start(): the workload has started already")
        self.workload = QueueWorkload(self.ctx, self.bound)
        self.workload.start()

    def stopping(self) -> threading.Event:
        """The event a fault's window ends on: the workload's, once it started."""
        return self.workload.stopping if self.workload else self._idle

    def fault_hooks(self) -> fault.FaultHooks:
        """What a fault may act on: the workload's workers and keys, once it started."""
        return self.workload.fault_hooks() if self.workload else fault.FaultHooks()

    def wait_recorded(self, count: int, timeout: float = WAIT_SECONDS) -> None:
        """Wait until the observer has seen `count` distinct keys recorded as effects."""
        with self.recorder.changed:
            if not self.recorder.changed.wait_for(
                    lambda: self.recorder.distinct_keys() >= count, timeout=timeout):
                raise TimeoutError(f"{self.recorder.distinct_keys()} of {count} keys recorded "
                                   f"within {timeout:.0f} s")

    def wait_sent(self, timeout: float = WAIT_SECONDS) -> None:
        """Wait until the producer has sent the whole plan."""
        producer = self._started("wait_sent").producer
        producer.join(timeout=timeout)
        if producer.is_alive():
            raise TimeoutError(f"the producer had not sent its plan within {timeout:.0f} s")

    def settle(self) -> History:
        """Let the run recover (until quiescence, bounded), stop the workload, read the
        final state (as `kit eval`'s observe stage); the history with it."""
        workload = self._started("settle")
        idle = Nemesis(fault.context(self.ctx, self.bound, workload.stopping,
                                     workload.fault_hooks(), "none"))
        try:
            if workload.recovers():
                workload.recover()
        finally:
            workload.stop(idle)
        workload.raise_errors(idle)
        self.final = observe(self.ctx, self.bound)
        return self.history()

    def history(self) -> History:
        """The history so far (with the final state once `settle()` read it)."""
        return self.recorder.history(self.final)

    def check(self, *ids: str) -> dict[str, CheckResult]:
        """The verdicts of the named invariants over the history, with the scenario's
        parameters (the table's defaults for one it does not list)."""
        unknown = [i for i in ids if i not in self.scenario.registry]
        if unknown:
            raise InputError(f"check({', '.join(map(repr, unknown))}): unknown invariant; "
                             f"known: {', '.join(sorted(self.scenario.registry))}")
        params = {i: self.scenario.params.get(i) or _defaults(i) for i in ids}
        return run_checks(self.history(), params, self.scenario.registry)

    def close(self) -> None:
        """Stop the workload if it runs, then everything the deploy and bind started."""
        try:
            if self.workload is not None and self.final is None:
                self.workload.stop(Nemesis(fault.context(
                    self.ctx, self.bound, self.workload.stopping, fault.FaultHooks(), "none")))
        finally:
            self.ctx.stack.close()

    def _started(self, what: str) -> QueueWorkload:
        if self.workload is None:
            raise InputError(f"{what}(): the workload has not started; call start() first")
        return self.workload


def _defaults(check_id: str) -> dict[str, Any]:
    """An invariant's default parameters (a scenario's own check has none)."""
    row = invariants.INVARIANTS.get(check_id)
    return row.params() if row else {}


def deploy_stack(scenario: Scenario, solution: Path, sandbox: Sandbox, seed: int,
                 run_dir: Path, recorder: Recorder) -> Stack:
    """Deploy and bind `solution` in the (reset) sandbox; DeployRefused when it did not
    deploy. Whatever it started is stopped if it raises."""
    stack = contextlib.ExitStack()
    try:
        sandbox.reset()
        with interrupt.deferred():  # so that the stack knows every dir it must remove
            work = Path(tempfile.mkdtemp(prefix="kit-run-", dir=sandbox.runs_dir))
            stack.callback(shutil.rmtree, work, True)
        work.chmod(0o711)
        run_dir.mkdir(parents=True, exist_ok=True)
        ctx = RunContext(scenario, solution, "none", seed, run_dir, work, sandbox,
                         Stages(f"pytest seed {seed}"), stack, recorder)
        if scenario.rds is not None:  # every DB instance it creates gets real servers
            with interrupt.deferred():
                sandbox.rds.plane.enable(scenario.rds)
                stack.callback(sandbox.rds.plane.reset)
        values = deploy(ctx)
        bound = None if values is None else _bind(ctx, values)
        if bound is None:
            raise DeployRefused(f"{solution}: did not deploy: {_why(recorder)}")
        return Stack(ctx, bound)
    except BaseException:
        stack.close()
        raise


def _why(recorder: Recorder) -> str:
    """What the gate or the deploy said of a solution that did not deploy."""
    for op in reversed(recorder.snapshot()):
        if op.kind == "gate" and op.value.violations:
            return "refused by the gate: " + "; ".join(op.value.violations)
        if op.kind == "deploy" and not op.value.ok:
            return f"{op.value.stage} failed: " + "; ".join(op.value.diagnostics)
    return "no diagnostics recorded"

