"""--jobs auto (kit/evaluate/runcost.py): the rule, its figures and where they come from."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from kit.evaluate import runcost
from kit.evaluate.runcost import RunCost


@pytest.mark.parametrize(("cpu", "wall", "cores", "jobs"), [
    (10.0, 15.0, 2, 3),   # a run keeps 2/3 of a core busy: 3 fill 2 cores
    (10.0, 25.0, 2, 4),   # 5 would fill them; at most 2 per core
    (10.0, 10.0, 2, 2),   # a run is all CPU: one per core
    (30.0, 10.0, 2, 1),   # never below 1 (the measurement saw contention)
    (10.0, 15.0, 8, 12),
    (0.0, 15.0, 2, 2),    # no CPU measured: one per core
])
def test_auto_fills_the_cores_at_most_two_per_core(cpu, wall, cores, jobs):
    assert RunCost(cpu, wall, 1, "t").jobs(cores) == jobs


def test_the_last_measurement_is_kept_and_a_bad_file_falls_back_to_the_default(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIT_CACHE", str(tmp_path))
    assert runcost.load() == runcost.DEFAULT
    runcost.save(RunCost(11.0, 20.0, 17, "kit validate x --jobs 1"))
    assert runcost.load() == RunCost(11.0, 20.0, 17, "kit validate x --jobs 1")
    runcost.path().write_text("{not json")
    assert runcost.load() == runcost.DEFAULT


def test_measured_divides_cpu_and_wall_by_the_runs() -> None:
    with runcost.measured("t") as per_run:
        sum(i * i for i in range(300_000))  # some CPU
        cost = per_run(2)
    assert cost.runs == 2 and cost.cpu_s >= 0 and cost.wall_s >= 0 and cost.source == "t"


def test_jobs_values_and_what_auto_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    monkeypatch.setenv("KIT_CACHE", str(tmp_path))
    monkeypatch.setattr(runcost, "cores", lambda: 2)
    assert runcost.parse_jobs("3") == 3 and runcost.parse_jobs("auto") == "auto"
    for bad in ("0", "-1", "two"):
        with pytest.raises(argparse.ArgumentTypeError, match="positive number or auto"):
            runcost.parse_jobs(bad)
    said: list[str] = []
    runcost.save(RunCost(10.0, 25.0, 17, "kit validate x --jobs 1"))
    assert runcost.resolve("auto", said.append) == 4
    assert "2 cores x 25.0 s wall / 10.0 CPU-s" in said[0] and "kit validate x" in said[0]
    assert runcost.resolve(3, said.append) == 3 and runcost.resolve(None, said.append) is None
    assert len(said) == 1
