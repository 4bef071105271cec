"""Every task of the shipped scenarios, by kind; ids are scenario.kind[.digest of the variant name].

- build: the scenario's prompt and an empty workspace.
- repair: a one-defect variant's solution and the fault its CI run fails under; the
  failing report is not made at export (a run per variant: minutes): the text says how to
  get it (`kit eval ... --fault F`, or the environment's `ci_report` tool).
- diagnose: the same solution and report; the answer (the defect's file and an invariant
  that fails) is graded against the variant's metadata (its change.patch's files and
  must_fail), with no run.
- harden: a variant whose one defect is a widened grant or missing hardening
  (every must_fail invariant in HARDENING): it works, but a review flags it; graded by
  the run, like repair.

Alternatives (must_pass variants) are correct solutions, so they make no task."""

from __future__ import annotations

import tempfile
from functools import cache
from pathlib import Path

from kit import scenario as scenarios
from kit.checks.invariants import hardening_ids
from kit.deploy.hcl import NOT_COPIED
from kit.errors import InputError
from kit.scenario import Scenario
from kit.tasks import text
from kit.tasks.model import KINDS, Task, task_id
from kit.variants import Variant, load_all, materialize

# Invariants about privilege and hardening: a variant failing only these is a harden task.
HARDENING = hardening_ids()


def defects(sc: Scenario) -> list[Variant]:
    """The scenario's one-defect variants (alternatives are correct: no task)."""
    return [v for v in load_all(sc) if not v.must_pass]


def is_harden(variant: Variant) -> bool:
    """Whether the variant's defect is only a widened grant or missing hardening."""
    return bool(variant.must_fail) and set(variant.must_fail) <= HARDENING


def read_tree(root: Path) -> dict[str, str]:
    """The text files under root (relative path -> content), as a run would copy them.

    A file that is not UTF-8 text (a Lambda deployment package built from sources beside
    it) is left out: a task's files are text an agent reads and edits, and such a file is
    rebuilt from those sources."""
    files = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if path.is_dir() or any(part in NOT_COPIED or part == "__pycache__"
                                for part in rel.parts):
            continue
        try:
            files[rel.as_posix()] = path.read_text()
        except UnicodeDecodeError:
            continue
    return files


def variant_files(sc: Scenario, variant: Variant) -> dict[str, str]:
    """The files of the variant's solution (the golden with its patch applied)."""
    with tempfile.TemporaryDirectory(prefix="kit-task-") as tmp:
        return read_tree(materialize(sc, variant, Path(tmp) / "solution"))


def _prompt(sc: Scenario) -> Path:
    """Where the scenario states its contract to an agent."""
    return sc.root / "scenarios" / sc.name / "prompt.md"


def scenario_tasks(sc: Scenario) -> list[Task]:
    """The tasks of one scenario, build first, then per variant by name."""
    prompt = _prompt(sc).read_text()
    tasks = [Task(task_id(sc.name, "build"), "build", sc.name, None,
                  text.build(sc.name, prompt))]
    for variant in defects(sc):
        files = variant_files(sc, variant)
        kinds = ["repair", "diagnose"] + (["harden"] if is_harden(variant) else [])
        for kind in kinds:
            body = getattr(text, kind)(sc.name, prompt, variant.fault or "none")
            tasks.append(Task(task_id(sc.name, kind, variant.name), kind, sc.name,
                              variant.name, body, files,
                              failing_fault=None if kind == "harden" else variant.fault))
    return tasks


@cache
def all_tasks() -> tuple[Task, ...]:
    """Every task of every scenario the kit knows that states a contract to an agent (a
    team's scenario has no prompt: its repository is the solution, and makes no task)."""
    loaded = (scenarios.load(name) for name in scenarios.known())
    return tuple(t for sc in loaded if _prompt(sc).is_file() for t in scenario_tasks(sc))


def get(tid: str) -> Task:
    """One task by id; InputError naming the known kinds and scenarios if unknown."""
    found = {t.id: t for t in all_tasks()}
    if tid not in found:
        raise InputError(f"unknown task {tid!r}: ids are <scenario>.<kind>[.<digest of the "
                         f"variant's name>] with kind one of {', '.join(KINDS)} and scenario "
                         f"one of {', '.join(scenarios.known())}; `kit tasks list` shows "
                         "them all")
    return found[tid]


def variant_of(task: Task) -> Variant:
    """The variant a repair, diagnose or harden task is made from."""
    sc = scenarios.load(task.scenario)
    return next(v for v in defects(sc) if v.name == task.variant)


def counts(tasks: tuple[Task, ...] | list[Task]) -> dict[str, dict[str, int]]:
    """Tasks per scenario and kind."""
    out: dict[str, dict[str, int]] = {}
    for t in tasks:
        out.setdefault(t.scenario, dict.fromkeys(KINDS, 0))[t.kind] += 1
    return out
