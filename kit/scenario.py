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
import re
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictStr,
    ValidationError,
    model_validator,
)

from kit import aws, bindings, settings
from kit.checks import INVARIANTS, Invariant, invariants
from kit.checks.params import ParamError
from kit.deploy.addresses import check_address
from kit.errors import InputError
from kit.faults.spec import Fault
from kit.rds.config import RdsTimings
from kit.reward import RewardSpec
from kit.workload.api import Check, WorkloadModule, load_checks, load_workload, validate_params

ROOT = settings.ROOT
SCENARIOS = ROOT / "scenarios"
MODULES = ROOT / "modules"
ENV_ROOTS = "KIT_SCENARIOS"  # os.pathsep-separated roots holding scenarios/, golden/, ...


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Toolchain(Strict):
    aws_provider: str = "~> 6.0"
    allowed_providers: tuple[str, ...] = ("hashicorp/aws", "hashicorp/random")

    @model_validator(mode="after")
    def _built(self) -> Toolchain:
        # A provider the mirror lacks would fail every solution's init for the kit's gap.
        built = [f"hashicorp/{name}" for name in settings.provider_specs()]
        for source in self.allowed_providers:
            if source not in built:
                raise ValueError(f"allowed_providers: {source} is not in the kit's provider "
                                 f"mirror, which has: {', '.join(built)}")
        return self


class TerraformLayout(Strict):
    """Where the Terraform is inside the solution: `dir`, the root module (relative to the
    solution); `modules` (team only), the registry-module cache `kit modules vendor` fills,
    relative to the repository (kit/deploy/modules.py)."""

    dir: str = "."
    modules: str | None = None

    @model_validator(mode="after")
    def _inside(self) -> TerraformLayout:
        for name, value in (("dir", self.dir), ("modules", self.modules)):
            if value is not None and (Path(value).is_absolute() or ".." in Path(value).parts):
                raise ValueError(f"{name}: {value!r} must be a relative path inside the "
                                 "repository (no `..`)")
        return self


class Contract(Strict):
    """What the solution's Terraform takes (variable -> binding) and must output."""

    variables: dict[str, str] = {}
    outputs: tuple[str, ...] = ()


class EnvLiteral(Strict):
    """A literal environment value (`{value: INFO}`), beside bindings: it grants nothing, so
    both trust modes take it."""

    value: StrictStr


# variable -> a binding (a string naming one) or a literal value
Env = dict[str, str | EnvLiteral]


class Workers(Strict):
    """The solution's consumers: worker processes (command, count, role, environment; in
    team mode also their directory, `cwd`, relative to the solution, and the service
    principal they run as, `service`: the kit assumes `role` only if its trust policy admits
    it), or with `kind: lambda` a Lambda function the kit runs as the Lambda service would,
    behind its SQS event source mapping (kit/lambdas/): `function` names the `function.*`
    resource, `source` (relative to the solution) its handler's code, else the package the
    function was deployed from; `role` is its execution role's resource."""

    kind: Literal["process", "lambda"] = "process"
    command: tuple[str, ...] = ("python", "-m", "worker")
    replicas: int = Field(3, ge=1, le=16)
    stop_grace_seconds: float = Field(5.0, gt=0)
    role: str
    env: Env = {}  # besides the AWS_* ones the kit sets
    cwd: str | None = None  # team only
    service: str | None = None  # team only, e.g. ecs-tasks.amazonaws.com
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
    """Who sends the workload's messages, where, and how fast: to a queue (sqs:SendMessage)
    or to an SNS topic (sns:Publish, delivered by the topic's subscriptions), with optional
    static string message attributes (SNS MessageAttributes, topics only); or through an
    EventBridge rule (`rule`, with `queue`): the kit, as the platform, points the rule at
    the queue (InputPath $.detail: the body is the message) and puts each message as an
    event of `source` and `detail_type` on the rule's bus, which delivers it through the
    queue's policy (kit/gateway/events.py); with `direct`, every other message is sent
    straight to the queue as `role` instead."""

    role: str
    queue: str | None = None
    topic: str | None = None
    rule: str | None = None
    source: str = ""
    detail_type: str = ""
    direct: bool = False
    attributes: dict[str, str] = {}
    interval_seconds: float = Field(0.02, ge=0)

    @model_validator(mode="after")
    def _one_target(self) -> Producer:
        if (self.queue is None) == (self.topic is None):
            raise ValueError("give exactly one of queue (a queue resource) or topic (a topic "
                             "resource): where the producer's messages enter")
        if self.rule is not None and (self.topic is not None or not self.source
                                      or not self.detail_type):
            raise ValueError("rule needs queue (the queue the rule delivers to), source and "
                             "detail_type (the events' fields its pattern matches)")
        if self.direct and self.rule is None:
            raise ValueError("direct (every other message straight to the queue) needs rule")
        if self.attributes and self.topic is None:
            raise ValueError("attributes are SNS message attributes: give them with topic")
        for name in self.attributes:
            if not name or len(name) > 256 or name.lower().startswith(("aws.", "amazon.")):
                raise ValueError(f"attributes: {name!r} is not an SNS message attribute name "
                                 "(1-256 characters, not starting with AWS. or Amazon.)")
        return self

    @property
    def target(self) -> str:
        """The resource the producer sends to (a queue or a topic)."""
        return self.queue or self.topic or ""


class Effects(Strict):
    """Where a processed message leaves its mark, one per key: a row of `table` in a database
    resource (the key column is named like the message key), a JSON object under `prefix`
    in a bucket resource (its body holds the message's fields, the key among them), or an
    item of a DynamoDB table resource (`dynamodb`: its partition key attribute is named like
    the message key, its attributes are the message's fields). Exactly one store."""

    database: str | None = None
    table: str | None = None
    bucket: str | None = None
    prefix: str = ""
    dynamodb: str | None = None

    @model_validator(mode="after")
    def _one_store(self) -> Effects:
        if (self.database is None) != (self.table is None):
            raise ValueError("give database and table together (or bucket, or dynamodb)")
        stores = [self.database is not None, self.bucket is not None,
                  self.dynamodb is not None]
        if sum(stores) != 1:
            raise ValueError("give exactly one store: database and table, bucket (and "
                             "prefix), or dynamodb (a table resource)")
        if self.prefix and self.bucket is None:
            raise ValueError("prefix belongs to a bucket store")
        return self

    @property
    def kind(self) -> str:
        """The kind of resource that holds the effects: database, bucket or table."""
        return "bucket" if self.bucket else "table" if self.dynamodb else "database"

    @property
    def field(self) -> str:
        """The field of workload.effects that names the store's resource."""
        return "dynamodb" if self.dynamodb else self.kind

    @property
    def resource(self) -> str:
        """The resource that holds the effects."""
        return self.bucket or self.dynamodb or self.database or ""


class App(Strict):
    """The kit's application (drills): it writes one transaction at a time, planned by the
    scenario's workload.py, to the database it finds through the `endpoint` secret (JSON
    host, port, username, dbname), as the `role` resource."""

    role: str
    endpoint: str  # a secret resource
    # A second secret resource (another Region's, say): the application uses whichever of
    # the two names the higher `epoch` (kit/workload/app.py `by_epoch`).
    standby_endpoint: str | None = None
    database: str  # the database resource it starts on
    interval_seconds: float = Field(0.02, ge=0, le=5)
    # kit: the kit's password of the secret's username; secret: the secret's `password`
    # (a drill whose credentials the solution rotates).
    credentials: Literal["kit", "secret"] = "kit"
    # With credentials secret: before the application starts, the kit (the DBA) creates
    # the secret's user with its password, owner of the secret's dbname.
    provision_user: bool = False
    # With provision_user: the kit also creates `<username><alternate_user>` with the same
    # password, a member of the first user (inheriting what it owns): the second user of a
    # rotation that alternates two, which no solution can create here, as the master has no
    # CREATEROLE (kit/rds/instance.py says why).
    alternate_user: str | None = Field(None, pattern=r"^[a-z0-9_]{1,20}$")
    connection_writes: int | None = Field(None, ge=1)  # a connection's lifetime, in writes

    @model_validator(mode="after")
    def _provision_needs_secret(self) -> App:
        if self.provision_user and self.credentials != "secret":
            raise ValueError("provision_user creates the secret's user with the secret's "
                             "password: it needs `credentials: secret`")
        if self.alternate_user and not self.provision_user:
            raise ValueError("alternate_user is created beside the provisioned user: it "
                             "needs `provision_user: true`")
        return self


class Runbook(Strict):
    """The solution's runbook (drills): run once per incident, as `role`, with the incident
    as JSON in the INCIDENT environment variable, bounded by `timeout_seconds`."""

    command: tuple[str, ...] = ("python", "-m", "runbook")
    role: str
    env: Env = {}  # besides INCIDENT and the AWS_* ones
    timeout_seconds: float = Field(120, gt=0, le=600)


class Drill(Strict):
    """A drill's workload: the application writes, one fault strikes, the runbook recovers.

    Without a fault the run ends after `writes` acknowledged writes; with one, once the
    runbook has exited and `settle_writes` writes were acknowledged after it (the
    application recovered), or after `recovery_timeout_seconds` (it did not). With
    `settle_after_heal`, the settling writes count from the fault's end instead (a fault
    that ends by itself, such as a Region that returns after `duration_seconds`: what the
    application does then is judged too)."""

    app: App
    runbook: Runbook | None = None  # None: no incident needs one (e.g. a rotation drill)
    writes: int = Field(150, ge=1)
    settle_writes: int = Field(20, ge=1)
    settle_after_heal: bool = False
    recovery_timeout_seconds: float = Field(60, gt=0, le=600)


class Workload(Strict):
    """What runs on the deployed stack: `queue` (a producer and the solution's workers) or
    `drill` (the kit's application and the solution's runbook). `events` (queue only): a
    topic resource the workers publish a message per recorded key to; recovery then also
    waits, bounded, until each recorded key's message was published to it, or until none
    was for a while (kit/run/queue.py), before the workers are stopped."""

    kind: Literal["queue", "drill"] = "queue"
    module: str = "workload.py"
    checks: str = "checks.py"
    producer: Producer | None = None
    effects: Effects | None = None
    events: str | None = None
    drill: Drill | None = None
    params: dict[str, Any] = {}

    @model_validator(mode="after")
    def _kind_has_its_parts(self) -> Workload:
        if self.events is not None and self.kind != "queue":
            raise ValueError("events (a topic the workers publish to) belongs to a queue "
                             "workload")
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
    # team: a team's own repository, checked as it is (docs/threat-model.md); untrusted:
    # an agent's solution to the kit's task, behind the static gate.
    trust: Literal["untrusted", "team"] = "untrusted"
    toolchain: Toolchain = Toolchain()
    terraform: TerraformLayout = TerraformLayout()
    baseline: Baseline | None = None
    contract: Contract = Contract()
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
        if self.trust != "team" and self.terraform.modules is not None:
            raise ValueError("terraform.modules: a registry-module cache is for `trust: "
                             "team` scenarios only (untrusted solutions use local modules)")
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
    def repository(self) -> Path | None:
        """A team scenario's repository: the directory holding its `.kit/` root (None for
        a scenario in a root of scenarios/, golden/, variants/)."""
        return self.root.parent if self.trust == "team" and self.root.name == ".kit" else None

    @property
    def golden(self) -> Path:
        """What `kit validate` judges as golden: a team's repository itself, or
        golden/<name>/ beside scenarios/."""
        return self.repository or self.root / "golden" / self.name

    @property
    def module_cache(self) -> Path | None:
        """The registry-module cache (terraform.modules), relative to the repository."""
        modules = self.terraform.modules
        return None if modules is None else (self.repository or self.root) / modules

    @property
    def variants_dir(self) -> Path:
        return self.root / "variants" / self.name

    @property
    def modules_dir(self) -> Path:
        """Where its baseline and shared modules live: the root's modules/ or the kit's."""
        own = self.root / "modules"
        return own if own.is_dir() else MODULES

    def workers_dir(self, solution: Path) -> Path:
        """The workers' directory in `solution` (team mode's workers.cwd, else the solution
        itself); InputError naming the field when the solution has no such directory."""
        cwd = self.workers.cwd if self.workers is not None else None
        if cwd is None:
            return solution
        found = solution / cwd
        if not found.is_dir() or not found.resolve().is_relative_to(solution.resolve()):
            raise InputError(f"{self.directory / 'scenario.yaml'}: field workers.cwd: "
                             f"{cwd!r} is not a directory of the solution {solution}")
        return found

    @cached_property
    def workload_module(self) -> WorkloadModule:
        return load_workload(self.directory / self.workload.module, self.name)

    @cached_property
    def own_checks(self) -> dict[str, Check]:
        return load_checks(self.directory / self.workload.checks, self.name)

    @cached_property
    def table(self) -> dict[str, Invariant]:
        """Every invariant this scenario may name: the kit's table and its own checks."""
        own = {i: Invariant.own(i, c.checker, c.defaults, c.relied_on)
               for i, c in self.own_checks.items()}
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
    if scenario.trust == "team" and path.resolve().is_relative_to(SCENARIOS):
        raise InputError(f"{path}: field trust: `team` is refused for the kit's own "
                         "scenarios (they grade untrusted solutions); a team scenario lives "
                         "in the team's repository, under .kit/scenarios/")
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
        _check_team_workers(scenario)
        _check_effect_totals(scenario)
        _check_retention(scenario)
    except ParamError as exc:
        raise InputError(f"{path}: invariants.{exc}") from None
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
    return scenario


def read_yaml(text: str) -> Any:
    """YAML's safe subset (what yaml.safe_load reads), parsed by libyaml where PyYAML was
    built with it: the same values, ten times faster (the test suite loads scenarios and
    variants thousands of times)."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506


def _read(path: Path) -> dict[str, Any]:
    try:
        raw = read_yaml(path.read_text())
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
        if set(attrs) == {"address"}:
            problem = check_address(kind, attrs["address"])
            if problem:
                raise InputError(f"field resources.{name}.address: {problem}")
            continue
        if set(attrs) != {declared}:
            raise InputError(f"field resources.{name}: a {kind} is declared by its "
                             f"`{declared}` alone (e.g. {{{declared}: outputs.<name>}}) or "
                             f"by its Terraform `address` alone (e.g. {{address: "
                             f"aws_sqs_queue.orders}}), got {', '.join(attrs) or 'nothing'}")
        where_what.append((f"resources.{name}.{declared}", attrs[declared],
                           ("outputs", "baseline")))
    for var, value in scenario.contract.variables.items():
        where_what.append((f"contract.variables.{var}", value, before_apply))
    for where, env in _process_envs(scenario).items():
        for var, value in env.items():
            if isinstance(value, EnvLiteral):
                continue  # a literal names nothing
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


def _process_envs(scenario: Scenario) -> dict[str, Env]:
    """Where the solution's processes get bindings as environment variables."""
    drill = scenario.workload.drill
    if drill is not None:
        return {"workload.drill.runbook.env": drill.runbook.env if drill.runbook else {}}
    assert scenario.workers is not None
    return {"workers.env": scenario.workers.env}


def _references(scenario: Scenario) -> dict[str, tuple[str, str]]:
    """Fields naming a declared resource -> (the name, the kind it must be)."""
    workload, drill = scenario.workload, scenario.workload.drill
    if drill is not None:
        return {"workload.drill.app.role": (drill.app.role, "role"),
                "workload.drill.app.endpoint": (drill.app.endpoint, "secret"),
                **({"workload.drill.app.standby_endpoint": (drill.app.standby_endpoint,
                                                            "secret")}
                   if drill.app.standby_endpoint else {}),
                "workload.drill.app.database": (drill.app.database, "database"),
                **({"workload.drill.runbook.role": (drill.runbook.role, "role")}
                   if drill.runbook else {})}
    assert scenario.workers and workload.producer and workload.effects
    lambda_ = ({"workers.function": (scenario.workers.function, "function")}
               if scenario.workers.function is not None else {})
    return {"workers.role": (scenario.workers.role, "role"), **lambda_,
            "workload.producer.role": (workload.producer.role, "role"),
            **({"workload.producer.queue": (workload.producer.queue, "queue")}
               if workload.producer.queue else
               {"workload.producer.topic": (workload.producer.target, "topic")}),
            **({"workload.producer.rule": (workload.producer.rule, "rule")}
               if workload.producer.rule else {}),
            **({"workload.events": (workload.events, "topic")} if workload.events else {}),
            f"workload.effects.{workload.effects.field}": (workload.effects.resource,
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
        if fault.trigger.at_start and not kind.at_start:
            able = [k for k, c in FAULTS.items() if c.at_start]
            raise InputError(f"{where}.trigger.at_start: {fault.kind} acts on what the "
                             "workload brings (its workers or messages), so it cannot be "
                             f"injected before the workload starts; kinds that can: "
                             f"{', '.join(able)}")
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


# What a service principal looks like (AWS: IAM JSON policy elements, Principal).
_SERVICE = re.compile(r"[a-z0-9][a-z0-9.-]*\.amazonaws\.com(\.cn)?")


def _check_team_workers(scenario: Scenario) -> None:
    """workers.cwd and workers.service: team only, a directory inside the solution, a
    service principal; a service's trust is judged, so iam.required_access is checked."""
    workers = scenario.workers
    if workers is None:
        return
    for field in ("cwd", "service"):
        if getattr(workers, field) is not None and scenario.trust != "team":
            raise InputError(f"field workers.{field}: only a `trust: team` scenario (a team's "
                             f"own repository) may set it; this one is {scenario.trust}")
    if workers.cwd is not None:
        parts = Path(workers.cwd).parts
        if Path(workers.cwd).is_absolute() or ".." in parts:
            raise InputError(f"field workers.cwd: {workers.cwd!r} must be a directory "
                             "relative to the solution, inside it (no `..`, not absolute)")
    if workers.service is not None:
        if not _SERVICE.fullmatch(workers.service):
            raise InputError(f"field workers.service: {workers.service!r} is not a service "
                             "principal (e.g. ecs-tasks.amazonaws.com)")
        narrowed = [name for name, fault in scenario.faults.items()
                    if fault.kind == "trust_narrowed"]
        if narrowed:  # it narrows the harness's trust; a service's is not modelled yet
            raise InputError(f"field faults.{narrowed[0]}.kind: trust_narrowed is not "
                             "supported with workers.service yet (the kit assumes the "
                             "workers' role as the service, not as the harness)")
        if "iam.required_access" not in scenario.invariants:
            raise InputError("field workers.service: the kit judges whether the role's trust "
                             "policy admits the service with iam.required_access: list it "
                             "under invariants (e.g. `iam.required_access: {roles: {"
                             f"{workers.role}: []}}}}`)")


def _check_effect_totals(scenario: Scenario) -> None:
    """With a DynamoDB effects store, idempotency.effects_once's totals name a declared
    table resource (its items are the totals: one per `key`, `value` a number attribute)."""
    effects = scenario.workload.effects
    totals = scenario.params.get("idempotency.effects_once", {}).get("totals") or {}
    if effects is None or not effects.dynamodb or not totals:
        return
    table = totals.get("table")
    if not (isinstance(table, str) and table.startswith("table.")
            and table in scenario.resources):
        declared = [r for r in scenario.resources if r.startswith("table.")]
        raise InputError(f"field invariants.idempotency.effects_once.totals.table: with "
                         "workload.effects.dynamodb the totals are the items of a declared "
                         f"table resource; got {table!r}, declared: "
                         f"{', '.join(declared) or 'none'}")


def _check_retention(scenario: Scenario) -> None:
    """delivery.retention's queues are declared queue resources, each minimum within what
    SQS accepts as a retention period."""
    from kit.checks.retention import BOUNDS, RETENTION

    low, high = BOUNDS
    for name, seconds in scenario.params.get(RETENTION, {}).get("queues", {}).items():
        where = f"field invariants.{RETENTION}.queues.{name}"
        if not (name.startswith("queue.") and name in scenario.resources):
            declared = [r for r in scenario.resources if r.startswith("queue.")]
            raise InputError(f"{where}: {name!r} is not a declared queue; the scenario "
                             f"declares {', '.join(declared) or 'none'}")
        if isinstance(seconds, bool) or not isinstance(seconds, int) \
                or not low <= seconds <= high:
            raise InputError(f"{where}: {seconds!r} is not a retention SQS accepts: give "
                             f"whole seconds from {low} to {high}")


def _check_services(scenario: Scenario) -> None:
    """Each extra service is one the AWS SDK knows (by the name boto3 gives it)."""
    for service in scenario.services:
        if service not in aws.service_names():
            raise InputError(f"field services: unknown AWS service {service!r}; use boto3's "
                             "name (ec2, logs, secretsmanager, ...)")


def _describe(exc: ValidationError) -> str:
    lines = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        lines.append(f"field {where}: {err['msg']}")
    return "; ".join(lines)
