"""One run: (scenario, solution, fault, seed) through the whole pipeline, all disposable.

Stages: sandbox -> gate -> init -> apply -> bind -> workload (+ fault) -> recover -> observe
-> teardown -> check; each is timed (RunResult.timings) and logged as it begins.
Everything that waits is bounded here; the checkers only read the recorded history.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kit import interrupt
from kit.checks import CheckResult, run_checks, worst
from kit.checks.workers import WORKERS_START
from kit.deploy import gate, inspect
from kit.deploy.terraform import DeployFailure, Terraform
from kit.errors import KitError, SolutionError, describe_os_error
from kit.faults import FaultContext, Nemesis
from kit.gateway.server import Gateway
from kit.history import FinalState, History
from kit.sandbox import Sandbox
from kit.sandbox.netns import WorkerNetwork
from kit.scenario import MODULES, Scenario
from kit.workload import aws, final, iam_state
from kit.workload.observer import Observer
from kit.workload.producer import Producer, plan
from kit.workload.recorder import Recorder
from kit.workload.supervisor import Supervisor

log = logging.getLogger(__name__)
QUIESCENCE_POLL = 0.2
QUIET_SECONDS = 3.0
GATE_AND_DEPLOY = ("deploy.allowed_constructs", "deploy.applies")


@dataclass
class RunResult:
    """The verdict of one run, per invariant, with where its history and logs are."""

    scenario: str
    solution: str
    fault: str
    seed: int
    outcome: str  # pass | fail | error
    results: dict[str, CheckResult] = field(default_factory=dict)
    error: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    run_dir: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the JSON report."""
        return {
            "scenario": self.scenario, "solution": self.solution, "fault": self.fault,
            "seed": self.seed, "outcome": self.outcome, "error": self.error,
            "timings": {k: round(v, 3) for k, v in self.timings.items()},
            "run_dir": self.run_dir,
            "invariants": {k: r.model_dump(mode="json") for k, r in self.results.items()},
        }


class _Stages:
    """Times each stage of the run and logs when each one begins."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.timings: dict[str, float] = {}

    @contextlib.contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        interrupt.checkpoint()
        log.info("%s: stage %s", self.label, name)
        started = time.monotonic()
        try:
            yield
        finally:
            self.timings[name] = self.timings.get(name, 0.0) + time.monotonic() - started


def run_once(scenario: Scenario, solution: Path, fault: str, seed: int, run_dir: Path,
             sandbox: Sandbox | None = None) -> RunResult:
    """Run the pipeline once; never raises for the solution's faults or the kit's errors."""
    result = RunResult(scenario.name, str(solution), fault, seed, "error",
                       run_dir=str(run_dir))
    stage = _Stages(f"{fault} seed {seed}")
    recorder = Recorder()
    run_dir.mkdir(parents=True, exist_ok=True)
    work: Path | None = None
    try:
        with interrupt.deferred():  # so that `finally` knows every dir it must remove
            work = Path(tempfile.mkdtemp(prefix="kit-run-"))
        with contextlib.ExitStack() as stack:
            if sandbox is None:
                with stage("sandbox"):
                    sandbox = Sandbox(provider=True)
                    stack.push(sandbox)  # before it starts: a Ctrl-C as it returns stops it too
                    sandbox.__enter__()
            else:
                with stage("sandbox"):
                    sandbox.moto.reset()
                    sandbox.toxiproxy.reset()
            history = _pipeline(scenario, solution, fault, seed, run_dir, work, sandbox,
                                recorder, stage, stack)
            with stage("teardown"):
                stack.close()
        history.save(run_dir / "history.json")
        with stage("check"):
            result.results = _judge(scenario, history)
        result.outcome = worst(result.results.values())
    except KitError as exc:
        result.error = str(exc)
    except OSError as exc:  # e.g. a full disk under the run or work directory
        result.error = describe_os_error(exc)
    except KeyboardInterrupt:
        result.outcome, result.error = "error", "interrupted before the run finished: no verdict"
        raise
    finally:
        if work:
            shutil.rmtree(work, ignore_errors=True)
        result.timings = stage.timings
        (run_dir / "result.json").write_text(json.dumps(result.to_dict(), indent=2))
    return result


def _judge(scenario: Scenario, history: History) -> dict[str, CheckResult]:
    # A solution stopped by the gate, or that did not deploy, is judged on that alone:
    # nothing else ran.
    if any(op.value["violations"] for op in history.of_kind("gate")):
        return run_checks(history, {"deploy.allowed_constructs": {}})
    if not all(op.value.get("ok") for op in history.of_kind("deploy")):
        return run_checks(history, {k: {} for k in GATE_AND_DEPLOY})
    always = {k: {} for k in (*GATE_AND_DEPLOY, WORKERS_START)}
    if history.of_kind("crash_loop"):  # no worker ever ran: nothing else to judge
        return run_checks(history, always)
    return run_checks(history, always | scenario.params)


def _pipeline(scenario: Scenario, solution: Path, fault: str, seed: int, run_dir: Path,
              work: Path, sandbox: Sandbox, recorder: Recorder, stage: _Stages,
              stack: contextlib.ExitStack) -> History:
    moto = sandbox.moto.url
    with stage("gate"):
        try:
            violations = [str(v) for v in gate.check(solution, scenario.toolchain.allowed_providers,
                                                     MODULES)]
            unparsed = None
        except SolutionError as exc:
            # Terraform judges syntax below; if it accepts what the gate cannot read, refuse.
            violations, unparsed = [], str(exc)
        if violations:
            recorder.record("kit", "gate", violations=violations)
            return recorder.history(None)
    def failed(stage_name: str, diagnostics: str) -> History:
        recorder.record("kit", "deploy", ok=False, stage=stage_name, diagnostics=[diagnostics])
        return recorder.history(None)

    with stage("init"):
        recorder.record("kit", "phase", name="deploy")
        harness = aws.harness_credentials(moto)
        tf = Terraform(solution, work,
                       reattach=sandbox.provider.reattach if sandbox.provider else None)
        try:
            tf.configure(moto)
            tf.init()
            if unparsed:
                tf.validate()  # Terraform's own diagnostic first, if it rejects the file too
        except SolutionError as exc:
            recorder.record("kit", "gate", violations=[])
            if isinstance(exc, DeployFailure):
                return failed(exc.stage, exc.diagnostics)
            return failed("configure", str(exc))
        recorder.record("kit", "gate", violations=[] if not unparsed else [
            f"{unparsed} (Terraform accepts it, but the gate must read every file)"])
        if unparsed:
            return recorder.history(None)
    with stage("apply"):
        try:
            tf.apply({"harness_principal_arn": aws.HARNESS_ARN})
            outputs = tf.outputs()
        except DeployFailure as failure:
            return failed(failure.stage, failure.diagnostics)
        problem = _output_problem(scenario, outputs, tf)
        if problem:
            return failed("outputs", problem)
        recorder.record("kit", "deploy", ok=True, stage="apply", diagnostics=[])

    with stage("bind"):
        dsn = sandbox.postgres.create_database(f"orders_{seed}_{int(time.time() * 1000)}")
        dbname = dsn.rsplit("/", 1)[1]
        # Each of these is registered for teardown in the same breath as it is made.
        with interrupt.deferred():
            db_proxy = sandbox.toxiproxy.proxy(f"db-{dbname}",
                                               f"127.0.0.1:{sandbox.postgres.port}")
            stack.callback(db_proxy.delete)
            gateway = stack.enter_context(Gateway(moto, recorder))
            sqs_proxy = sandbox.toxiproxy.proxy(f"sqs-{dbname}", f"127.0.0.1:{gateway.port}")
            stack.callback(sqs_proxy.delete)
            # Workers see only these two ports (where the machine allows a namespace).
            network = WorkerNetwork.create([db_proxy.port, sqs_proxy.port])
            if network:
                stack.callback(network.close)
                for proxy in (db_proxy, sqs_proxy):
                    proxy.mirrors.append(functools.partial(network.set_enabled, proxy.port))
        recorder.record("kit", "confinement", network="namespace" if network else "host")
        producer_creds = aws.assume(moto, harness, outputs["producer_role_arn"], "producer")
        _register(gateway, producer_creds, "producer", outputs["producer_role_arn"])
        home = work / "worker-home"
        home.mkdir()
        env = {
            "QUEUE_URL": outputs["queue_url"], "DLQ_URL": outputs["dlq_url"],
            "DATABASE_URL": sandbox.postgres.dsn(dbname, port=db_proxy.port),
            "AWS_ENDPOINT_URL": f"http://127.0.0.1:{sqs_proxy.port}",
            "AWS_REGION": aws.REGION, "WORK_SECONDS": str(scenario.workload.work_seconds),
            "PATH": "/usr/bin:/bin", "HOME": str(home), "PYTHONUNBUFFERED": "1",
            "LANG": "C.UTF-8",
        }

        def session_for(name: str) -> dict[str, str]:
            creds = aws.assume(moto, harness, outputs["worker_role_arn"], name)
            _register(gateway, creds, name, outputs["worker_role_arn"])
            return {"AWS_ACCESS_KEY_ID": creds.access_key_id,
                    "AWS_SECRET_ACCESS_KEY": creds.secret_access_key,
                    "AWS_SESSION_TOKEN": creds.token or ""}

    load = scenario.workload
    the_plan = plan(seed, load.orders, load.customers, load.duplicate_sends, load.poison)
    observer = Observer(sandbox.postgres.dsn(dbname), recorder)
    stopping = threading.Event()
    supervisor = Supervisor(scenario.contract.worker.command, tf.dir, env,
                            scenario.contract.worker.replicas, session_for, run_dir, recorder,
                            scenario.contract.worker.stop_grace_seconds, stopping,
                            network.enter if network else None)
    producer = Producer(aws.client("sqs", gateway.url, producer_creds), outputs["queue_url"],
                        the_plan, load.send_interval_seconds, recorder)
    nemesis = Nemesis(FaultContext(scenario.faults[fault], recorder, supervisor, gateway,
                                   db_proxy, sqs_proxy, stopping, outputs["worker_role_arn"],
                                   the_plan.single_send_orders))
    admin_sqs = aws.client("sqs", moto)
    try:
        with stage("workload"):
            recorder.record("kit", "phase", name="workload")
            for thread in (observer, supervisor, producer, nemesis):
                thread.start()
            producer.join(timeout=len(the_plan.bodies) * (load.send_interval_seconds + 5))
            nemesis.done.wait(timeout=300)
        if not supervisor.crash_looped:  # nothing can recover: no worker ever ran
            with stage("recover"):
                recorder.record("kit", "phase", name="recover")
                _await_quiescence(admin_sqs, outputs["queue_url"], the_plan.valid_order_ids,
                                  observer, scenario.quiescence_timeout_seconds)
    finally:
        stopping.set()
        producer.stopping.set()
        supervisor.stop()
        observer.stop()
        if nemesis.ident is not None:  # a Ctrl-C may come before it started
            nemesis.join(timeout=30)
    for thread in (producer, nemesis, supervisor, observer):
        if thread.error is not None:
            raise thread.error if isinstance(thread.error, KitError) else KitError(
                f"{thread.name} failed: {thread.error!r}")
    with stage("observe"):
        recorder.record("kit", "phase", name="observe")
        orders, balances = final.orders_and_balances(sandbox.postgres.dsn(dbname))
        queue_arn, dlq_arn = (admin_sqs.get_queue_attributes(
            QueueUrl=outputs[key], AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
            for key in ("queue_url", "dlq_url"))
        iam = iam_state.read(
            aws.client("iam", moto),
            {k.removesuffix("_role_arn"): v for k, v in outputs.items()
             if k.endswith("_role_arn")},
            {"queue": queue_arn, "dlq": dlq_arn})
        state = FinalState(
            orders=orders, balances=balances,
            queue_messages=final.drain(admin_sqs, outputs["queue_url"]),
            dlq_messages=final.drain(admin_sqs, outputs["dlq_url"]),
            db_instance=final.db_instance(aws.client("rds", moto),
                                          outputs["db_instance_identifier"]),
            rds_config=inspect.rds_config(tf.dir), iam=iam)
    return recorder.history(state)


def _output_problem(scenario: Scenario, outputs: dict[str, Any], tf: Terraform) -> str | None:
    """Why the outputs break the contract: missing, or naming what the solution did not
    create (a decoy, or a resource of the kit's); None when they are fine."""
    missing = [o for o in scenario.contract.outputs if not outputs.get(o)]
    if missing:
        return f"missing outputs: {', '.join(missing)}"
    created = tf.managed_values()
    foreign = [f"{o} = {outputs[o]!r}" for o in scenario.contract.outputs
               if outputs[o] not in created]
    if foreign:
        return ("outputs must name resources this Terraform creates; these do not: "
                + "; ".join(foreign))
    return None


def _register(gateway: Gateway, creds: aws.Credentials, process: str, role_arn: str) -> None:
    """Let the gateway verify and authorize this session, attributing its calls to `process`."""
    gateway.register(creds.access_key_id, process, secret_access_key=creds.secret_access_key,
                     session_token=creds.token, role_arn=role_arn, principal_arn=creds.arn)


def _await_quiescence(sqs: Any, queue_url: str, valid: set[str], observer: Observer,
                      timeout: float) -> None:
    """Wait (bounded) until every valid order is recorded and the queue is empty, or until
    the queue has held nothing, visible or in flight, for QUIET_SECONDS: then nothing more
    can happen (an order the solution dropped will not come back)."""
    deadline = time.monotonic() + timeout
    empty_since: float | None = None
    while time.monotonic() < deadline:
        attrs = sqs.get_queue_attributes(
            QueueUrl=queue_url, AttributeNames=["ApproximateNumberOfMessages",
                                                "ApproximateNumberOfMessagesNotVisible"]
        )["Attributes"]
        empty = all(int(v) == 0 for v in attrs.values())
        now = time.monotonic()
        empty_since = (empty_since or now) if empty else None
        if empty and (valid <= observer.seen or now - empty_since >= QUIET_SECONDS):
            return
        time.sleep(QUIESCENCE_POLL)
