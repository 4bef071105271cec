"""The adversarial suite (tests/adversarial/) run through the RL environment: each case's
files written by the environment's own `write` tool into a build task's workspace of its
scenario, then submitted (sampled, the seed that draws the case's fault). A case built on
a symbolic link is skipped: the environment cannot make one. Every other case must be
caught there as in the kill matrix: `fail` with its evidence (its named invariants
failing, or the static gate's refusal) and a reward at most the scenario's ceiling, never
`pass`, never an error. In `make validate` (slow): one run per case."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit import scenario
from kit.rl.session import KitSession
from kit.tasks import catalog
from kit.tasks.modes import seed_for
from kit.variants import load, materialize
from tests.integration.adversary import ADVERSARIAL

pytestmark = [pytest.mark.integration, pytest.mark.slow]

BUILD = {t.scenario: t.id for t in catalog.all_tasks() if t.kind == "build"}
CASES = [(p.parent.parent.name, p.parent.name)
         for p in sorted(ADVERSARIAL.glob("*/*/variant.yaml")) if p.parent.parent.name in BUILD]


@pytest.mark.parametrize(("name", "case"), CASES, ids=[f"{n}/{c}" for n, c in CASES])
def test_an_adversarial_solution_submitted_through_the_environment_fails(
        name: str, case: str, tmp_path: Path) -> None:
    sc = scenario.load(name)
    attack = load(sc, ADVERSARIAL / name / case)
    if attack.must_pass:
        pytest.skip(f"{case} is an alternative the suite expects to pass")
    tree = materialize(sc, attack, tmp_path / "attack")
    links = [str(p.relative_to(tree)) for p in sorted(tree.rglob("*")) if p.is_symlink()]
    if links:
        # Reading the tree would follow the link (the host's file as a regular one): the
        # attack cannot be mounted here, and is the kill matrix's (test_adversarial.py).
        pytest.skip(f"{case} needs a link ({', '.join(links)}): the environment's tools make "
                    "only regular files and never follow a link (tests/unit/"
                    "test_tasks_workspace.py), so an agent cannot make one")
    files = catalog.read_tree(tree)
    session = KitSession("sampled", base=tmp_path)
    try:
        session.reset(BUILD[name], seed_for(list(sc.faults), attack.fault or "none"))
        for rel, content in files.items():
            wrote = session.step("write", rel, content)
            assert wrote["ok"], wrote
        graded = session.step("submit")
    finally:
        session.close()
    grade = graded["grade"]
    assert graded["ok"] and grade["outcome"] == "fail", graded["output"]
    assert graded["reward"] is not None and graded["reward"] <= sc.reward.ceiling, grade
    if grade["evidence"]:  # a run: the case's named invariants fail in it
        (run,) = grade["evidence"]
        failed = {i for i, v in run["invariants"].items() if v["verdict"] == "fail"}
        assert set(attack.must_fail) <= failed, run["invariants"]
    else:  # refused before any run: the static gate says why
        assert grade["static"] and "gate" in grade["note"], grade
