"""One run: (scenario, solution, fault, seed) through the whole pipeline, all disposable.

Stages: sandbox -> gate -> init -> apply (kit/run/deploy.py) -> bind -> workload with the
fault (kit/run/workload.py over the scenario's workload kind: kit/run/queue.py or
kit/run/drill.py; the fault's context is built once, in kit/run/fault.py) -> recover ->
observe (kit/run/observe.py) -> teardown -> check (kit/run/judge.py); each is timed
(RunResult.timings) and logged as it begins.
Everything that waits is bounded here; the checkers only read the recorded history.
Nothing here knows a scenario's messages or tables: scenario.yaml binds them and the
scenario's workload module describes them.
"""

from __future__ import annotations

import contextlib
import functools
import json
import shutil
import tempfile
import traceback
from pathlib import Path
from typing import Any

from kit import interrupt
from kit.checks import worst
from kit.errors import KitError, describe_os_error
from kit.history import History
from kit.recorder import Recorder
from kit.run import judge
from kit.run.bind import Bound, Unlocated, bind, resource_values
from kit.run.context import RunContext, Stages
from kit.run.deploy import deploy, refused
from kit.run.observe import observe
from kit.run.result import RunResult
from kit.run.sandbox import Sandbox
from kit.run.workload import run_workload
from kit.scenario import Scenario

SERVICE_LOG_TAIL = 256 * 1024  # bytes kept of each service's log when a run breaks


def run_once(scenario: Scenario, solution: Path, fault: str, seed: int, run_dir: Path,
             sandbox: Sandbox | None = None, recorder: Recorder | None = None) -> RunResult:
    """Run the pipeline once. Never raises (but for Ctrl-C): whatever breaks is recorded
    as the run's `error`, with the traceback in the run dir when the kit itself broke.
    `recorder`: the run's ledger, given to watch the run as it goes (`kit drill`)."""
    result = RunResult(scenario.name, str(solution), fault, seed, "error",
                       run_dir=str(run_dir))
    stage = Stages(f"{fault} seed {seed}")
    work: Path | None = None
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        with contextlib.ExitStack() as stack:
            sandbox = _sandbox(sandbox, stage, stack)
            stack.push(functools.partial(_keep_service_logs, sandbox, run_dir))
            with interrupt.deferred():  # so that `finally` knows every dir it must remove
                # Under the sandbox's runs/: the only run directories its provider sees.
                work = Path(tempfile.mkdtemp(prefix="kit-run-", dir=sandbox.runs_dir))
            work.chmod(0o711)
            result.emulators = sandbox.routes.served_by(scenario.aws_services)
            history = pipeline(RunContext(scenario, solution, fault, seed, run_dir, work,
                                          sandbox, stage, stack, recorder or Recorder()))
            with stage("teardown"):
                stack.close()
        history.save(run_dir / "history.json")
        result.confinement = judge.confinement(history)
        with stage("check"):
            result.results, result.error = judge.judge(scenario, history)
            result.used_vs_granted = judge.usage(scenario, history)
        result.outcome = "error" if result.error else worst(result.results.values())
    except KitError as exc:
        result.error = str(exc)
    except OSError as exc:  # e.g. a full disk under the run or work directory
        result.error = describe_os_error(exc)
    except KeyboardInterrupt:
        result.outcome, result.error = "error", "interrupted before the run finished: no verdict"
        raise
    except Exception as exc:  # noqa: BLE001 - a kit bug must cost one run, not the matrix
        result.error = (f"the kit broke: {type(exc).__name__}: {exc} (traceback in "
                        f"{run_dir / 'traceback.txt'})")
        with contextlib.suppress(OSError):
            (run_dir / "traceback.txt").write_text(traceback.format_exc())
    finally:
        if work:
            shutil.rmtree(work, ignore_errors=True)
        result.timings = stage.timings
        with contextlib.suppress(OSError):
            (run_dir / "result.json").write_text(json.dumps(result.to_dict(), indent=2))
    return result


def pipeline(ctx: RunContext) -> History:
    """Every stage from deploy to the final state; a history that stops where the run did."""
    ctx.recorder.record("kit", "emulators",
                        served_by=ctx.sandbox.routes.served_by(ctx.scenario.aws_services))
    plane = ctx.sandbox.rds.plane
    if ctx.scenario.rds is not None:  # every DB instance it creates gets real servers
        with interrupt.deferred():
            plane.enable(ctx.scenario.rds)
            ctx.stack.callback(plane.reset)
    values = deploy(ctx)
    if values is None:
        return ctx.recorder.history(None)
    bound = _bind(ctx, values)
    if bound is None:
        return ctx.recorder.history(None)
    run_workload(ctx, bound)
    with ctx.stage("observe"):
        ctx.recorder.record("kit", "phase", name="observe")
        state = observe(ctx, bound)
    return ctx.recorder.history(state)


def _sandbox(sandbox: Sandbox | None, stage: Stages, stack: contextlib.ExitStack) -> Sandbox:
    """The run's sandbox: a new one, stopped with `stack`, or the one given, reset."""
    with stage("sandbox"):
        if sandbox is not None:
            sandbox.reset()
            return sandbox
        sandbox = Sandbox(provider=True)
        stack.push(sandbox)  # before it starts: a Ctrl-C as it returns stops it too
        sandbox.__enter__()
        return sandbox


def _bind(ctx: RunContext, values: dict[str, Any]) -> Bound | None:
    """The bind stage: the deployed resources' bindings, the gateway, proxies and the
    workers' confinement; None when the outputs name what the contract does not locate."""
    with ctx.stage("bind"):
        try:
            assert ctx.tf is not None
            values |= resource_values(ctx.scenario, values, ctx.admin("sqs"), ctx.tf.state())
        except Unlocated as exc:  # the outputs name what is not where the contract says
            refused(ctx, "outputs", str(exc))
            return None
        assert ctx.tf is not None
        return bind(ctx.scenario, values, ctx.sandbox, ctx.recorder, ctx.stack,
                    f"s{ctx.seed}", ctx.harness, ctx.tf.dir)


def _keep_service_logs(sandbox: Sandbox, run_dir: Path, kind: type[BaseException] | None,
                       *_: object) -> None:
    """On the way out of a run that broke (not one interrupted): copy the end of each
    sandbox service's log (moto, the provider, ...) into the run dir, the evidence of what
    broke, before the sandbox removes its own."""
    workdir = sandbox.workdir
    if kind is None or issubclass(kind, KeyboardInterrupt) or workdir is None:
        return
    with contextlib.suppress(OSError):
        (run_dir / "service-logs").mkdir(exist_ok=True)
        for log in workdir.glob("*.log"):
            with log.open("rb") as source:
                source.seek(max(0, log.stat().st_size - SERVICE_LOG_TAIL))
                (run_dir / "service-logs" / log.name).write_bytes(source.read())
