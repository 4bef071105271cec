"""Variants of the golden solution, each a patch: one-defect variants and correct
alternatives.

A variant lives in `variants/<scenario>/<variant>/`: `variant.yaml` and `change.patch`, a
unified diff against `golden/<scenario>/` (paths relative to it, `a/` and `b/` prefixes
as `git diff` writes them). A patch keeps the change as small as the difference and fails
loudly when the golden moves under it.

- A defect says what is wrong (`defect`), why it is wrong in production (`why`), which
  fault exposes it (`fault`) and which invariants must fail (`must_fail`; with more than
  one, `together` says why they fail together).
- A correct alternative (`must_pass: true`) says how it differs from the golden
  (`alternative`, e.g. managed policies through policy documents) and the faults it must
  pass under (`faults`, default: every fault of the scenario). A scenario is trustworthy
  only if the ways real engineers would write it all pass.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from kit.deploy import command
from kit.deploy.hcl import NOT_COPIED
from kit.errors import InputError
from kit.intake import files
from kit.sandbox.confine import Confinement
from kit.sandbox.limits import GiB, Limits, MiB
from kit.sandbox.view import View
from kit.scenario import Scenario, read_yaml

MAX_PATCH = 4 * MiB
APPLY_TIMEOUT = 120.0
# One git process writing the patched files of one solution.
APPLY_LIMITS = Limits(address_space=1 * GiB, processes=16, open_files=256,
                      file_size=64 * MiB, memory=512 * MiB, cpus=1.0, tmp_size=1 * MiB)


class Variant(BaseModel):
    """One defect and the invariants that must catch it, or one correct alternative."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = ""
    defect: str | None = None
    why: str | None = None
    fault: str | None = None
    must_fail: tuple[str, ...] = ()
    together: str | None = None  # why several invariants legitimately fail together
    alternative: str | None = None
    must_pass: bool = False
    faults: tuple[str, ...] = ()  # an alternative's faults (default: all)
    path: Path = Path()

    @model_validator(mode="after")
    def _one_kind(self) -> Variant:
        if self.must_pass:
            stray = [f for f in ("defect", "why", "fault", "together") if getattr(self, f)]
            if self.must_fail or stray:
                raise ValueError(f"a correct alternative (must_pass) has no "
                                 f"{', '.join(stray) or 'must_fail'}")
            if not self.alternative:
                raise ValueError("field alternative is required: say how it differs from "
                                 "the golden")
            return self
        missing = [f for f in ("defect", "why", "fault", "must_fail") if not getattr(self, f)]
        if missing:
            raise ValueError(f"missing field(s) {', '.join(missing)}: a defect says what is "
                             "wrong, why, the fault that exposes it and what must fail (or "
                             "set must_pass: true for a correct alternative)")
        if self.faults or self.alternative:
            raise ValueError("faults and alternative are for must_pass alternatives")
        return self

    @property
    def patch(self) -> Path:
        return self.path / "change.patch"


def load_all(scenario: Scenario, root: Path | None = None) -> list[Variant]:
    """Every variant of the scenario under `root` (default: its variants/), validated."""
    base = root / scenario.name if root is not None else scenario.variants_dir
    return [load(scenario, d) for d in sorted(base.glob("*/"))
            if (d / "variant.yaml").exists()]


def load(scenario: Scenario, directory: Path) -> Variant:
    """Load one variant and check it against the scenario and the current golden."""
    path = directory / "variant.yaml"
    try:
        raw = read_yaml(path.read_text())
        variant = Variant.model_validate({**(raw or {}), "name": directory.name,
                                          "path": directory})
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML: {exc}") from None
    except ValidationError as exc:
        fields = "; ".join(f"field {'.'.join(map(str, e['loc'])) or '(top level)'}: "
                           f"{e['msg']}" for e in exc.errors())
        raise InputError(f"{path}: {fields}") from None
    known_ids = set(scenario.invariants) | set(scenario.registry)
    unknown = [i for i in variant.must_fail if i not in known_ids]
    if unknown:
        raise InputError(f"{path}: field must_fail names unknown invariant(s) "
                         f"{', '.join(unknown)}; the scenario has: "
                         f"{', '.join(scenario.invariants)}")
    for fault in (*([variant.fault] if variant.fault else []), *variant.faults):
        if fault not in scenario.faults:
            field = "fault" if fault == variant.fault else "faults"
            raise InputError(f"{path}: field {field} {fault!r} is not a fault of "
                             f"{scenario.name}; known: {', '.join(scenario.faults)}")
    if len(variant.must_fail) > 1 and not variant.together:
        raise InputError(f"{path}: field together is required when must_fail names more "
                         "than one invariant: say why they fail together")
    if not variant.patch.exists():
        raise InputError(f"{variant.patch}: missing (the variant's change against golden)")
    return variant


def materialize(scenario: Scenario, variant: Variant, target: Path) -> Path:
    """Copy the golden into `target` and apply the variant's patch; errors name the patch."""
    refused = patched_copy(scenario.golden, variant.patch, target)
    if refused is not None:
        raise InputError(f"{variant.patch}: does not apply to the current "
                         f"golden/{scenario.name}:\n{refused}")
    return target


def patched_copy(source: Path, patch: Path | str, target: Path) -> str | None:
    """Copy `source` into `target` and apply `patch` (a patch file, or its text); git's
    complaint, with `target` removed, when it does not apply."""
    text = patch if isinstance(patch, str) else _patch_text(patch)
    # What a run never copies stays behind (a team repository's .git/ and .kit/ too). Links
    # are copied as links, never followed by this (root) process: the gate judges them in
    # the copy, on its own paths, as it judges any solution's.
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(*NOT_COPIED), symlinks=True)
    with tempfile.TemporaryDirectory(prefix="kit-patch-") as held:
        given = Path(held) / "change.patch"
        given.write_text(text)
        done = _git_apply(given, target)
    if done.ok:
        return None
    shutil.rmtree(target, ignore_errors=True)
    return done.stderr.strip() or f"git apply did not finish within {APPLY_TIMEOUT:.0f} s"


def _patch_text(patch: Path) -> str:
    """A variant's patch file, read without following a link at its name (a team's
    variants are its own files, in the intake's snapshot)."""
    data = files.read_regular(patch.parent, patch.name, MAX_PATCH)
    if data is None:
        raise InputError(f"{patch}: not a regular file of at most {MAX_PATCH // MiB} MiB "
                         "(a variant's change.patch)")
    return data.decode(errors="replace")


def _git_apply(patch: Path, target: Path) -> command.Completed:
    """`git apply` of `patch` in `target`, confined: it sees git, the patch and `target`
    alone (a link in the copy leads nowhere else), with no network and no config file."""
    git = shutil.which("git") or "/usr/bin/git"
    # The ceiling keeps git from looking for an enclosing repository; no config file:
    # `git apply` needs none.
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp",
           "GIT_CEILING_DIRECTORIES": str(target.parent), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_GLOBAL": os.devnull}
    view = View().program(git).show(patch).show(target, writable=True)
    with Confinement("variant", view, APPLY_LIMITS, network="none") as confinement:
        return command.run([git, "apply", "--whitespace=nowarn", str(patch)], cwd=target,
                           env=env, timeout=APPLY_TIMEOUT, confinement=confinement)
