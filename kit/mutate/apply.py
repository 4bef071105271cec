"""A mutant applied to a copy of the solution, with `git apply` as a variant's patch is."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from kit.deploy.hcl import NOT_COPIED
from kit.errors import KitError
from kit.mutate.mutant import Mutant


def materialize(solution: Path, mutant: Mutant, target: Path) -> Path:
    """Copy `solution` into `target` and apply the mutant's patch."""
    shutil.copytree(solution, target, ignore=shutil.ignore_patterns(*NOT_COPIED))
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(target.parent)}
    done = subprocess.run(["git", "apply", "--whitespace=nowarn", "-"], input=mutant.patch,
                          cwd=target, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        shutil.rmtree(target, ignore_errors=True)
        # The kit made the patch from this very solution: failing to apply is its bug.
        raise KitError(f"mutant {mutant.id}: its patch does not apply to {solution}:\n"
                       f"{done.stderr.strip()}")
    return target
