"""Defective variants: the golden solution with exactly one defect, as a patch.

A variant lives in `variants/<scenario>/<variant>/`: `variant.yaml` says what the defect is,
why it is wrong in production, which fault exposes it and which invariants must fail;
`change.patch` is a unified diff against `golden/<scenario>/` (paths relative to it, `a/`
and `b/` prefixes as `git diff` writes them). A patch keeps the change as small as the
defect and fails loudly when the golden moves under it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kit.errors import InputError
from kit.scenario import ROOT, Scenario

VARIANTS = ROOT / "variants"


class Variant(BaseModel):
    """One defect, the fault that exposes it, and the invariants that must catch it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = ""
    defect: str
    why: str
    fault: str
    must_fail: tuple[str, ...] = Field(min_length=1)
    together: str | None = None  # why several invariants legitimately fail together
    path: Path = Path()

    @property
    def patch(self) -> Path:
        return self.path / "change.patch"


def load_all(scenario: Scenario, root: Path = VARIANTS) -> list[Variant]:
    """Every variant of the scenario under `root`, validated; errors name the file."""
    return [load(scenario, d) for d in sorted((root / scenario.name).glob("*/"))
            if (d / "variant.yaml").exists()]


def load(scenario: Scenario, directory: Path) -> Variant:
    """Load one variant and check it against the scenario and the current golden."""
    path = directory / "variant.yaml"
    try:
        raw = yaml.safe_load(path.read_text())
        variant = Variant.model_validate({**(raw or {}), "name": directory.name,
                                          "path": directory})
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML: {exc}") from None
    except ValidationError as exc:
        fields = "; ".join(f"field {'.'.join(map(str, e['loc']))}: {e['msg']}"
                           for e in exc.errors())
        raise InputError(f"{path}: {fields}") from None
    unknown = [i for i in variant.must_fail if i not in scenario.invariants]
    if unknown:
        raise InputError(f"{path}: field must_fail names unknown invariant(s) "
                         f"{', '.join(unknown)}; the scenario has: "
                         f"{', '.join(scenario.invariants)}")
    if variant.fault not in scenario.faults:
        raise InputError(f"{path}: field fault {variant.fault!r} is not a fault of "
                         f"{scenario.name}; known: {', '.join(scenario.faults)}")
    if len(variant.must_fail) > 1 and not variant.together:
        raise InputError(f"{path}: field together is required when must_fail names more "
                         "than one invariant: say why they fail together")
    if not variant.patch.exists():
        raise InputError(f"{variant.patch}: missing (the variant's change against golden)")
    return variant


def materialize(scenario: Scenario, variant: Variant, target: Path) -> Path:
    """Copy the golden into `target` and apply the variant's patch; errors name the patch."""
    shutil.copytree(scenario.golden, target, ignore=shutil.ignore_patterns("__pycache__"))
    # The ceiling keeps git from finding an enclosing repository and patching that instead.
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(target.parent)}
    done = subprocess.run(["git", "apply", "--whitespace=nowarn", str(variant.patch.resolve())],
                          cwd=target, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        shutil.rmtree(target, ignore_errors=True)
        raise InputError(f"{variant.patch}: does not apply to the current "
                         f"golden/{scenario.name}:\n{done.stderr.strip()}")
    return target
