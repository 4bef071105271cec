"""Runs on Ray actors (kit/cluster.py): the verdicts of the local executor, on a cluster of
two nodes with separate resources, leaving no process or temp dir behind."""

from __future__ import annotations

import glob
import importlib.util
import shutil
import tempfile
from pathlib import Path

import psutil
import pytest

from kit import cluster, scenario
from kit.matrix import Golden, Matrix, VariantOf, _Sandboxes
from kit.validate import Row
from kit.variants import load_all

pytestmark = [pytest.mark.integration, pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="the ray extra is not installed (pip install 'kit[ray]')")]


def _rows(variants: dict) -> list[Row]:
    """The golden and one defect, under no fault."""
    return [Row("golden", "none", ()),
            Row("no-redrive", "none", variants["no-redrive"].must_fail)]


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


def test_two_ray_nodes_give_the_local_executors_verdicts(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    cluster.local_env()  # before Ray is imported
    from ray.cluster_utils import Cluster

    sc = scenario.load("order-pipeline")
    variants = {v.name: v for v in load_all(sc)}
    before, temps = _descendants(), set(glob.glob("/tmp/kit-ray-*"))

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
    # rows (order-pipeline golden and no-redrive under none, seed 1) run them.
    assert _verdicts(rows) == {
        ("golden", "none", 1): ("pass", ()),
        ("no-redrive", "none", 1): ("killed", tuple(sorted(variants["no-redrive"].must_fail)))}
    assert _descendants() <= before
    assert set(glob.glob("/tmp/kit-ray-*")) <= temps


def test_the_local_cluster_leaves_no_process_or_temp_dir() -> None:
    before, temps = _descendants(), set(glob.glob("/tmp/kit-ray-*"))
    with cluster.connected(None, 1) as connected:
        assert connected.cluster_resources()["CPU"] == 1
    assert _descendants() <= before
    assert set(glob.glob("/tmp/kit-ray-*")) <= temps
