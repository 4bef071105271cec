"""The result contract of a checker, the combining rule, and the loop that runs checkers.

A checker is `check(history, params) -> CheckResult`, given its params resolved (defaults
applied and validated when the scenario was loaded: kit/checks/invariants.py). Verdicts:
`pass`, `fail` (the solution violated the invariant), `error` (the checker could not judge:
data missing, or the checker crashed). Combining takes the worst: fail > error > pass
(Jepsen ranks false above unknown: a checker that could not judge must not hide an
invariant that failed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from kit.history import History

Verdict = Literal["pass", "fail", "error"]
Params = Mapping[str, Any]
Checker = Callable[[History, Params], "CheckResult"]

MEMBER_CAP = 20
_RANK: dict[str, int] = {"pass": 0, "error": 1, "fail": 2}


class CheckResult(BaseModel):
    """The verdict on one invariant, a one-line summary, the evidence and the params used."""

    model_config = ConfigDict(frozen=True)

    id: str
    verdict: Verdict
    summary: str
    evidence: dict[str, Any] = {}
    params: dict[str, Any] = {}


def anomaly(members: Sequence[Any], example: Any = None) -> dict[str, Any]:
    """Evidence for one anomaly: total count, the first MEMBER_CAP members, one example."""
    if example is None and members:
        example = members[0]
    return {
        "count": len(members),
        "members": list(members[:MEMBER_CAP]),
        "truncated": len(members) > MEMBER_CAP,
        "example": example,
    }


def error(check_id: str, summary: str, params: Params | None = None,
          evidence: dict[str, Any] | None = None) -> CheckResult:
    """An `error` result: the checker could not judge (say what is missing and why)."""
    return CheckResult(id=check_id, verdict="error", summary=summary,
                       evidence=evidence or {}, params=dict(params or {}))


def judged(check_id: str, ok: bool, summary: str, evidence: dict[str, Any],
           params: Params) -> CheckResult:
    """A `pass` result when ok, else `fail`."""
    return CheckResult(id=check_id, verdict="pass" if ok else "fail", summary=summary,
                       evidence=evidence, params=dict(params))


def plural(n: int, word: str) -> str:
    """'1 order', '3 orders': counts in summaries read as English."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def worst(verdicts: Iterable[Verdict | CheckResult]) -> Verdict:
    """The worst verdict (fail > error > pass); `error` when there is nothing to combine."""
    # No verdicts means nothing was judged, and a run that judged nothing must not pass.
    found = [v.verdict if isinstance(v, CheckResult) else v for v in verdicts]
    if not found:
        return "error"
    for v in found:
        if v not in _RANK:
            raise ValueError(f"unknown verdict {v!r}; valid: {sorted(_RANK)}")
    return max(found, key=_RANK.__getitem__)


def run_checks(history: History, invariants: Mapping[str, Params | None],
               registry: Mapping[str, Checker] | None = None) -> dict[str, CheckResult]:
    """Run each named invariant's checker on its resolved params; a crash or unknown id
    becomes verdict `error`."""
    if registry is None:
        # Imported here: the table imports the checker modules, which import this one.
        from kit.checks.invariants import checkers
        registry = checkers()
    results: dict[str, CheckResult] = {}
    for check_id, params in invariants.items():
        params = dict(params or {})
        checker = registry.get(check_id)
        if checker is None:
            results[check_id] = error(
                check_id, f"unknown invariant {check_id!r}; valid: {', '.join(sorted(registry))}",
                params)
            continue
        try:
            result = checker(history, params)
        except Exception as e:  # a crashed checker is an error, never a pass
            result = error(check_id, f"checker crashed: {type(e).__name__}: {e}", params)
        if not isinstance(result, CheckResult) or result.id != check_id:
            result = error(check_id, f"checker returned {result!r}, not a CheckResult for "
                           f"{check_id!r}", params)
        results[check_id] = result
    return results
