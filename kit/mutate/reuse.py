"""Verdicts of an earlier `kit mutate` (its mutate.json) reused for the mutants that are
unchanged: same id, same patch, and judged the way this one would be (the same faults, or
killed statically). Only killed and surviving verdicts carry over: an error is judged anew,
and the equivalents list of today decides what is equivalent."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kit.errors import InputError
from kit.mutate.run import Judged


def load(path: Path) -> dict[str, dict[str, Any]]:
    """id -> the earlier verdict, from a mutate.json; errors name the file."""
    try:
        data = json.loads(path.read_text())
        return {m["id"]: m for m in data["mutants"]}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"--reuse {path}: not a mutate.json of kit mutate ({exc})") from None


def apply(judged: list[Judged], earlier: dict[str, dict[str, Any]],
          faults_of: Callable[[Judged], tuple[str, ...]]) -> int:
    """Copy the earlier verdict into each unchanged mutant; how many were reused."""
    reused = 0
    for j in judged:
        old = earlier.get(j.mutant.id)
        if old is None or old.get("patch") != j.mutant.patch \
                or old.get("status") not in ("killed", "survived"):
            continue
        if old.get("stage") != "static" and tuple(old.get("faults", ())) != faults_of(j):
            continue
        j.status, j.stage = old["status"], old["stage"]
        j.killed_by, j.faults = tuple(old["killed_by"]), tuple(old["faults"])
        j.reward, j.runs = old.get("reward"), list(old.get("runs", []))
        reused += 1
    return reused
