"""Verdicts of an earlier `kit mutate` reused for the mutants that are unchanged: same id,
same patch, and judged the way this one would be (killed statically, killed under the same
first faults, or surviving every fault this one would try).
Only killed and surviving verdicts carry over: an error is judged anew, and today's
equivalents list decides what is equivalent.

The earlier verdicts come from its mutate.json, or, for a `kit mutate` interrupted before
it wrote one, from its output directory: each finished run's result.json (then without
the patch to compare: resume it on the same solution)."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from kit.errors import InputError
from kit.evaluate.matrix import dir_name
from kit.mutate.run import Judged


def load(path: Path, ids: Collection[str] = ()) -> dict[str, dict[str, Any]]:
    """id -> the earlier verdict, from a mutate.json or an output directory of runs."""
    if path.is_dir() and not (path / "mutate.json").exists():
        return _from_runs(path, ids)
    path = path / "mutate.json" if path.is_dir() else path
    try:
        data = json.loads(path.read_text())
        return {m["id"]: m for m in data["mutants"]}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"--reuse {path}: not a mutate.json of kit mutate ({exc})") from None


def _from_runs(out: Path, ids: Collection[str]) -> dict[str, dict[str, Any]]:
    """The verdicts of the finished runs under an interrupted `kit mutate`'s directory."""
    found: dict[str, dict[str, Any]] = {}
    for mutant_id in ids:
        results = []
        for path in sorted((out / dir_name(mutant_id)).glob("*/result.json")):
            try:
                results.append(json.loads(path.read_text()))
            except (OSError, ValueError) as exc:
                raise InputError(f"--reuse {path}: unreadable ({exc})") from None
        if results:
            found[mutant_id] = _verdict(results)
    return found


def _verdict(results: list[dict[str, Any]]) -> dict[str, Any]:
    """A mutate.json entry from result.json files (kit/mutate/run.py's rule)."""
    judged = [r for r in results if r.get("outcome") != "error"]
    failed = sorted({i for r in judged for i, v in r.get("invariants", {}).items()
                     if v.get("verdict") == "fail"})
    status = "killed" if failed else "survived" if len(judged) == len(results) else "error"
    return {"patch": None, "status": status, "stage": "run", "killed_by": failed,
            "faults": [r["fault"] for r in results], "reward": None,
            "runs": [r.get("run_dir") for r in results]}


def apply(judged: list[Judged], earlier: dict[str, dict[str, Any]],
          plan_of: Callable[[Judged], tuple[str, ...]],
          first_of: Callable[[Judged], tuple[str, ...]]) -> int:
    """Copy the earlier verdict into each unchanged mutant judged as this one would be (a
    kill under the same first faults, or survival of every fault planned now:
    kit/mutate/run.py's `planned`); how many were reused."""
    reused = 0
    for j in judged:
        old = earlier.get(j.mutant.id)
        if old is None or old.get("patch") not in (None, j.mutant.patch) \
                or old.get("status") not in ("killed", "survived"):
            continue
        faults = tuple(old.get("faults", ()))
        if old.get("stage") != "static" and not (
                faults[:len(first_of(j))] == first_of(j) if old["status"] == "killed"
                else set(plan_of(j)) <= set(faults)):
            continue
        j.status, j.stage = old["status"], old["stage"]
        j.killed_by, j.faults = tuple(old["killed_by"]), faults
        # No invariant failed: reward 1.00 (a run dir's result.json does not say it).
        j.reward = old.get("reward") or (1.0 if old["status"] == "survived" else None)
        j.runs = list(old.get("runs", []))
        reused += 1
    return reused
