"""Runs on Ray actors (kit/evaluate/cluster.py): the verdicts of the local executor, on a cluster of
two nodes with separate resources, for `kit eval` and the RL environment's submit as for
the kill matrix, leaving no process or temp dir behind."""

from __future__ import annotations

import glob
import importlib.util
import json
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import pytest

from kit import cli, scenario
from kit.evaluate import cluster
from kit.evaluate.matrix import Golden, Matrix, Row, VariantOf, _Sandboxes
from kit.variants import load_all

pytestmark = [pytest.mark.integration, pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="the ray extra is not installed (pip install 'kit[ray]')")]


DEFECT = "balance-not-idempotent"


def _rows(variants: dict) -> list[Row]:
    """The golden and one defect, under no fault (a defect the workload shows, judged from
    the history: one whose run ends at quiescence, not at its 60 s timeout as no-redrive's
    poison cycling forever does)."""
    return [Row("golden", "none", ()),
            Row(DEFECT, "none", variants[DEFECT].must_fail)]


def _matrix(sc: scenario.Scenario, variants: dict, out: Path) -> Matrix:
    subjects = {"golden": Golden(), **{name: VariantOf(v) for name, v in variants.items()}}
    return Matrix(sc, subjects, out, _Sandboxes("moto", None), lambda row, run: None)


def _verdicts(rows: list) -> dict[tuple[str, str, int], tuple[str, tuple[str, ...]]]:
    """(subject, fault, seed) -> (status, failed invariants) of every run."""
    return {(row.subject, row.fault, run.seed):
            (row.status(run), tuple(sorted(i for i, r in run.results.items()
                                           if r.verdict == "fail")))
            for row in rows for run in row.runs}


def _descendants() -> set[int]:
    return {p.pid for p in psutil.Process().children(recursive=True)}


# Slow (make validate): a second node of the same cluster is scale-out, which `make bench`
# measures; the Ray executor's verdicts are the local one's in make test by the eval below.
@pytest.mark.slow
def test_two_ray_nodes_give_the_local_executors_verdicts(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    cluster.local_env()  # before Ray is imported
    from ray.cluster_utils import Cluster

    sc = scenario.load("order-pipeline")
    variants = {v.name: v for v in load_all(sc)}
    before = _descendants()

    temp = tempfile.mkdtemp(prefix="kit-ray-")
    monkeypatch.setenv("RAY_TMPDIR", temp)  # Ray's files, not /tmp/ray
    # Two nodes of one CPU each, with resources of their own: the two runs land on
    # different nodes, one of them not the driver's (its run directory is shipped back).
    nodes = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "resources": {"node_a": 1}, "include_dashboard": False,
        "node_ip_address": "127.0.0.1"})
    try:
        nodes.add_node(num_cpus=1, resources={"node_b": 1}, node_ip_address="127.0.0.1")
        matrix, rows = _matrix(sc, variants, tmp_path / "ray"), _rows(variants)
        placed = cluster.run_matrix(matrix, [(r, 1) for r in rows], 2, nodes.address)
    finally:
        nodes.shutdown()
        shutil.rmtree(temp, ignore_errors=True)
    assert len(set(placed.values())) == 2, placed
    for row in rows:
        assert (matrix.out / row.subject / "none-seed1" / "history.json").is_file()
    # The local executor's verdicts for the same rows and seed: test_scenarios.py's kill-matrix
    # rows (order-pipeline golden and balance-not-idempotent under none, seed 1) run them.
    assert _verdicts(rows) == {
        ("golden", "none", 1): ("pass", ()),
        (DEFECT, "none", 1): ("killed", tuple(sorted(variants[DEFECT].must_fail)))}
    assert _descendants() <= before
    assert not Path(temp).exists()  # not a glob: another process's cluster may start now


REPAIR = "order-pipeline.repair.2b32c12d56"  # rds-public (tests/integration/test_rl_env.py)


def test_kit_eval_and_a_submit_on_ray_give_the_local_executors_verdicts(tmp_path: Path) -> None:
    """`kit eval --executor ray` of the golden and a submit of a repair task's starting
    files on Ray, side by side on one local cluster (started and gone with no process or
    temp dir left): the verdicts the local executor gives
    them (test_scenarios.py runs the golden under none locally: every invariant passes;
    test_rl_env.py submits the same starting files under the same seed locally: reward
    below 1, rds.hardening fails)."""
    pytest.importorskip("openenv", reason="the rl extra: pip install 'kit[rl]'")
    from kit.rl.session import KitSession
    from kit.tasks.modes import seed_for

    sc = scenario.load("order-pipeline")
    before, temps = _descendants(), set(glob.glob("/tmp/kit-ray-*"))
    session = KitSession("sampled", base=tmp_path, executor="ray")
    session.reset(REPAIR, seed_for(list(sc.faults), "none"))
    with cluster.connected(None, 2), ThreadPoolExecutor(1) as pool:
        graded = pool.submit(session.step, "submit")
        code = cli.main(["eval", "order-pipeline", "--fault", "none", "--executor", "ray",
                         "--out", str(tmp_path / "eval")])  # in the main thread: signals
        submitted = graded.result()
    session.close()
    assert code == cli.EXIT_OK
    (report,) = (tmp_path / "eval").rglob("report.json")
    (run,) = json.loads(report.read_text())["runs"]
    assert run["fault"] == "none" and Path(run["solution"]) == sc.golden.resolve()
    assert {v["verdict"] for v in run["invariants"].values()} == {"pass"}, run["invariants"]
    assert set(sc.invariants) <= set(run["invariants"])
    assert submitted["reward"] is not None and submitted["reward"] < 1.0, submitted["output"]
    (graded,) = submitted["grade"]["evidence"]
    failed = sorted(i for i, v in graded["invariants"].items() if v["verdict"] == "fail")
    assert failed == ["rds.hardening"], graded["invariants"]
    assert _descendants() <= before
    assert set(glob.glob("/tmp/kit-ray-*")) <= temps
