"""One run: (scenario, solution, fault, seed) through the whole pipeline, all disposable.

Stages: sandbox -> gate -> init -> apply -> bind -> workload (+ fault) -> recover -> observe
-> teardown -> check; each is timed (RunResult.timings) and logged as it begins.
Everything that waits is bounded here; the checkers only read the recorded history.
Nothing here knows a scenario's messages or tables: scenario.yaml binds them and the
scenario's workload module describes them.
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
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kit import interrupt
from kit.bind import Bound, Unlocated, arns, bind, kit_values, resource_values, worker_env
from kit.checks import ALWAYS, DRILL_GATES, CheckResult, run_checks, worst
from kit.checks.interference import KIT_UNHARMED
from kit.checks.least_privilege import LEAST, LEAST_DEFAULTS
from kit.checks.producer import PRODUCER_SENDS
from kit.deploy import gate, hcl, inspect, intake
from kit.deploy.evidence import Witness
from kit.deploy.override import SERVICES
from kit.deploy.terraform import DeployFailure, EnvironmentFailure, Terraform
from kit.errors import KitError, SolutionError, describe_os_error
from kit.faults import FAULTS, FaultContext, Nemesis
from kit.history import FinalState, History
from kit.iam.usage import used_vs_granted
from kit.sandbox import Sandbox, support
from kit.scenario import Scenario
from kit.workload import aws, final, iam_state
from kit.workload.drill import Drill
from kit.workload.observer import BucketObserver, Observer
from kit.workload.producer import Producer, single_send_keys
from kit.workload.recorder import Recorder
from kit.workload.supervisor import Supervisor

log = logging.getLogger(__name__)
QUIESCENCE_POLL = 0.2
QUIET_SECONDS = 3.0
SERVICE_LOG_TAIL = 256 * 1024  # bytes kept of each service's log when a run breaks
GATE_AND_DEPLOY = ("deploy.allowed_constructs", "deploy.applies")
# Judged from the deployed configuration alone: they stand even when nothing ran.
STATIC = ("iam.required_access", "iam.least_privilege", "iam.resource_exposure",
          "iam.permissions_boundary", "encryption.at_rest", "rds.hardening")


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
    used_vs_granted: dict[str, Any] | None = None  # per role, kit/iam/usage.py
    # {complete, missing [what and how to get it], roles {role: axes}}: kit/sandbox/confine.py
    confinement: dict[str, Any] | None = None
    emulators: dict[str, str] | None = None  # AWS service -> the emulator that served it
    # Invariants set aside by a cross-check (kit/crosscheck.py): emulators disagreed.
    fidelity_findings: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the JSON report."""
        return {
            "scenario": self.scenario, "solution": self.solution, "fault": self.fault,
            "seed": self.seed, "outcome": self.outcome, "error": self.error,
            "timings": {k: round(v, 3) for k, v in self.timings.items()},
            "run_dir": self.run_dir,
            "invariants": {k: r.model_dump(mode="json") for k, r in self.results.items()},
            "used_vs_granted": self.used_vs_granted,
            "confinement": self.confinement,
            "emulators": self.emulators,
            "fidelity_findings": self.fidelity_findings,
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


def run_once(scenario: Scenario, solution: Path, fault: str, seed: int, run_dir: Path,
             sandbox: Sandbox | None = None, recorder: Recorder | None = None) -> RunResult:
    """Run the pipeline once. Never raises (but for Ctrl-C): whatever breaks is recorded
    as the run's `error`, with the traceback in the run dir when the kit itself broke.
    `recorder`: the run's ledger, given to watch the run as it goes (`kit drill`)."""
    result = RunResult(scenario.name, str(solution), fault, seed, "error",
                       run_dir=str(run_dir))
    stage = _Stages(f"{fault} seed {seed}")
    work: Path | None = None
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        with contextlib.ExitStack() as stack:
            if sandbox is None:
                with stage("sandbox"):
                    sandbox = Sandbox(provider=True)
                    stack.push(sandbox)  # before it starts: a Ctrl-C as it returns stops it too
                    sandbox.__enter__()
            else:
                with stage("sandbox"):
                    sandbox.reset()
            stack.push(functools.partial(_keep_service_logs, sandbox, run_dir))
            with interrupt.deferred():  # so that `finally` knows every dir it must remove
                # Under the sandbox's runs/: the only run directories its provider sees.
                work = Path(tempfile.mkdtemp(prefix="kit-run-", dir=sandbox.runs_dir))
            work.chmod(0o711)
            result.emulators = sandbox.routes.served_by(scenario.aws_services)
            history = _Run(scenario, solution, fault, seed, run_dir, work, sandbox, stage,
                           stack, recorder or Recorder()).pipeline()
            with stage("teardown"):
                stack.close()
        history.save(run_dir / "history.json")
        result.confinement = _confinement(history)
        with stage("check"):
            result.results, result.error = _judge(scenario, history)
            result.used_vs_granted = _usage(scenario, history)
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


def _judge(scenario: Scenario, history: History) -> tuple[dict[str, CheckResult], str | None]:
    """The verdicts of the invariants this run can judge, and a kit error if it judged
    nothing it should have (no path of a solution's making leads there)."""
    registry = scenario.registry
    # A solution stopped by the gate, or that did not deploy, is judged on that alone:
    # nothing else ran.
    if any(op.value.violations for op in history.of_kind("gate")):
        return run_checks(history, {"deploy.allowed_constructs": {}}, registry), None
    if not all(op.value.ok for op in history.of_kind("deploy")):
        return run_checks(history, {k: {} for k in GATE_AND_DEPLOY}, registry), None
    always = {k: {} for k in ALWAYS}
    static = {k: v for k, v in scenario.params.items() if k in STATIC}
    if scenario.workload.kind == "drill":  # no workers: the application's writes instead
        always.pop("workload.workers_start")
        always |= {k: {} for k in DRILL_GATES}
        if not history.of_kind("write"):  # it never wrote: nothing was recovered
            return run_checks(history, always | static, registry), None
    if history.of_kind("interference"):  # it harmed the kit's observer: judged on that
        return run_checks(history, always | static | {KIT_UNHARMED: {}}, registry), None
    if history.of_kind("crash_loop"):  # no worker ever ran: nothing else to judge
        return run_checks(history, always | static, registry), None
    failed_sends = [op for op in history.ops if op.kind == "send" and op.type == "fail"]
    if failed_sends and not history.of_kind("send"):
        # AWS refused every send (4xx; a 5xx stops the run as the kit's): nothing was
        # processed, so judge what needs no workload. Where none of that names the cause,
        # the producer's gate does, with the refusals as evidence (kit/checks/producer.py):
        # the solution's queue refused the contract's producer, never "cannot tell why".
        results = run_checks(history, always | static, registry)
        if worst(results.values()) == "pass":
            results |= run_checks(history, {PRODUCER_SENDS: {}}, registry)
        return results, None
    return run_checks(history, always | scenario.params, registry), None


def _witness(sandbox: Sandbox) -> Witness:
    """What watches the emulators around the solution's Terraform commands: moto's journal
    and probe (LocalStack keeps no journal: kit/deploy/evidence.py)."""
    return Witness([sandbox.moto.journal], [sandbox.moto.answering],
                   journaled=sandbox.localstack is None)


def _confinement(history: History) -> dict[str, Any]:
    """How the run's processes were confined (each role's axes) and what this machine
    could not give."""
    lacking = support.missing()
    return {"complete": not lacking, "missing": lacking,
            "roles": {op.value.role: op.value.as_dict() for op in history.of_kind("confinement")}}


def _usage(scenario: Scenario, history: History) -> dict[str, Any] | None:
    """Used vs granted per role of the run's processes (None when nothing ran)."""
    if history.final is None or not history.final.iam:
        return None
    services = scenario.params.get(LEAST, LEAST_DEFAULTS)["services"]
    drill = scenario.workload.drill
    if drill is not None:
        processes = {"app": drill.app.role, "runbook": drill.runbook.role}
    else:
        assert scenario.workers is not None and scenario.workload.producer is not None
        processes = {"worker-": scenario.workers.role,
                     "producer": scenario.workload.producer.role}
    return used_vs_granted(history, services, processes)


@dataclass
class _Run:
    """The stages of one run over its shared context."""

    scenario: Scenario
    solution: Path
    fault: str
    seed: int
    run_dir: Path
    work: Path
    sandbox: Sandbox
    stage: _Stages
    stack: contextlib.ExitStack
    recorder: Recorder = field(default_factory=Recorder)
    config: hcl.Configuration | None = None
    tf: Terraform | None = None
    harness: aws.Credentials = aws.ADMIN  # replaced by the harness user's key at init
    # Wall clock at the start: no request of the run is older (final.iam's `since`).
    started_at: float = field(default_factory=time.time)

    def pipeline(self) -> History:
        """Every stage up to the final state; a history that stops where the run did."""
        self.recorder.record("kit", "emulators",
                             served_by=self.sandbox.routes.served_by(self.scenario.aws_services))
        plane = self.sandbox.rds.plane
        if self.scenario.rds is not None:  # every DB instance it creates gets real servers
            with interrupt.deferred():
                plane.enable(self.scenario.rds)
                self.stack.callback(plane.reset)
        values = self.deploy()
        if values is None:
            return self.recorder.history(None)
        with self.stage("bind"):
            try:
                values |= resource_values(self.scenario, values,
                                          aws.client("sqs", self.sandbox.endpoint("sqs")))
            except Unlocated as exc:  # the outputs name what is not where the contract says
                self._refused("outputs", str(exc))
                return self.recorder.history(None)
            assert self.tf is not None
            bound = bind(self.scenario, values, self.sandbox, self.recorder, self.stack,
                         f"s{self.seed}", self.harness, self.tf.dir)
        drill = None
        if self.scenario.workload.kind == "drill":
            drill = Drill(self.scenario, self.fault, self.seed, bound, plane, self.recorder,
                          self.run_dir, self.work, aws.client("rds", self.sandbox.rds.url))
            drill.run(self.stage)
        else:
            self.workload(bound)
        with self.stage("observe"):
            self.recorder.record("kit", "phase", name="observe")
            state = self.observe(bound, drill)
        return self.recorder.history(state)

    # --- deploy ----------------------------------------------------------------------

    def _refused(self, stage_name: str, diagnostics: str, kit_error: str | None = None,
                 gaps: tuple[str, ...] = ()) -> None:
        self.recorder.record("kit", "deploy", ok=False, stage=stage_name,
                             diagnostics=[diagnostics], kit_error=kit_error, gaps=list(gaps))

    def deploy(self) -> dict[str, Any] | None:
        """Gate, baseline, init and apply; the bindings known after apply, or None when the
        run stops here (refused by the gate, or the deploy failed)."""
        with self.stage("gate"):
            unparsed = self._gate()
            if unparsed is False:
                return None
        values = kit_values(self.scenario)
        with self.stage("init"):
            self.recorder.record("kit", "phase", name="deploy")
            self.harness = aws.harness_credentials(self.sandbox.endpoint("iam"))
            values |= self._baseline(values)
            if not self._init(unparsed):
                return None
        with self.stage("apply"):
            outputs = self._apply(values)
        return None if outputs is None else values | {
            f"outputs.{k}": v for k, v in outputs.items()}

    def _gate(self) -> str | None | bool:
        """Parse the solution and look for forbidden constructs: False when refused, else
        the parse error Terraform must judge first (None when everything parsed)."""
        # The directory first, before any file of it is read (links out, override files).
        refused = [str(v) for v in intake.refusals(self.solution)]
        if refused:
            self.recorder.record("kit", "gate", violations=refused)
            return False
        try:
            self.config = hcl.parse(self.solution)
        except SolutionError as exc:
            # Terraform judges syntax at init; if it accepts what the gate cannot read,
            # the gate still refuses.
            return str(exc)
        violations = [str(v) for v in gate.check(
            self.config, self.scenario.toolchain.allowed_providers, self.scenario.modules_dir)]
        if violations:
            self.recorder.record("kit", "gate", violations=violations)
            return False
        return None

    def _init(self, unparsed: str | None) -> bool:
        """Copy, configure and init the solution; False when the run stops here."""
        tf = self.tf = Terraform(self.solution, self.work, **self._provider())
        tf.witness = _witness(self.sandbox)
        self.recorder.record("kit", "confinement", **tf.axes())
        try:
            self._configure(tf, self.config)
            tf.init()
            if unparsed:
                tf.validate()  # Terraform's own diagnostic first, if it rejects it too
        except SolutionError as exc:
            self.recorder.record("kit", "gate", violations=[])
            self._refused(exc.stage if isinstance(exc, DeployFailure) else "configure",
                          exc.diagnostics if isinstance(exc, DeployFailure) else str(exc))
            return False
        self.recorder.record("kit", "gate", violations=[] if not unparsed else [
            f"{unparsed} (Terraform accepts it, but the gate must read every file)"])
        return not unparsed

    def _apply(self, values: dict[str, Any]) -> dict[str, Any] | None:
        """Apply with the contract's variables; the outputs, or None when it failed."""
        assert self.tf is not None
        variables = {var: str(values[binding])
                     for var, binding in self.scenario.contract.variables.items()}
        try:
            self.tf.apply(variables)
            outputs = self.tf.outputs()
        except DeployFailure as failure:
            self._plane_broken()
            self._refused(failure.stage, failure.diagnostics)
            return None
        except EnvironmentFailure as failure:
            self._refused(failure.stage, failure.diagnostics or failure.reason,
                          kit_error=failure.reason, gaps=failure.gaps)
            return None
        problem = self._output_problem(outputs)
        if problem:
            self._refused("outputs", problem)
            return None
        self.recorder.record("kit", "deploy", ok=True, stage="apply", diagnostics=[])
        return outputs

    def _provider(self) -> dict[str, Any]:
        """How a Terraform of this run attaches to the sandbox's provider, if it has one."""
        provider = self.sandbox.provider
        return {"reattach": provider.reattach, "provider_cwd": provider.cwd} if provider else {}

    def _plane_broken(self) -> None:
        """Raise the kit's error when the RDS data plane broke (then a failed apply, which
        waited for an instance that never came, is not the solution's doing)."""
        errors = self.sandbox.rds.plane.errors
        if errors:
            raise KitError("the RDS data plane failed: " + "; ".join(errors))
    def _configure(self, tf: Terraform, config: hcl.Configuration | None = None) -> None:
        """The kit's provider override, aimed at the emulator that serves each service."""
        routes = self.sandbox.routes
        tf.configure(routes.primary.url, config, routes.away_from_primary(SERVICES))

    def _baseline(self, values: dict[str, Any]) -> dict[str, Any]:
        """Apply the scenario's baseline (as the kit); its outputs as baseline.* bindings."""
        baseline = self.scenario.baseline
        if baseline is None:
            return {}
        (self.work / "baseline").mkdir()
        tf = Terraform(self.scenario.modules_dir / baseline.module, self.work / "baseline",
                       **self._provider())
        try:
            self._configure(tf)
            tf.init()
            tf.apply({var: str(values[b]) for var, b in baseline.variables.items()})
            return {f"baseline.{k}": v for k, v in tf.outputs().items()}
        except SolutionError as exc:  # the kit's own module: never the solution's fault
            raise KitError(f"the baseline module {baseline.module} did not deploy: {exc}") \
                from None

    def _output_problem(self, outputs: dict[str, Any]) -> str | None:
        """Why the outputs break the contract: missing, or naming what the solution did
        not create (a decoy, or a resource of the kit's); None when they are fine."""
        wanted = self.scenario.contract.outputs
        missing = [o for o in wanted if not outputs.get(o)]
        if missing:
            return f"missing outputs: {', '.join(missing)}"
        assert self.tf is not None
        created = self.tf.managed_values()
        foreign = [f"{o} = {outputs[o]!r}" for o in wanted if outputs[o] not in created]
        if foreign:
            return ("outputs must name resources this Terraform creates; these do not: "
                    + "; ".join(foreign))
        return None

    # --- workload --------------------------------------------------------------------

    def workload(self, bound: Bound) -> None:
        """Producer, workers, observer and the fault, until quiescence (all bounded)."""
        scenario, recorder = self.scenario, self.recorder
        module = scenario.workload_module
        plan = module.plan(self.seed, scenario.workload_params)
        producer_spec = scenario.workload.producer
        home = self.work / "worker-home"
        home.mkdir()
        spec = scenario.faults[self.fault]
        kind = FAULTS.get(spec.kind)
        # The same for every fault: nothing the workers see announces one before it happens.
        env = worker_env(scenario, bound, str(home))
        workers = scenario.workers

        def session_for(name: str) -> dict[str, str]:
            creds = bound.session(workers.role, name)
            return {"AWS_ACCESS_KEY_ID": creds.access_key_id,
                    "AWS_SECRET_ACCESS_KEY": creds.secret_access_key,
                    "AWS_SESSION_TOKEN": creds.token or ""}

        stopping = threading.Event()
        assert self.tf is not None
        supervisor = Supervisor(workers.command, bound.confinement, env, workers.replicas,
                                session_for, self.run_dir, recorder, workers.stop_grace_seconds,
                                stopping)
        if bound.network is not None:  # a refused connection names its worker
            bound.network.name_of = lambda pid: next(
                (name for name, held in supervisor.holders().items() if held == pid), None)
        queue_url = bound.values[f"{producer_spec.queue}.url"]
        producer = Producer(
            aws.client("sqs", bound.gateway.url,
                       bound.session(producer_spec.role, "producer")),
            producer_spec.queue, queue_url, plan, module.describe,
            producer_spec.interval_seconds, recorder)
        observer = self._observer(bound)
        params = kind.Params.model_validate(spec.params) if kind else None
        nemesis = Nemesis(FaultContext(spec, params, recorder, supervisor, bound.gateway,
                                       stopping, bound.proxies, bound.roles,
                                       single_send_keys(plan, module.describe), self.seed,
                                       self.work, bound.values, bound.harness))
        admin_sqs = aws.client("sqs", self.sandbox.endpoint("sqs"))
        valid = {d.key for d in map(module.describe, (s.body for s in plan)) if d.valid}
        try:
            with self.stage("workload"):
                recorder.record("kit", "phase", name="workload")
                for thread in (observer, supervisor, producer, nemesis):
                    thread.start()
                producer.join(timeout=len(plan) * (producer_spec.interval_seconds + 5))
                nemesis.done.wait(timeout=300)
            # Nothing can recover: no worker ever ran, or the kit could not run them.
            if not supervisor.crash_looped and supervisor.error is None:
                with self.stage("recover"):
                    recorder.record("kit", "phase", name="recover")
                    _await_quiescence(admin_sqs, queue_url, valid, observer,
                                      scenario.quiescence_timeout_seconds)
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

    def _observer(self, bound: Bound) -> Observer | BucketObserver:
        """The watcher of the scenario's effects: a database table or a bucket's objects."""
        effects, key = self.scenario.workload.effects, self.scenario.messages.key
        if effects.bucket:
            return BucketObserver(aws.client("s3", self.sandbox.endpoint("s3")),
                                  bound.values[f"{effects.bucket}.name"], effects.prefix, key,
                                  self.recorder)
        assert effects.database is not None and effects.table is not None
        return Observer(bound.databases[effects.database], effects.table, key, self.recorder)

    def _effect_rows(self, bound: Bound) -> tuple[list[dict[str, Any]],
                                                  dict[str, list[dict[str, Any]]]]:
        """(the effect rows, every table of the effects database) at the end."""
        effects = self.scenario.workload.effects
        if effects.bucket:
            s3 = aws.client("s3", self.sandbox.endpoint("s3"))
            return final.objects(s3, bound.values[f"{effects.bucket}.name"], effects.prefix), {}
        assert effects.database is not None and effects.table is not None
        tables = final.tables(bound.databases[effects.database])
        return tables.get(effects.table, []), tables

    # --- observe ---------------------------------------------------------------------

    def observe(self, bound: Bound, drill: Drill | None = None) -> FinalState:
        """What the run left behind: tables, queues, DB instances, IAM, config facts."""
        scenario = self.scenario

        def client(service: str) -> Any:
            return aws.client(service, self.sandbox.endpoint(service))

        rds = client("rds")  # through the front: the data plane's records, if any
        kinds = {name: name.split(".", 1)[0] for name in scenario.resources}
        instances = {name: final.db_instance(rds, bound.values[f"{name}.instance"])
                     for name, kind in kinds.items() if kind == "database"}
        resources = arns(scenario, bound.values)
        roles = {name: arn for name, arn in resources.items() if kinds[name] == "role"}
        iam = iam_state.read(client("iam"), roles,
                             {n: a for n, a in resources.items() if kinds[n] != "role"},
                             clients=client, since=self.started_at)
        assert self.config is not None
        # The contract's variables are set by the kit: their defaults never reach the apply.
        rds_facts = inspect.rds_config(self.config, passed=scenario.contract.variables)
        common = {"db_instances": instances, "rds_config": rds_facts, "iam": iam}
        if drill is not None:
            in_use, tables = drill.database_in_use()
            return FinalState(tables=tables, in_use=in_use, **common)
        messages = scenario.messages
        assert messages is not None
        admin_sqs = client("sqs")
        rows, tables = self._effect_rows(bound)
        describe = scenario.workload_module.describe
        queues = {name: final.drain(admin_sqs, bound.values[f"{name}.url"], describe)
                  for name, kind in kinds.items() if kind == "queue"}
        return FinalState(effects=final.effects(rows, messages.key), tables=tables,
                          queues=queues, **common)


def _await_quiescence(sqs: Any, queue_url: str, valid: set[str],
                      observer: Observer | BucketObserver,
                      timeout: float) -> None:
    """Wait (bounded) until every valid key is recorded and the queue is empty, or until
    the queue has held nothing, visible or in flight, for QUIET_SECONDS: then nothing more
    can happen (a message the solution dropped will not come back)."""
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

