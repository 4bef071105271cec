"""kit/tasks: the catalog's counts and ids, the bundles' contents (no golden, no other
variant, no checker code, no variant name), and grading without a run."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from kit import scenario as scenarios
from kit.tasks import bundle, catalog
from kit.tasks.grade import grade, patched_files
from kit.tasks.model import ANSWER_FILE, KINDS, task_id
from kit.variants import Variant

ROOT = Path(__file__).resolve().parents[2]
TASKS = catalog.all_tasks()
# Taken with TASKS: other tests (other xdist workers) may add a scenario to a root meanwhile.
KNOWN = scenarios.known()


def _meaningful(text: str) -> set[str]:
    """The lines worth matching: stripped, 12+ characters with a letter (not `}` or `EOF`)."""
    return {s for s in (line.strip() for line in text.splitlines())
            if len(s) >= 12 and re.search(r"[A-Za-z]", s)}


def _added(patch: Path) -> set[str]:
    """The lines a patch adds."""
    return _meaningful("\n".join(line[1:] for line in patch.read_text().splitlines()
                                 if line.startswith("+") and not line.startswith("+++")))


@cache
def _defects(name: str) -> dict[str, Variant]:
    """The scenario's defects by name (loaded once: a load takes ~0.5 s)."""
    return {v.name: v for v in catalog.defects(scenarios.load(name))}


@cache
def _forbidden(name: str) -> tuple[set[str], set[str], set[str]]:
    """(golden lines, every variant's added lines, checker code lines) of a scenario."""
    sc = scenarios.load(name)
    golden = set().union(*map(_meaningful, catalog.read_tree(sc.golden).values()))
    variants = set().union(*(_added(v.patch) for v in _defects(name).values()))
    code = [*(ROOT / "kit" / "checks").glob("*.py"),
            *(ROOT / "scenarios" / name).glob("*.py")]
    checkers = set().union(*(_meaningful(p.read_text()) for p in code))
    return golden, variants, checkers


def leaks(directory: Path) -> list[str]:
    """What a bundle reveals beyond the prompt and its own starting files."""
    manifest = json.loads((directory / "task.json").read_text())
    task = catalog.get(manifest["id"])
    prompt = _meaningful((ROOT / "scenarios" / task.scenario / "prompt.md").read_text())
    golden, variants, checkers = _forbidden(task.scenario)
    files = {p.relative_to(directory / "workspace").as_posix(): p.read_text()
             for p in (directory / "workspace").rglob("*") if p.is_file()}
    own = set().union(set(), *map(_meaningful, files.values()))
    found = []
    for name in ("task.md", "task.json"):
        text = (directory / name).read_text()
        found += [f"{name}: {line}" for line in _meaningful(text) & (golden | variants
                                                                     | checkers) - prompt - own]
    if task.variant:
        # The starting files are the golden plus this variant's own change, nothing more.
        mine = _added(_defects(task.scenario)[task.variant].patch)
        found += [f"workspace: {line}" for line in own - golden - mine - prompt]
    elif files:
        found.append(f"workspace of a build task is not empty: {sorted(files)}")
    everything = "\n".join([(directory / "task.md").read_text(),
                            (directory / "task.json").read_text(), *files.values()])
    for v in _defects(task.scenario).values():
        if re.search(rf"\b{re.escape(v.name)}\b", everything) and v.name not in "\n".join(
                [*prompt, *golden]):
            found.append(f"names the variant {v.name}")
    return found


def test_at_least_100_tasks_over_4_kinds_per_scenario_counted():
    counts = catalog.counts(TASKS)
    assert len(TASKS) >= 100
    assert {t.kind for t in TASKS} == set(KINDS)
    assert set(counts) == set(KNOWN)
    assert all(by_kind["build"] == 1 and by_kind["repair"] == by_kind["diagnose"] >= 10
               for by_kind in counts.values())


def test_ids_are_unique_and_stable_and_do_not_name_the_defect():
    assert len({t.id for t in TASKS}) == len(TASKS)
    # A digest of scenario and variant name: the same in every version of the kit.
    assert task_id("order-pipeline", "repair", "rds-public") == "order-pipeline.repair.2b32c12d56"
    assert all(t.variant is None or t.variant not in t.id for t in TASKS)


def test_harden_tasks_are_the_privilege_and_hardening_defects():
    harden = {t.variant for t in TASKS if t.kind == "harden" and t.scenario == "order-pipeline"}
    assert {"rds-public", "worker-wildcard-policy", "trust-any-principal"} <= harden
    assert "delete-before-commit" not in harden


def test_no_bundle_reveals_a_golden_another_variant_or_checker_code(tmp_path):
    for task in TASKS:
        directory = bundle.write(task, tmp_path)
        assert leaks(directory) == [], task.id
        assert "grader" in json.loads((directory / "task.json").read_text())


def test_the_leak_scan_finds_a_golden_line_and_another_variants_change(tmp_path):
    task = next(t for t in TASKS if t.kind == "build" and t.scenario == "order-pipeline")
    directory = bundle.write(task, tmp_path)
    golden = scenarios.load("order-pipeline").golden
    line = next(s for s in _meaningful((golden / "sqs.tf").read_text()))
    with (directory / "task.md").open("a") as md:
        md.write(f"\n{line}\n")
    assert any(line in leak for leak in leaks(directory))
    repair = next(t for t in TASKS if t.kind == "repair" and t.variant == "rds-public")
    directory = bundle.write(repair, tmp_path)
    other = sorted(_added(ROOT / "variants/order-pipeline/worker-wildcard-policy/change.patch")
                   - _meaningful((golden / "iam.tf").read_text()))[0]
    (directory / "workspace" / "extra.tf").write_text(other + "\n")
    assert any(other in leak for leak in leaks(directory))


def test_diagnose_is_graded_against_the_variants_metadata(tmp_path):
    task = next(t for t in TASKS if t.kind == "diagnose" and t.variant == "rds-public")
    (files,) = patched_files(catalog.variant_of(task).patch)
    answers = [({"file": files, "invariant": "rds.hardening"}, 1.0),
               ({"file": f"./{files}", "invariant": "delivery.no_loss"}, 0.5),
               ({"file": "worker/__main__.py", "invariant": "rds.hardening"}, 0.5),
               ({"file": "nope.tf", "invariant": "nope"}, 0.0)]
    for answer, expected in answers:
        (tmp_path / ANSWER_FILE).write_text(json.dumps(answer))
        assert grade(task, tmp_path, 1, "sampled").reward == expected, answer
    (tmp_path / ANSWER_FILE).write_text("{not json")
    bad = grade(task, tmp_path, 1, "sampled")
    assert bad.reward == 0.0 and ANSWER_FILE in bad.note


def test_an_empty_workspace_scores_0_with_no_run(tmp_path):
    task = catalog.get("order-pipeline.build")
    result = grade(task, tmp_path, 1, "full")
    assert (result.reward, result.outcome) == (0.0, "fail") and "no *.tf" in result.note


def test_an_unknown_task_names_the_kinds_and_scenarios():
    with pytest.raises(Exception, match="kind one of build, repair, diagnose, harden"):
        catalog.get("order-pipeline.nope")


def test_a_teams_scenario_on_the_search_path_makes_no_task(monkeypatch):
    # A team's scenario (examples/team-repo) has no prompt: its repository is the solution.
    # With its root on the search path (as `--scenarios` leaves it in the process), the
    # catalog is the kit's own scenarios' tasks, not an error reading a missing prompt.
    monkeypatch.setenv(scenarios.ENV_ROOTS, str(ROOT / "examples" / "team-repo" / ".kit"))
    catalog.all_tasks.cache_clear()
    try:
        assert "team-orders-ecs" in scenarios.known()
        names = {t.scenario for t in catalog.all_tasks()}
        assert names and not any(name.startswith("team-") for name in names)
    finally:
        catalog.all_tasks.cache_clear()
