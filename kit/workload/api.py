"""What a scenario's own Python says, where its data cannot: the workload module.

A scenario directory may hold `workload.py` (what to send, how to recognise a valid
message) and `checks.py` (its own invariants). The kit loads them by path, so a scenario
outside the repository works the same way.

workload.py defines:
- `Params`: a pydantic model of `workload.params` in scenario.yaml (validated at load);
- `plan(seed: int, params: Params) -> list[Send]`: what the producer sends, in order,
  deterministically for a seed;
  (message ids carry `run_tag(seed, name)`, never the seed itself);
- `describe(body: str) -> Described`: the message's key and fields, and whether it is a
  valid message (anything else is poison). Used by the producer, the gateway and checkers.

checks.py defines `CHECKS: dict[str, Check]`: invariant id -> (checker, default params, the
behaviours it rests on);
ids are namespaced by the scenario (`ledger.per_group_order`), never the kit's own. Each
becomes a row of the scenario's invariant table (kit/checks/invariants.py): its params are
resolved once, when the scenario is loaded, and its checker receives them resolved.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import BaseModel, ValidationError

from kit.errors import InputError


def run_tag(seed: int, scope: str) -> str:
    """The part of a seed's message ids that tells its runs apart: the same for a seed every
    time, different across seeds, and not the seed.

    Why: an id such as `o-<seed>-0001` hands the workers the seed, from which the kit
    draws what a fault does (its offset, its victim): they must not read it off a
    message. This hides it from a glance, not from one who has the kit's code and
    enumerates small seeds (as the seeded message contents would tell them anyway).
    """
    return hashlib.sha256(f"{scope}:{seed}".encode()).hexdigest()[:10]


@dataclass(frozen=True)
class Send:
    """One message the producer sends: its body, FIFO group and deduplication id, and
    the index of the earlier send it repeats (a deliberate duplicate), if any."""

    body: str
    group: str | None = None
    dedup_id: str | None = None
    duplicate_of: int | None = None


@dataclass(frozen=True)
class Described:
    """What a body means to the scenario: its key, its fields, and whether it is valid."""

    key: str | None
    fields: dict[str, Any] = field(default_factory=dict)
    valid: bool = False


@dataclass(frozen=True)
class Check:
    """A scenario-specific invariant: its checker, its parameters' defaults and the emulator
    behaviours (kit/probes/ ids) its verdict rests on."""

    checker: Callable[..., Any]
    defaults: Mapping[str, Any] = field(default_factory=dict)
    relied_on: tuple[str, ...] = ()


@dataclass(frozen=True)
class WorkloadModule:
    """A loaded workload.py."""

    path: Path
    params_model: type[BaseModel]
    plan: Callable[[int, Any], list[Send]]
    describe: Callable[[str], Described]
    # Optional: a `kit.history/1` document of this scenario (its own fields) in the current
    # shape, for History.load(path, upgrade=...); the kit knows no scenario's fields.
    upgrade_history: Callable[[dict[str, Any]], dict[str, Any]] | None = None


def _import(path: Path, name: str) -> ModuleType:
    """Import a scenario's module by file path, with errors naming the file."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise InputError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pydantic look their module up here
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - any import error is the scenario author's
        sys.modules.pop(name, None)
        raise InputError(f"{path}: fails to import: {type(exc).__name__}: {exc}") from None
    return module


def _need(module: ModuleType, path: Path, name: str, what: str) -> Any:
    found = getattr(module, name, None)
    if found is None:
        raise InputError(f"{path}: defines no `{name}` ({what}); see kit/workload/api.py")
    return found


def load_workload(path: Path, scenario: str) -> WorkloadModule:
    """Load a scenario's workload.py; InputError names the file and what is missing."""
    if not path.is_file():
        raise InputError(f"{path}: missing: a scenario needs a workload.py (what to send and "
                         "how to recognise a valid message); see kit/workload/api.py")
    module = _import(path, f"kit_scenario_{scenario.replace('-', '_')}_workload")
    params = _need(module, path, "Params", "a pydantic model of workload.params")
    if not (isinstance(params, type) and issubclass(params, BaseModel)):
        raise InputError(f"{path}: `Params` must be a pydantic BaseModel subclass")
    return WorkloadModule(path, params,
                          _need(module, path, "plan", "plan(seed, params) -> list[Send]"),
                          _need(module, path, "describe", "describe(body) -> Described"),
                          getattr(module, "upgrade_history", None))


def load_checks(path: Path, scenario: str) -> dict[str, Check]:
    """A scenario's own invariants from checks.py (none when the file is absent)."""
    if not path.is_file():
        return {}
    module = _import(path, f"kit_scenario_{scenario.replace('-', '_')}_checks")
    checks = _need(module, path, "CHECKS", "a dict of invariant id -> Check")
    if not isinstance(checks, dict) or not all(isinstance(c, Check) for c in checks.values()):
        raise InputError(f"{path}: `CHECKS` must map invariant ids to kit.workload.api.Check")
    return checks


def validate_params(module: WorkloadModule, given: Mapping[str, Any], where: str) -> BaseModel:
    """The workload params as the module's model; InputError names each bad field."""
    try:
        return module.params_model.model_validate(dict(given))
    except ValidationError as exc:
        fields = "; ".join(f"field {where}.{'.'.join(map(str, e['loc']))}: {e['msg']}"
                           for e in exc.errors())
        raise InputError(fields) from None
