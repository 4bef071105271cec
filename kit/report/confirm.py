"""A new failure must reproduce (`kit eval --baseline --confirm N`): each (fault, invariant)
first classified as new is run again N times on both sides, once with the seed it failed
at and N-1 times with fresh seeds, and stays *new* only if the head failed and the base
did not in every run; a run that contradicts it makes it *flaky*, with the counts.

Pure functions: the seeds to rerun and the decision over the (base, head) verdict pairs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kit.report.compare import FLAKY, NEW, UNKNOWN, side_verdict

DEFAULT = 2
SEED_STEP = 1000  # a fresh seed is seed + 1000 * k: deterministic, clear of --repeat's seeds


def seeds(seed: int, reruns: int) -> list[int]:
    """The seeds of the reruns of a failure first seen at `seed`: itself, then fresh ones."""
    return [seed + SEED_STEP * k for k in range(reruns)]


def _failed(verdict: str) -> bool:
    return verdict == "fail"


def _judged(verdict: str) -> bool:
    """A verdict that says something about the invariant (an error says nothing): `-`, a
    run stopped before it, counts as passing it on the base (as in compare.status) and as
    not failing it on the head."""
    return verdict != "error"


def decide(pairs: Sequence[tuple[int, str, str]]) -> dict[str, Any]:
    """The class of a new failure from its (seed, base verdict, head verdict) runs (the
    first pass's, then the reruns'): new if the head failed and the base did not in every
    run; flaky if some judged run says otherwise (the head passed, or the base failed too);
    unknown if none contradicts it but the kit could not judge one."""
    runs = [{"seed": seed, "base": base, "head": head} for seed, base, head in pairs]
    reproduced = [_failed(r["head"]) and not _failed(r["base"]) for r in runs]
    judged = [_judged(r["base"]) and _judged(r["head"]) for r in runs]
    if all(reproduced) and all(judged):
        kind = NEW
    elif any(j and not ok for j, ok in zip(judged, reproduced, strict=True)):
        kind = FLAKY
    else:
        kind = UNKNOWN
    head_failed = sum(_failed(r["head"]) for r in runs)
    base_failed = sum(_failed(r["base"]) for r in runs)
    return {"status": kind, "runs": runs, "of": len(runs), "head_failed": head_failed,
            "base_failed": base_failed, "unjudged": judged.count(False),
            "summary": summary(len(runs), head_failed, base_failed, judged.count(False))}


def summary(of: int, head_failed: int, base_failed: int, unjudged: int = 0) -> str:
    """How often it failed on each side, e.g. "head failed 2 of 3, base failed 1 of 3"."""
    text = f"head failed {head_failed} of {of}, base failed {base_failed} of {of}"
    return text + (f", {unjudged} the kit could not judge" if unjudged else "")


def _failed_at(head: Sequence[dict[str, Any]], fault: str, invariant: str) -> int:
    """The first seed at which the head failed the invariant (not one where it erred: a
    new failure's `why` may name that one)."""
    return next(run["seed"] for run in head if run["fault"] == fault
                and (run["invariants"].get(invariant) or {}).get("verdict") == "fail")


def pending(comparison: Sequence[dict[str, Any]], head: Sequence[dict[str, Any]]
            ) -> dict[str, list[int]]:
    """The first-pass seed of each new failure, by fault (whose runs a rerun repeats)."""
    found: dict[str, list[int]] = {}
    for entry in comparison:
        if entry["status"] == NEW:
            seed = _failed_at(head, entry["fault"], entry["invariant"])
            found.setdefault(entry["fault"], [])
            if seed not in found[entry["fault"]]:
                found[entry["fault"]].append(seed)
    return found


def _at(runs: Sequence[dict[str, Any]], fault: str, seed: int, invariant: str) -> str:
    """One (fault, seed)'s verdict of an invariant over report-document runs (`error` if
    no such run)."""
    return side_verdict([r for r in runs if r["seed"] == seed], fault, invariant)


def decisions(comparison: Sequence[dict[str, Any]], base: Sequence[dict[str, Any]],
              head: Sequence[dict[str, Any]], base_reruns: Sequence[dict[str, Any]],
              head_reruns: Sequence[dict[str, Any]], reruns: int
              ) -> dict[tuple[str, str], dict[str, Any]]:
    """Each new failure's decision: its first-pass run at the seed it failed at, then its
    `reruns` on both sides (report-document runs)."""
    found = {}
    for entry in comparison:
        if entry["status"] != NEW:
            continue
        fault, invariant = entry["fault"], entry["invariant"]
        seed = _failed_at(head, fault, invariant)
        pairs = [(seed, _at(base, fault, seed, invariant), _at(head, fault, seed, invariant))]
        pairs += [(s, _at(base_reruns, fault, s, invariant), _at(head_reruns, fault, s, invariant))
                  for s in seeds(seed, reruns)]
        found[(fault, invariant)] = decide(pairs)
    return found
