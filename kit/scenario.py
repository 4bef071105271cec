"""Load and validate scenario.yaml: the single source of truth for a scenario.

A scenario is a plugin: `scenarios/<name>/` holds scenario.yaml, prompt.md and, only where
data cannot say it, `workload.py` (what to send, what a valid message is) and `checks.py`
(its own invariants); see kit/workload/api.py. Its golden solution is `golden/<name>/`
and its variants `variants/<name>/`, beside `scenarios/` in the same root: the kit's own
repository, or a team's (`kit eval --scenarios DIR`, or KIT_SCENARIOS).

Errors name the file and the field (`faults.db_outage.duration_seconds: ...`), never a
traceback. Every binding (kit/bindings.py), fault target and fault parameter is checked
when the file is loaded, not when a run reaches it.
"""

from __future__ import annotations

import os
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from kit import bindings
from kit.checks import INVARIANTS, Invariant, invariants
from kit.checks.params import ParamError
from kit.errors import InputError
from kit.faults.spec import Fault
from kit.rds.config import RdsTimings
from kit.reward import RewardSpec
from kit.workload.api import Check, WorkloadModule, load_checks, load_workload, validate_params

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
MODULES = ROOT / "modules"
ENV_ROOTS = "KIT_SCENARIOS"  # os.pathsep-separated roots holding scenarios/, golden/, ...


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Toolchain(Strict):
    aws_provider: str = "~> 6.0"
    allowed_providers: tuple[str, ...] = ("hashicorp/aws", "hashicorp/random")


class Contract(Strict):
    """What the solution's Terraform takes (variable -> binding) and must output."""

    variables: dict[str, str] = {}
    outputs: tuple[str, ...]


class Workers(Strict):
    """The solution's consumers: worker processes (command, count, role, environment), or
    with `kind: lambda` a Lambda function the kit runs as the Lambda service would, behind
    its SQS event source mapping (kit/lambdas/): `function` names the `function.*`
    resource, `source` (relative to the solution) its handler's code, else the package the
    function was deployed from; `role` is its execution role's resource."""

    kind: Literal["process", "lambda"] = "process"
    command: tuple[str, ...] = ("python", "-m", "worker")
    replicas: int = Field(3, ge=1, le=16)
    stop_grace_seconds: float = Field(5.0, gt=0)
    role: str
    env: dict[str, str] = {}  # variable -> binding, besides the AWS_* ones the kit sets
    function: str | None = None  # kind lambda: the function resource
    source: str | None = None  # kind lambda: the handler's directory in the solution

    @model_validator(mode="after")
    def _kind_fields(self) -> Workers:
        if self.kind == "lambda":
            if self.function is None:
                raise ValueError("kind lambda needs `function`: the function.* resource "
                                 "of the consumer (e.g. function: function.consumer)")
            if self.env:
                raise ValueError("kind lambda takes its environment from the deployed "
                                 "function (its `environment` block), not `env`")
            if self.source is not None and (self.source.startswith("/")
                                            or ".." in Path(self.source).parts):
                raise ValueError(f"source {self.source!r} must be a directory inside the "
                                 "solution (relative, without '..')")
        elif self.function is not None or self.source is not None:
            raise ValueError("`function` and `source` are for kind lambda only "
                             "(add `kind: lambda`)")
        return self


class Messages(Strict):
    """The fields of a message body; `key` names what a message acts on."""

    key: str
    fields: dict[str, Literal["str", "int", "float", "bool"]]

    @model_validator(mode="after")
    def _key_is_a_field(self) -> Messages:
        if self.key not in self.fields:
            raise ValueError(f"key {self.key!r} is not one of the fields "
                             f"{', '.join(self.fields)}")
        return self


class Producer(Strict):
    """Who sends the workload's messages, where, and how fast."""

    role: str
    queue: str
    interval_seconds: float = Field(0.02, ge=0)


class Effects(Strict):
    """Where a processed message leaves its mark, one per key: a row of `table` in a database
    resource (the key column is named like the message key), or a JSON object under
    `prefix` in a bucket resource (its body holds the message's fields, the key among them)."""

    database: str | None = None
    table: str | None = None
    bucket: str | None = None
    prefix: str = ""

    @model_validator(mode="after")
    def _one_store(self) -> Effects:
        table = self.database is not None and self.table is not None
        if table == (self.bucket is not None) or (self.database is None) != (self.table is None):
            raise ValueError("give either database and table, or bucket (and prefix)")
        return self

    @property
    def kind(self) -> str:
        """The kind of resource that holds the effects: database or bucket."""
        return "bucket" if self.bucket else "database"

    @property
    def resource(self) -> str:
        """The resource that holds the effects."""
        return self.bucket or self.database or ""


class App(Strict):
    """The kit's application (drills): it writes one transaction at a time, planned by the
    scenario's workload.py, to the database it finds through the `endpoint` secret (JSON
    host, port, username, dbname), as the `role` resource."""

    role: str
    endpoint: str  # a secret resource
    database: str  # the database resource it starts on
    interval_seconds: float = Field(0.02, ge=0, le=5)


class Runbook(Strict):
    """The solution's runbook (drills): run once per incident, as `role`, with the incident
    as JSON in the INCIDENT environment variable, bounded by `timeout_seconds`."""

    command: tuple[str, ...] = ("python", "-m", "runbook")
    role: str
    env: dict[str, str] = {}  # variable -> binding, besides INCIDENT and the AWS_* ones
    timeout_seconds: float = Field(120, gt=0, le=600)


class Drill(Strict):
    """A drill's workload: the application writes, one fault strikes, the runbook recovers.

    Without a fault the run ends after `writes` acknowledged writes; with one, once the
    runbook has exited and `settle_writes` writes were acknowledged after it (the
    application recovered), or after `recovery_timeout_seconds` (it did not)."""

    app: App
    runbook: Runbook
    writes: int = Field(150, ge=1)
    settle_writes: int = Field(20, ge=1)
    recovery_timeout_seconds: float = Field(60, gt=0, le=600)


class Workload(Strict):
    """What runs on the deployed stack: `queue` (a producer and the solution's workers) or
    `drill` (the kit's application and the solution's runbook)."""

    kind: Literal["queue", "drill"] = "queue"
    module: str = "workload.py"
    checks: str = "checks.py"
    producer: Producer | None = None
    effects: Effects | None = None
    drill: Drill | None = None
    params: dict[str, Any] = {}

    @model_validator(mode="after")
    def _kind_has_its_parts(self) -> Workload:
        needs = {"queue": ("producer", "effects"), "drill": ("drill",)}[self.kind]
        missing = [part for part in needs if getattr(self, part) is None]
        if missing:
            raise ValueError(f"a {self.kind} workload needs {' and '.join(missing)}")
        stray = [part for kind, parts in (("queue", ("producer", "effects")),
                                          ("drill", ("drill",))) if kind != self.kind
                 for part in parts if getattr(self, part) is not None]
        if stray:
            raise ValueError(f"{', '.join(stray)} belong to another workload kind than "
                             f"{self.kind!r}")
        return self


class Baseline(Strict):
    """Infrastructure that exists before the solution: a module of modules/, applied first;
    its outputs are `baseline.<name>` bindings (e.g. passed to the solution as variables)."""

    module: str
    variables: dict[str, str] = {}


class Scenario(Strict):
    name: str
    summary: str
    toolchain: Toolchain = Toolchain()
    baseline: Baseline | None = None
    contract: Contract
    resources: dict[str, dict[str, str]]
    workers: Workers | None = None  # queue workloads
    messages: Messages | None = None  # queue workloads
    workload: Workload
    rds: RdsTimings | None = None  # present: DB instances are backed by real servers
    faults: dict[str, Fault]
    invariants: dict[str, dict[str, Any] | None]
    quiescence_timeout_seconds: float = Field(60, gt=0)
    reward: RewardSpec = RewardSpec()
    # AWS services the solution uses beyond those its resources imply (ec2 for a VPC): with
    # them, the kit knows every service a run reaches and which emulator serves each.
    services: tuple[str, ...] = ()
    directory: Path = Path()  # where scenario.yaml is
    root: Path = Path()  # the directory holding scenarios/, golden/, variants/

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        if "none" not in self.faults:
            raise ValueError("faults must include `none` (the fault-free baseline run)")
        if self.workload.kind == "queue" and (self.workers is None or self.messages is None):
            raise ValueError("a queue workload needs `workers` and `messages`")
        if self.workload.kind == "drill" and self.rds is None:
            raise ValueError("a drill needs `rds` (the data plane's clock; {} for defaults)")
        always = invariants.always(self.workload.kind)
        stray = sorted(set(self.reward.severities) - set(self.invariants) - set(always))
        if stray:
            raise ValueError(f"reward.severities names invariant(s) the scenario does not "
                             f"check: {', '.join(stray)}")
        return self

    @property
    def golden(self) -> Path:
        return self.root / "golden" / self.name

    @property
    def variants_dir(self) -> Path:
        return self.root / "variants" / self.name

    @property
    def modules_dir(self) -> Path:
        """Where its baseline and shared modules live: the root's modules/ or the kit's."""
        own = self.root / "modules"
        return own if own.is_dir() else MODULES

    @cached_property
    def workload_module(self) -> WorkloadModule:
        return load_workload(self.directory / self.workload.module, self.name)

    @cached_property
    def own_checks(self) -> dict[str, Check]:
        return load_checks(self.directory / self.workload.checks, self.name)

    @cached_property
    def table(self) -> dict[str, Invariant]:
        """Every invariant this scenario may name: the kit's table and its own checks."""
        own = {i: Invariant.own(i, c.checker, c.defaults) for i, c in self.own_checks.items()}
        return {**INVARIANTS, **own}

    @cached_property
    def registry(self) -> dict[str, Any]:
        """Every checker this scenario may name: the kit's and its own."""
        return invariants.checkers(self.table)

    @cached_property
    def params(self) -> dict[str, dict[str, Any]]:
        """Each invariant's parameters, resolved once (defaults applied, validated): what its
        checker receives."""
        return {i: self.table[i].params(p) for i, p in self.invariants.items()}

    @cached_property
    def aws_services(self) -> tuple[str, ...]:
        """Every AWS service a run reaches: the kit's own (iam, sts), those of its resources'
        and its faults' targets (kit/bindings.py SERVICES), and `services`."""
        targets = [f.target or "" for f in self.faults.values()]
        kinds = {name.split(".", 1)[0] for name in [*self.resources, *targets]}
        found = {"iam", "sts", *self.services}
        for kind in kinds:
            found.update(bindings.SERVICES.get(kind, ()))
        return tuple(sorted(found))

    @cached_property
    def workload_params(self) -> BaseModel:
        """workload.params, validated by the scenario's own model."""
        return validate_params(self.workload_module, self.workload.params, "workload.params")


def roots() -> list[Path]:
    """Where scenarios are looked up: KIT_SCENARIOS roots first, then the kit's own."""
    extra = [Path(p) for p in os.environ.get(ENV_ROOTS, "").split(os.pathsep) if p]
    return [*extra, ROOT]


def known() -> list[str]:
    """Names of the scenarios in every root."""
    return sorted({p.parent.name for r in roots() for p in (r / "scenarios").glob(
        "*/scenario.yaml")})


def load(name_or_path: str | Path) -> Scenario:
    """Load a scenario by name (found in `roots()`) or by the path of its scenario.yaml."""
    path = Path(name_or_path)
    if path.suffix:
        path = path.resolve()
        # In a root's scenarios/ folder, or standing alone (then it is its own root).
        root = path.parent.parent.parent if path.parent.parent.name == "scenarios" \
            else path.parent
    else:
        found = [r for r in roots() if (r / "scenarios" / str(name_or_path) /
                                        "scenario.yaml").exists()]
        if not found:
            raise InputError(f"unknown scenario {name_or_path!r}; known: "
                             f"{', '.join(known()) or 'none'} (add a root with --scenarios "
                             f"DIR or {ENV_ROOTS})")
        root = found[0]
        path = root / "scenarios" / str(name_or_path) / "scenario.yaml"
    raw = _read(path)
    try:
        scenario = Scenario.model_validate({**raw, "root": root, "directory": path.parent})
    except ValidationError as exc:
        raise InputError(f"{path}: " + _describe(exc)) from None
    if path.parent.name != scenario.name and path.parent.parent.name == "scenarios":
        raise InputError(f"{path}: field name is {scenario.name!r} but the folder is "
                         f"{path.parent.name!r}")
    try:
        _check_invariants(scenario)
        scenario.params  # noqa: B018 - validate invariant params now, not mid-run
        params = scenario.workload_params
        _check_bindings(scenario, set(type(params).model_fields))
        _check_faults(scenario)
        _check_services(scenario)
    except ParamError as exc:
        raise InputError(f"{path}: invariants.{exc}") from None
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
    return scenario


def _read(path: Path) -> dict[str, Any]:
    try:
        raw = yaml.safe_load(path.read_text())
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML: {exc}") from exc
    if not isinstance(raw, dict):
        raise InputError(f"{path}: expected a mapping at the top level, got {type(raw).__name__}")
    return raw


def _check_invariants(scenario: Scenario) -> None:
    unknown = sorted(set(scenario.invariants) - set(scenario.registry))
    if unknown:
        raise InputError(f"field invariants: unknown invariant id(s) {', '.join(unknown)}; "
                         f"known: {', '.join(sorted(scenario.registry))}")
    clash = sorted(set(scenario.own_checks) & set(INVARIANTS))
    if clash:
        raise InputError(f"{scenario.workload.checks} redefines the kit's invariant(s) "
                         f"{', '.join(clash)}: name the scenario's own differently")


def _check_bindings(scenario: Scenario, params: set[str]) -> None:
    """Every binding names something the scenario declares; InputError names the field."""
    outputs = scenario.contract.outputs
    before_apply = ("baseline", "kit")
    where_what: list[tuple[str, str, tuple[str, ...]]] = []
    for name, attrs in scenario.resources.items():
        try:
            kind = bindings.check_resource_name(name)
        except bindings.BindingError as exc:
            raise InputError(f"field resources.{name}: {exc}") from None
        declared = bindings.declared_attribute(kind)
        if set(attrs) != {declared}:
            raise InputError(f"field resources.{name}: a {kind} is declared by its "
                             f"`{declared}` alone (e.g. {{{declared}: outputs.<name>}}), "
                             f"got {', '.join(attrs) or 'nothing'}")
        where_what.append((f"resources.{name}.{declared}", attrs[declared],
                           ("outputs", "baseline")))
    for var, value in scenario.contract.variables.items():
        where_what.append((f"contract.variables.{var}", value, before_apply))
    for where, env in _process_envs(scenario).items():
        for var, value in env.items():
            where_what.append((f"{where}.{var}", value,
                               ("outputs", "baseline", "kit", "workload", "resource")))
    refs = _references(scenario)
    baseline = _baseline_outputs(scenario)
    for where, binding, allowed in where_what:
        try:
            bindings.check(binding, outputs=outputs, resources=scenario.resources,
                           params=params, baseline=baseline, allowed=allowed)
        except bindings.BindingError as exc:
            raise InputError(f"field {where}: {exc}") from None
    for where, (name, kind) in refs.items():
        if name not in scenario.resources or not name.startswith(f"{kind}."):
            declared = [r for r in scenario.resources if r.startswith(f"{kind}.")]
            raise InputError(f"field {where}: {name!r} is not a declared {kind}; the "
                             f"scenario declares {', '.join(declared) or 'none'}")


def _process_envs(scenario: Scenario) -> dict[str, dict[str, str]]:
    """Where the solution's processes get bindings as environment variables."""
    drill = scenario.workload.drill
    if drill is not None:
        return {"workload.drill.runbook.env": drill.runbook.env}
    assert scenario.workers is not None
    return {"workers.env": scenario.workers.env}


def _references(scenario: Scenario) -> dict[str, tuple[str, str]]:
    """Fields naming a declared resource -> (the name, the kind it must be)."""
    workload, drill = scenario.workload, scenario.workload.drill
    if drill is not None:
        return {"workload.drill.app.role": (drill.app.role, "role"),
                "workload.drill.app.endpoint": (drill.app.endpoint, "secret"),
                "workload.drill.app.database": (drill.app.database, "database"),
                "workload.drill.runbook.role": (drill.runbook.role, "role")}
    assert scenario.workers and workload.producer and workload.effects
    lambda_ = ({"workers.function": (scenario.workers.function, "function")}
               if scenario.workers.function is not None else {})
    return {"workers.role": (scenario.workers.role, "role"), **lambda_,
            "workload.producer.role": (workload.producer.role, "role"),
            "workload.producer.queue": (workload.producer.queue, "queue"),
            f"workload.effects.{workload.effects.kind}": (workload.effects.resource,
                                                          workload.effects.kind)}


def _baseline_outputs(scenario: Scenario) -> tuple[str, ...]:
    """The output names of the scenario's baseline module (from its outputs.tf)."""
    if scenario.baseline is None:
        return ()
    from kit.deploy.inspect import output_names

    module = scenario.modules_dir / scenario.baseline.module
    if not module.is_dir():
        raise InputError(f"field baseline.module: {scenario.baseline.module!r} is not a "
                         f"directory of {scenario.modules_dir}")
    return tuple(output_names(module))


# Fault kinds a Lambda consumer cannot take yet, and why (kit/lambdas/).
LAMBDA_UNSUPPORTED = {
    "clock_skew": "it moves the workers' clock, and the kit's Lambda service polls with the "
                  "function's sessions, whose clock is AWS's",
}


def _check_faults(scenario: Scenario) -> None:
    """Each fault's kind exists, its target suits it and its params fit its schema."""
    from kit.faults import FAULTS, KINDS, References

    for name, fault in scenario.faults.items():
        where = f"field faults.{name}"
        if fault.kind not in KINDS:
            raise InputError(f"{where}.kind: unknown fault kind {fault.kind!r}; known: "
                             f"{', '.join(KINDS)}")
        if fault.kind == "none":
            continue
        if fault.kind in LAMBDA_UNSUPPORTED and scenario.workers is not None \
                and scenario.workers.kind == "lambda":
            raise InputError(f"{where}.kind: {fault.kind} is not supported for a Lambda "
                             f"consumer (workers.kind lambda): {LAMBDA_UNSUPPORTED[fault.kind]}")
        kind = FAULTS[fault.kind]
        target = fault.target or ""
        target_kind = target if target in bindings.SPECIAL_TARGETS else target.split(".")[0]
        if target not in scenario.resources and target not in bindings.SPECIAL_TARGETS \
                or target_kind not in kind.targets:
            raise InputError(f"{where}.target: {fault.kind} aims at a "
                             f"{' or '.join(kind.targets)}; got {target or 'nothing'!r} "
                             f"(declared resources: {', '.join(scenario.resources)})")
        if kind.timed and fault.duration_seconds <= 0:
            raise InputError(f"{where}.duration_seconds: {fault.kind} holds for a window: "
                             "give it a duration above 0")
        try:
            params = kind.Params.model_validate(fault.params)
        except ValidationError as exc:
            raise InputError("; ".join(
                f"{where}.params.{'.'.join(map(str, e['loc']))}: {e['msg']}"
                for e in exc.errors())) from None
        named = kind.references(params) if isinstance(kind, References) else []
        unknown = [r for r in named if r not in scenario.resources]
        if unknown:
            raise InputError(f"{where}.params: {', '.join(map(repr, unknown))} is not a "
                             f"declared resource ({', '.join(scenario.resources)})")


def _check_services(scenario: Scenario) -> None:
    """Each extra service is one the AWS SDK knows (by the name boto3 gives it)."""
    import boto3

    known = set(boto3.session.Session().get_available_services())
    for service in scenario.services:
        if service not in known:
            raise InputError(f"field services: unknown AWS service {service!r}; use boto3's "
                             "name (ec2, logs, secretsmanager, ...)")


def _describe(exc: ValidationError) -> str:
    lines = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        lines.append(f"field {where}: {err['msg']}")
    return "; ".join(lines)
