"""The scalar reward of an evaluation: behaviour under the faults, not the happy path.

Properties (each is tested in tests/unit/test_reward.py):

1. A solution that passes every invariant of every judged run gets 1.0.
2. A run in which a `gate` invariant fails (the solution was refused by the static gate,
   did not deploy, its workers never got going or never acted, or it kept the run's fault
   from being injected) scores 0: nothing else it did counts. A solution that fails a gate
   in every run gets 0.
3. A solution that fails a `major` invariant (losing data, effects not exactly once, a
   poison message recorded, excess privilege, an unhardened database, a missed RTO: every
   invariant unless the scenario says otherwise) in any judged run scores at most the
   scenario's `ceiling` (default 0.5), however many other runs pass.
4. Every fault weighs the same, whatever the number of invariants it exercises and the
   number of seeds it ran: runs are averaged per fault, then faults are averaged.
5. A run the kit could not judge (outcome `error`: the kit or the emulator broke) is left
   out and counted, never rewarded or punished, by cause: `emulator gap` (a deploy ran
   into one: kit/deploy/divergences.py) or `kit`. With no judged run the reward is null.
   An error cannot hide a failure: a run in which an invariant failed is judged (it is
   `fail`) even if another invariant's checker could not judge; that invariant is left out
   of the run's score and counted (`unjudged`).
6. `minor` invariants lower the score in proportion, without the ceiling.

Formula: a judged run scores 0 if a gate invariant failed, else the share of its judged
invariants (verdict pass or fail) that passed. A fault scores the mean of its judged runs.
The base is the mean over faults with a judged run; the reward is base x ceiling if any
major invariant failed in any judged run, else the base.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kit.checks.invariants import INVARIANTS, Severity


class RewardSpec(BaseModel):
    """How a scenario's verdicts become a reward (scenario.yaml, field `reward`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ceiling: float = Field(0.5, ge=0, le=1)
    severities: dict[str, Severity] = {}

    def severity(self, invariant: str) -> Severity:
        """The severity of an invariant: as declared, else its row's in the kit's table
        (gate for the kit's gates), else major."""
        row = INVARIANTS.get(invariant)
        return self.severities.get(invariant, row.severity if row else "major")


def is_judged(outcome: str, verdicts: Mapping[str, str]) -> bool:
    """Whether a run counts for the reward: it is not an error, or an invariant of it
    failed (an error beside a failure must not hide it: property 5)."""
    return outcome != "error" or "fail" in verdicts.values()


def run_score(spec: RewardSpec, verdicts: Mapping[str, str]) -> float | None:
    """One judged run's score in [0, 1]; None when it has no verdict to score (an
    invariant its checker could not judge is neither rewarded nor punished)."""
    judged = {i: v for i, v in verdicts.items() if v != "error"}
    if not judged:
        return None
    if any(v == "fail" and spec.severity(i) == "gate" for i, v in judged.items()):
        return 0.0
    return sum(1 for v in judged.values() if v == "pass") / len(judged)


def reward(spec: RewardSpec, runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The reward and its breakdown for runs given as {fault, seed, outcome, verdicts}."""
    by_fault: dict[str, list[float]] = {}
    excluded: list[dict[str, Any]] = []
    capped_by: list[dict[str, Any]] = []
    unjudged: list[dict[str, Any]] = []
    for run in runs:
        by_fault.setdefault(run["fault"], [])
        if not is_judged(run["outcome"], run["verdicts"]):
            excluded.append({"fault": run["fault"], "seed": run["seed"],
                             "cause": run.get("cause", "kit")})
            continue
        score = run_score(spec, run["verdicts"])
        if score is None:
            continue
        by_fault[run["fault"]].append(score)
        capped_by += [{"fault": run["fault"], "seed": run["seed"], "invariant": i}
                      for i, v in run["verdicts"].items()
                      if v == "fail" and spec.severity(i) == "major"]
        unjudged += [{"fault": run["fault"], "seed": run["seed"], "invariant": i}
                     for i, v in run["verdicts"].items() if v == "error"]
    faults = {f: sum(s) / len(s) if s else None for f, s in by_fault.items()}
    judged = [s for s in faults.values() if s is not None]
    base = sum(judged) / len(judged) if judged else None
    value = None if base is None else base * (spec.ceiling if capped_by else 1.0)
    return {
        "reward": None if value is None else round(value, 4),
        "base": None if base is None else round(base, 4),
        "ceiling": spec.ceiling,
        "capped": bool(capped_by),
        "capped_by": capped_by,
        "by_fault": {f: None if s is None else round(s, 4) for f, s in faults.items()},
        "judged_runs": sum(len(s) for s in by_fault.values()),
        "excluded_runs": excluded,
        # Fidelity errors (an emulator gap) apart from the kit's own.
        "excluded_by_cause": dict(Counter(e["cause"] for e in excluded)),
        # Invariants of judged runs whose checker could not judge: out of their run's score.
        "unjudged": unjudged,
    }
