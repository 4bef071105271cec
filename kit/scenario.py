"""Load and validate scenario.yaml: the single source of truth for a scenario.

Errors name the file and the field (`faults.db_outage.duration_seconds: ...`), never a
traceback.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from kit.checks import DEFAULT_PARAMS
from kit.checks.params import ParamError, resolve
from kit.errors import InputError
from kit.report.reward import RewardSpec

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
GOLDEN = ROOT / "golden"
MODULES = ROOT / "modules"

FAULT_KINDS = ("none", "worker_crash", "duplicate_delivery", "db_outage", "db_latency",
               "sqs_outage", "iam_revoke")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Toolchain(Strict):
    aws_provider: str = "~> 6.0"
    allowed_providers: tuple[str, ...] = ("hashicorp/aws", "hashicorp/random")


class Worker(Strict):
    command: tuple[str, ...] = ("python", "-m", "worker")
    replicas: int = Field(3, ge=1, le=16)
    stop_grace_seconds: float = Field(5.0, gt=0)


class Contract(Strict):
    variables: tuple[str, ...] = ("harness_principal_arn",)
    outputs: tuple[str, ...]
    worker_env: tuple[str, ...]
    worker: Worker = Worker()


class Workload(Strict):
    orders: int = Field(ge=1, le=10_000)
    customers: int = Field(ge=1)
    duplicate_sends: int = Field(ge=0)
    poison: int = Field(ge=0)
    work_seconds: float = Field(ge=0)
    send_interval_seconds: float = Field(0.02, ge=0)


class Trigger(Strict):
    """Inject when this many distinct orders have been recorded (an event, not a clock)."""

    after_recorded: int = Field(ge=0)


class Fault(Strict):
    kind: Literal[FAULT_KINDS]  # type: ignore[valid-type]
    trigger: Trigger = Trigger(after_recorded=0)
    duration_seconds: float = Field(0, ge=0, le=120)
    params: dict[str, Any] = {}


class Scenario(Strict):
    name: str
    summary: str
    toolchain: Toolchain = Toolchain()
    contract: Contract
    workload: Workload
    faults: dict[str, Fault]
    invariants: dict[str, dict[str, Any] | None]
    quiescence_timeout_seconds: float = Field(60, gt=0)
    reward: RewardSpec = RewardSpec()

    @model_validator(mode="after")
    def _known_invariants(self) -> Scenario:
        unknown = sorted(set(self.invariants) - set(DEFAULT_PARAMS))
        if unknown:
            raise ValueError(f"unknown invariant id(s) {', '.join(unknown)}; "
                             f"known: {', '.join(sorted(DEFAULT_PARAMS))}")
        stray = sorted(set(self.reward.severities) - set(self.invariants))
        if stray:
            raise ValueError(f"reward.severities names invariant(s) the scenario does not "
                             f"check: {', '.join(stray)}")
        if "none" not in self.faults:
            raise ValueError("faults must include `none` (the fault-free baseline run)")
        return self

    @cached_property
    def params(self) -> dict[str, dict[str, Any]]:
        """Each invariant's parameters with defaults applied."""
        return {i: resolve(i, p, DEFAULT_PARAMS[i]) for i, p in self.invariants.items()}

    @property
    def directory(self) -> Path:
        return SCENARIOS / self.name

    @property
    def golden(self) -> Path:
        return GOLDEN / self.name


def known() -> list[str]:
    """Names of the scenarios shipped in scenarios/."""
    return sorted(p.parent.name for p in SCENARIOS.glob("*/scenario.yaml"))


def load(name_or_path: str | Path) -> Scenario:
    """Load a scenario by name (scenarios/<name>/scenario.yaml) or by file path."""
    path = Path(name_or_path)
    if not path.suffix:
        path = SCENARIOS / str(name_or_path) / "scenario.yaml"
        if not path.exists():
            raise InputError(f"unknown scenario {name_or_path!r}; known: "
                             f"{', '.join(known()) or 'none'}")
    try:
        raw = yaml.safe_load(path.read_text())
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML: {exc}") from exc
    if not isinstance(raw, dict):
        raise InputError(f"{path}: expected a mapping at the top level, got {type(raw).__name__}")
    try:
        scenario = Scenario.model_validate(raw)
        scenario.params  # noqa: B018 - validate invariant params now, not mid-run
    except ValidationError as exc:
        raise InputError(f"{path}: " + _describe(exc)) from None
    except ParamError as exc:
        raise InputError(f"{path}: invariants.{exc}") from None
    if path.parent.name != scenario.name and path.parent.parent == SCENARIOS:
        raise InputError(f"{path}: field name is {scenario.name!r} but the folder is "
                         f"{path.parent.name!r}")
    return scenario


def _describe(exc: ValidationError) -> str:
    lines = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        lines.append(f"field {where}: {err['msg']}")
    return "; ".join(lines)
