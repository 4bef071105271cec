"""The result of one run: its outcome, the verdict per invariant, where its evidence is."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kit.checks import CheckResult


@dataclass
class RunResult:
    """The verdict of one run, per invariant, with where its history and logs are."""

    scenario: str
    solution: str
    fault: str
    seed: int
    outcome: str  # pass | fail | error (kit/run/judge.py `outcome`)
    results: dict[str, CheckResult] = field(default_factory=dict)
    error: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    run_dir: str | None = None
    used_vs_granted: dict[str, Any] | None = None  # per role, kit/iam/usage.py
    # {complete, missing [what and how to get it], roles {role: axes}}: kit/sandbox/confine.py
    confinement: dict[str, Any] | None = None
    emulators: dict[str, str] | None = None  # AWS service -> the emulator that served it
    # Invariants set aside by a cross-check (kit/evaluate/crosscheck.py): emulators disagreed.
    fidelity_findings: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the JSON report."""
        return {
            "scenario": self.scenario, "solution": self.solution, "fault": self.fault,
            "seed": self.seed, "outcome": self.outcome, "error": self.error,
            "timings": {k: round(v, 3) for k, v in self.timings.items()},
            "run_dir": self.run_dir,
            "invariants": {k: r.model_dump(mode="json") for k, r in self.results.items()},
            "used_vs_granted": self.used_vs_granted,
            "confinement": self.confinement,
            "emulators": self.emulators,
            "fidelity_findings": self.fidelity_findings,
        }
