"""A mutant applied to a copy of the solution, with `git apply` as a variant's patch is."""

from __future__ import annotations

from pathlib import Path

from kit.errors import KitError
from kit.mutate.mutant import Mutant
from kit.variants import patched_copy


def materialize(solution: Path, mutant: Mutant, target: Path) -> Path:
    """Copy `solution` into `target` and apply the mutant's patch."""
    refused = patched_copy(solution, mutant.patch, target)
    if refused is not None:
        # The kit made the patch from this very solution: failing to apply is its bug.
        raise KitError(f"mutant {mutant.id}: its patch does not apply to {solution}:\n"
                       f"{refused}")
    return target
