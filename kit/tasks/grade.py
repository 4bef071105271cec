"""Grade a workspace for a task: `grade(task, workspace, seed, mode) -> Grade`.

A pure call of its inputs (the task, the workspace's files, the seed, the mode) and the
kit's toolchain, with no state kept between calls, so a grading can run anywhere the kit
is set up; `executor` "ray" runs each fault as a Ray task with its own sandbox
(kit/evaluate/matrix.py), on the cluster the caller connected to or on a local one. Run-graded
kinds go through the kit's pipeline exactly as `kit eval` does (runner.run_all,
report.document); diagnose is graded against the variant's metadata, with no run."""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit import scenario as scenarios
from kit.ci import static
from kit.intake import snapshot
from kit.intake.files import read_regular
from kit.tasks import modes
from kit.tasks.catalog import variant_of
from kit.tasks.model import ANSWER_FILE, Task

if TYPE_CHECKING:
    from kit.scenario import Scenario

PATCHED = re.compile(r"^(?:---|\+\+\+) [ab]/(?P<path>\S+)", re.M)


@dataclass
class Grade:
    """The outcome of one grading: the reward (None: the kit could not judge) and why."""

    task: str
    mode: str
    seed: int
    reward: float | None
    outcome: str  # pass | fail | error
    faults: list[str] = field(default_factory=list)
    # Per run: fault, outcome, score and per invariant {verdict, summary}; or the answer's.
    evidence: list[dict[str, Any]] = field(default_factory=list)
    static: list[str] = field(default_factory=list)  # the static findings, as text
    note: str = ""
    report_dir: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON)."""
        return asdict(self)


def grade(task: Task, workspace: Path, seed: int = 1, mode: str = "sampled",
          out: Path | None = None, executor: str = "local", address: str | None = None
          ) -> Grade:
    """Grade `workspace` for `task` under `mode` (full or sampled) and `seed`, its runs on
    `executor` (local, or ray: of the cluster at `address`)."""
    if task.kind == "diagnose":
        return grade_answer(task, workspace, seed, mode)
    sc = scenarios.load(task.scenario)
    faults = modes.faults_for(mode, list(sc.faults), seed)
    base = Grade(task.id, mode, seed, 0.0, "fail", faults)
    if not any(workspace.glob("*.tf")):  # its names only: nothing to take
        base.note = "the workspace holds no *.tf file at its root: nothing to deploy"
        return base
    try:
        with snapshot.taken(workspace) as taken:  # nothing reads the workspace after this
            return _graded(task, sc, (workspace, taken), base, out, executor, address)
    except snapshot.Refused as refused:
        base.note = refused.inside  # no host path: an agent reads it
        return base


def _graded(task: Task, sc: Scenario, workspace: tuple[Path, Path], base: Grade,
            out: Path | None, executor: str, address: str | None) -> Grade:
    """The static checks, then the runs, of (the workspace, its intake snapshot)."""
    findings = static.check(workspace[1], sc.toolchain.allowed_providers, sc.modules_dir)
    base.static = [str(f) for f in findings]
    if base.mode == "sampled" and any(f.check == "deploy.allowed_constructs"
                                      for f in findings):
        base.note = "the static gate refuses the solution (a run's gate would too): 0"
        return base
    return run_faults(task, workspace, base.seed, base, out, executor, address)


def run_faults(task: Task, workspace: tuple[Path, Path], seed: int, base: Grade,
               out: Path | None = None, executor: str = "local", address: str | None = None
               ) -> Grade:
    """Run (the workspace, its intake snapshot) under base.faults through the kit's
    pipeline (one sandbox here, or one Ray task each); the report's reward."""
    from kit.evaluate import runner
    from kit.report import document, markdown

    shown, taken = workspace
    sc = scenarios.load(task.scenario)
    out = out or Path(tempfile.mkdtemp(prefix=f"kit-grade-{task.id}-"))
    plan = runner.Plan(sc, taken, base.faults, [seed], out, shown=str(shown))
    results = runner.run_all(plan, "moto", None, lambda label, run: None,
                             jobs=len(base.faults) if executor == "ray" else 1,
                             executor=executor, address=address)
    command = (f"kit tasks grade {task.id} --workspace {shown} --mode {base.mode} "
               f"--seed {seed}")
    doc = document.build(sc, str(shown), results, command)
    document.write(doc, out / "report.json")
    markdown.write(doc, out / "summary.md")
    base.reward, base.outcome, base.report_dir = doc["reward"], doc["outcome"], str(out)
    base.evidence = [{"fault": r["fault"], "seed": r["seed"], "outcome": r["outcome"],
                      "score": r.get("score"), "error": r.get("error"),
                      "invariants": {i: {"verdict": v["verdict"], "summary": v["summary"]}
                                     for i, v in r["invariants"].items()}}
                     for r in doc["runs"]]
    base.note = ("the kit could not judge any run (its own error): no reward"
                 if doc["reward"] is None else "")
    return base


def patched_files(patch: Path) -> set[str]:
    """The files a variant's change.patch touches, relative to the solution."""
    return {m.group("path") for m in PATCHED.finditer(patch.read_text())}


MAX_ANSWER = 100_000  # bytes of answer.json


def grade_answer(task: Task, workspace: Path, seed: int, mode: str) -> Grade:
    """A diagnose answer: half for the defect's file, half for an invariant it violates."""
    variant = variant_of(task)
    result = Grade(task.id, mode, seed, 0.0, "fail")
    # Read without following a link: the agent's workspace is its own to shape.
    data = read_regular(workspace, ANSWER_FILE, MAX_ANSWER)
    try:
        answer = json.loads(data) if data is not None else None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        result.note = f"{ANSWER_FILE}: not a JSON object ({exc})"
        return result
    if not isinstance(answer, dict):
        result.note = (f"{ANSWER_FILE}: missing or not a JSON object with fields file and "
                       "invariant")
        return result
    named = str(answer.get("file", "")).removeprefix("./")
    file_ok = named in patched_files(variant.patch)
    invariant_ok = str(answer.get("invariant", "")) in variant.must_fail
    result.reward = 0.5 * file_ok + 0.5 * invariant_ok
    result.outcome = "pass" if file_ok and invariant_ok else "fail"
    result.evidence = [{"file": named, "file_right": file_ok,
                        "invariant": answer.get("invariant"), "invariant_right": invariant_ok}]
    return result
