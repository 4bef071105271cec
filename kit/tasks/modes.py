"""Reward cost modes: which faults one grading runs.

- `full`: every fault of the scenario, one run each: today's reward (kit/reward.py).
- `sampled`: the static checks, then one fault drawn uniformly from the seed (the same
  seed always draws the same fault): the reward of that one run. A solution the static
  gate refuses scores 0 with no run (its run's gate would fail: the gate is the deploy
  stage's own, kit/deploy/gate.py).

Properties (tests/unit/test_tasks_modes.py):
1. A solution that passes every invariant under every fault scores 1.0 in both modes, at
   every seed; one the gate refuses scores 0 in both.
2. With no `major` failure in any fault, E_seed[sampled] = full: the sampled run's score
   averages to the mean over faults, which is full's base.
3. Otherwise E_seed[sampled] >= full: the ceiling caps only the drawn run that failed a
   major invariant, whereas full caps the mean over every fault. The gap is at most
   (1 - ceiling) x (share of faults with no major failure).
4. A defect whose invariant is judged in every run (source, deploy or configuration stage:
   the IAM, exposure and hardening invariants) is caught at every seed; one only a fault
   exposes is caught with probability 1/len(faults) per sampled grading.
5. Sampled costs one run (or none), full len(faults) runs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from kit.errors import InputError
from kit.reward import RewardSpec, reward

Mode = Literal["full", "sampled"]
MODES: tuple[Mode, ...] = ("full", "sampled")


def faults_for(mode: str, faults: Sequence[str], seed: int) -> list[str]:
    """The faults one grading runs: all (full), or the one the seed draws (sampled)."""
    if mode == "full":
        return list(faults)
    if mode == "sampled":
        return [draw(faults, seed)]
    raise InputError(f"unknown reward mode {mode!r}; known: {', '.join(MODES)}")


def draw(faults: Sequence[str], seed: int) -> str:
    """The fault the seed draws, uniformly over the scenario's faults in their order."""
    if not faults:
        raise InputError("the scenario has no fault to draw from")
    return faults[random.Random(seed).randrange(len(faults))]


def seed_for(faults: Sequence[str], fault: str, start: int = 1) -> int:
    """The first seed from `start` whose draw is `fault` (to re-grade under one fault)."""
    if fault not in faults:
        raise InputError(f"fault {fault!r} is not one of {', '.join(faults)}")
    seed = start
    while draw(faults, seed) != fault:
        seed += 1
    return seed


def expected_sampled(spec: RewardSpec, runs: Sequence[Mapping[str, Any]]) -> float | None:
    """E over seeds of the sampled reward, from one full grading's runs ({fault, seed,
    outcome, verdicts}, as kit/reward.py reads them): the mean over faults of each fault's
    reward alone (the draw is uniform). None when no fault's run could be judged."""
    by_fault: dict[str, list[Mapping[str, Any]]] = {}
    for run in runs:
        by_fault.setdefault(run["fault"], []).append(run)
    alone = [reward(spec, fault_runs)["reward"] for fault_runs in by_fault.values()]
    judged = [r for r in alone if r is not None]
    return round(sum(judged) / len(judged), 4) if judged else None
