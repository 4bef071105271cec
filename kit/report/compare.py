"""Base versus head (`kit eval --baseline`): each (fault, invariant) judged on both sides
under the same faults and seeds, classified as a new failure, fixed, still failing, pass,
or unknown (the kit could not judge one side: never blamed on the PR, never credited). A
new failure that did not reproduce in every rerun (kit/report/confirm.py) is flaky.

Pure functions over the report documents' runs (kit/report/document.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

NEW, FIXED, STILL, PASS = "new failure", "fixed", "still failing", "pass"
UNKNOWN, NOT_REACHED, FLAKY = "unknown", "not reached", "flaky"
ORDER = (NEW, FLAKY, UNKNOWN, NOT_REACHED, STILL, FIXED, PASS)  # what a reviewer reads first
NOT_RUN = "-"  # a judged run stopped before this invariant (its gate or deploy failed)
FAIL_ON = ("new", "flaky", "any")


def side_verdict(runs: Sequence[dict[str, Any]], fault: str, invariant: str) -> str:
    """One side's verdict of an invariant under a fault over its seeds: fail if any seed
    failed it, else error if any seed could not judge it (a checker's or the run's error),
    else `-` if a judged run stopped before it, else pass."""
    verdicts = [_verdict(run, invariant) for run in runs if run["fault"] == fault]
    if not verdicts:
        return "error"
    for worst in ("fail", "error", NOT_RUN):
        if worst in verdicts:
            return worst
    return "pass"


def _verdict(run: dict[str, Any], invariant: str) -> str:
    found = run["invariants"].get(invariant)
    if found is not None:
        return str(found["verdict"])
    return "error" if run["outcome"] == "error" else NOT_RUN


def status(base: str, head: str) -> str:
    """The class of one (fault, invariant) from its base and head verdicts: an error on
    either side is unknown; a head that stopped before it has not reached it (its own gate
    failures say why); a base that stopped before it counts as passing it."""
    if "error" in (base, head):
        return UNKNOWN
    if head == NOT_RUN:
        return NOT_REACHED
    base = "pass" if base == NOT_RUN else base
    return {("pass", "fail"): NEW, ("fail", "pass"): FIXED, ("fail", "fail"): STILL,
            ("pass", "pass"): PASS}[(base, head)]


def _keys(runs: Sequence[dict[str, Any]]) -> list[tuple[str, str]]:
    keys: list[tuple[str, str]] = []
    for run in runs:
        keys += [(run["fault"], i) for i in run["invariants"] if (run["fault"], i) not in keys]
    return keys


def _first_failure(runs: Sequence[dict[str, Any]], fault: str, invariant: str
                   ) -> dict[str, Any] | None:
    """The first run of `fault` failing `invariant` (or erring on it): its seed, summary."""
    for run in runs:
        inv = run["invariants"].get(invariant)
        if run["fault"] == fault and inv and inv["verdict"] != "pass":
            return {"seed": run["seed"], "verdict": inv["verdict"], "summary": inv["summary"]}
    return None


def classify(base_runs: Sequence[dict[str, Any]], head_runs: Sequence[dict[str, Any]]
             ) -> list[dict[str, Any]]:
    """Every (fault, invariant) either side judged: {fault, invariant, base, head, status,
    why}, new failures first; `why` is the head's (or for fixed, the base's) first
    non-passing seed with its summary, or why it is unknown."""
    entries = []
    for fault, invariant in _keys(head_runs) + [k for k in _keys(base_runs)
                                                 if k not in _keys(head_runs)]:
        base = side_verdict(base_runs, fault, invariant)
        head = side_verdict(head_runs, fault, invariant)
        kind = status(base, head)
        shown = base_runs if kind == FIXED else head_runs
        why = _first_failure(shown, fault, invariant)
        if kind == UNKNOWN:
            sides = [name for name, v in (("base", base), ("head", head)) if v == "error"]
            why = {"summary": f"the kit could not judge it on the {' and '.join(sides)}"
                   + ("" if why is None else f" (head: {why['summary']})")}
        entries.append({"fault": fault, "invariant": invariant, "base": base, "head": head,
                        "status": kind, "why": why})
    return sorted(entries, key=lambda e: ORDER.index(e["status"]))


def counts(comparison: Sequence[dict[str, Any]]) -> dict[str, int]:
    """How many (fault, invariant) pairs fall in each class (every class present)."""
    return {kind: sum(1 for e in comparison if e["status"] == kind) for kind in ORDER}


def verdict(comparison: Sequence[dict[str, Any]], head_outcome: str, fail_on: str) -> str:
    """The check's verdict: `new` (default) fails only on new failures (a flaky one alone
    never fails it) and is `error` when nothing new failed but some pair is unknown;
    `flaky` fails on flaky ones too; `any` is the head's own outcome."""
    if fail_on == "any":
        return head_outcome
    found = counts(comparison)
    if found[NEW] or (fail_on == "flaky" and found[FLAKY]):
        return "fail"
    return "error" if found[UNKNOWN] else "pass"


def confirmed(comparison: list[dict[str, Any]],
              decisions: Mapping[tuple[str, str], dict[str, Any]]) -> list[dict[str, Any]]:
    """The comparison with each new failure's reruns (`confirm`) and the class they gave
    it: new, flaky or unknown (kit/report/confirm.py decides)."""
    entries = []
    for entry in comparison:
        found = decisions.get((entry["fault"], entry["invariant"]))
        if entry["status"] == NEW and found is not None:
            entry = entry | {"status": found["status"], "confirm": found}
        entries.append(entry)
    return sorted(entries, key=lambda e: ORDER.index(e["status"]))


def attach(head: dict[str, Any], base: dict[str, Any] | None, fail_on: str,
           given: str | None = None, ref: str | None = None, commit: str | None = None,
           decisions: Mapping[tuple[str, str], dict[str, Any]] | None = None
           ) -> dict[str, Any]:
    """The head's report document with the base's side (`baseline`), the `comparison`
    (with the reruns' `decisions` on new failures), `fail_on` and the check's `verdict`
    added (without a base: the head's outcome)."""
    if base is None:
        return head | {"fail_on": fail_on, "verdict": head["outcome"]}
    comparison = confirmed(classify(base["runs"], head["runs"]), decisions or {})
    side = {"given": given, "ref": ref, "commit": commit, "solution": base["solution"],
            "outcome": base["outcome"], "reward": base["reward"], "runs": base["runs"]}
    return head | {"baseline": side, "comparison": comparison, "fail_on": fail_on,
                   "verdict": verdict(comparison, head["outcome"], fail_on)}


def lines(comparison: Sequence[dict[str, Any]]) -> list[str]:
    """The comparison for a terminal: one line per pair that is not passing on both."""
    found = []
    for entry in comparison:
        if entry["status"] != PASS:
            said = (entry["why"] or {}).get("summary", "")
            reruns = (entry.get("confirm") or {}).get("summary")
            found.append(f"{entry['status']}: {entry['fault']} {entry['invariant']} "
                         f"(base {entry['base']}, head {entry['head']}"
                         + (f"; {reruns}" if reruns else "") + ")"
                         + (f": {said}" if said else ""))
    return found
