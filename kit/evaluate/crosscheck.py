"""Run a solution's faults on both emulators and compare (`kit eval --cross-check`).

A cross-check grades the runs of the primary emulator (`--emulator`, moto by default) and
runs the same faults and seeds on the other one as a witness. An invariant judged on both
(pass or fail) whose verdicts differ is a fidelity finding: an emulator gap, never the
solution's failure. It is taken out of the graded run's verdicts (so the reward neither
loses nor gains by it; the run's outcome is the worst of the rest) and reported on its own,
with both verdicts and evidences side by side and, where the kit can tell, which emulator
behaves as AWS documents: the probes of the behaviours the invariant rests on
(kit/probes/) run on both emulators before their sandboxes close.
"""

from __future__ import annotations

import contextlib
from dataclasses import asdict, dataclass, field
from typing import Any

from kit import aws, probes
from kit.checks import worst
from kit.evaluate import runner
from kit.evaluate.runner import Plan, Progress
from kit.run.result import RunResult
from kit.run.sandbox import Sandbox
from kit.scenario import Scenario


@dataclass
class Finding:
    """One invariant of one run whose verdict differs between the emulators."""

    fault: str
    seed: int
    invariant: str
    verdicts: dict[str, str]  # emulator -> pass | fail
    evidence: dict[str, dict[str, Any]]  # emulator -> {summary, evidence}
    # behaviour id -> {title, aws, verdict, by emulator: {matches, detail}}
    behaviours: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for the report."""
        return asdict(self)


def cross_check(plan: Plan, primary: str, url: str | None, progress: Progress
                ) -> tuple[list[RunResult], list[Finding]]:
    """The primary emulator's runs (graded, disagreements set aside) and the findings."""
    witness = "localstack" if primary == "moto" else "moto"
    with contextlib.ExitStack() as stack:
        sandboxes: dict[str, Sandbox] = {}
        runs: dict[str, list[RunResult]] = {}
        for emulator in (primary, witness):
            sandboxes[emulator] = stack.enter_context(runner.sandbox_of(emulator, url))
            runs[emulator] = runner.each_run(plan, sandboxes[emulator], plan.out / emulator,
                                             progress, f"{emulator}: ")
        findings = compare(runs[primary], runs[witness], primary, witness)
        if findings:
            progress("probing the behaviours the disputed invariants rest on", None)
            explain(findings, sandboxes, plan.scenario)
    set_aside(runs[primary], findings)
    return runner.named(plan, runs[primary]), findings


def compare(graded: list[RunResult], witness: list[RunResult], primary: str, other: str
            ) -> list[Finding]:
    """Every invariant judged pass or fail on both emulators with different verdicts."""
    seen = {(run.fault, run.seed): run for run in witness}
    findings = []
    for run in graded:
        twin = seen.get((run.fault, run.seed))
        if twin is None:
            continue
        for invariant, mine in run.results.items():
            theirs = twin.results.get(invariant)
            judged = theirs is not None and {mine.verdict, theirs.verdict} <= {"pass", "fail"}
            if judged and mine.verdict != theirs.verdict:  # type: ignore[union-attr]
                findings.append(Finding(
                    run.fault, run.seed, invariant,
                    {primary: mine.verdict, other: theirs.verdict},  # type: ignore[union-attr]
                    {name: {"summary": r.summary, "evidence": r.evidence}
                     for name, r in ((primary, mine), (other, theirs))}))
    return findings


def explain(findings: list[Finding], sandboxes: dict[str, Sandbox], scenario: Scenario
            ) -> None:
    """Probe, on every emulator, the behaviours of the services the runs reached; each
    finding names those its invariant rests on and every other one the emulators differ
    on (a verdict may rest on more than the kit's map says)."""
    wanted = probes.of_services(scenario.aws_services)
    seen: dict[str, dict[str, probes.Observation]] = {}
    for name, sandbox in sandboxes.items():
        def clients(service: str, sandbox: Sandbox = sandbox) -> Any:
            return aws.client(service, sandbox.endpoint(service))

        for behaviour, observation in probes.observe(wanted, clients).items():
            seen.setdefault(behaviour, {})[name] = observation
    known = probes.behaviours()
    differ = [b for b, by in seen.items() if len({o.matches for o in by.values()}) > 1]
    for finding in findings:
        row = scenario.table.get(finding.invariant)
        named = [b for b in (row.relied_on if row else ()) if b in seen]
        finding.behaviours = {
            b: {"title": known[b].title, "aws": known[b].aws, "verdict": probes.verdict(seen[b]),
                "differ": b in differ,
                "by_emulator": {n: probes.as_dict(o) for n, o in seen[b].items()}}
            for b in dict.fromkeys(named + differ)}


def set_aside(graded: list[RunResult], findings: list[Finding]) -> None:
    """Move each disputed invariant out of its graded run, into the run's findings."""
    for run in graded:
        mine = [f for f in findings if (f.fault, f.seed) == (run.fault, run.seed)]
        for finding in mine:
            run.results.pop(finding.invariant, None)
        run.fidelity_findings = [f.to_dict() for f in mine]
        if mine and not run.error:
            run.outcome = worst(r.verdict for r in run.results.values())


def lines(findings: list[Finding]) -> list[str]:
    """One line per finding, for the terminal."""
    out = []
    for f in findings:
        verdicts = ", ".join(f"{name} {verdict}" for name, verdict in f.verdicts.items())
        who = "; ".join(f"{b}: {d['verdict']}" for b, d in f.behaviours.items()
                        if d["differ"])
        out.append(f"fidelity finding: {f.fault} (seed {f.seed}) {f.invariant}: {verdicts}"
                   + (f" (they differ on {who})" if who
                      else " (no behaviour the kit probes differs: it cannot tell which is "
                      "right)"))
    return out
