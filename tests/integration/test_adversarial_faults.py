"""Faults the workload cannot see coming or undo (issue 22): a worker that removes what
once faked its clock is still refused by AWS and caught, and nothing a worker sees at its
start (its environment, every file its sandbox shows) differs between a run without a
fault and a run with one.

The probe (tests/probes/fifo-ledger/unannounced) is the golden worker printing that
fingerprint at each start; it is judged as a correct alternative (it must pass), and its
first start in each run comes before any fault's trigger (the 8th recorded posting).
Before the fault moved to the gateway, its clock_skew fingerprint had LD_PRELOAD and
FAKETIME_* in the environment and the offset file and libfaketime among the files.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from kit import scenario as scenarios
from kit.evaluate.validate import validate
from tests.conftest import ROOT
from tests.integration.adversary import judge, not_caught, processes, survivors

SCENARIO = "fifo-ledger"
PROBES = ROOT / "tests" / "probes"
PROBE = "unannounced"
MARK = "FINGERPRINT "


def _first_fingerprints(run_dir: Path) -> dict[str, dict[str, object]]:
    """Per worker slot, the fingerprint its first incarnation printed."""
    found = {}
    for log in sorted(run_dir.glob("worker-*.log")):
        lines = [line.split(MARK, 1)[1] for line in log.read_text(errors="replace").splitlines()
                 if MARK in line]
        assert lines, f"{log}: the probe printed no fingerprint"
        found[log.stem] = json.loads(lines[0])
    return found


@pytest.mark.timeout(600)
def test_clock_skew_holds_when_the_worker_reexecutes_itself_unfaked(tmp_path: Path) -> None:
    before, since = processes(), time.time()
    rows = judge(SCENARIO, {"reexec-unfaked-clock"}, tmp_path)
    assert survivors(before, since) == []
    assert not_caught(SCENARIO, rows) == {}


@pytest.mark.timeout(600)
def test_workers_see_the_same_at_start_with_a_fault_as_without(tmp_path: Path) -> None:
    spec = scenarios.load(SCENARIO)
    rows = validate(spec, tmp_path, jobs=2, root=PROBES, golden=False, only={PROBE})
    assert {row.fault for row in rows} == {"none", "clock_skew"}
    assert [(row.fault, row.runs[0].outcome) for row in rows if not row.ok] == []
    quiet = _first_fingerprints(tmp_path / PROBE / "none-seed1")
    skewed = _first_fingerprints(tmp_path / PROBE / "clock_skew-seed1")
    assert spec.workers is not None and len(quiet) == spec.workers.replicas
    assert skewed == quiet
    env = quiet["worker-0"]["env"]
    assert isinstance(env, dict)
    assert not [name for name in env if name == "LD_PRELOAD" or name.startswith("FAKETIME")]
    beyond = quiet["worker-0"]["beyond_runtime"]
    assert isinstance(beyond, list) and beyond, "the probe saw no file beyond the runtime"
    assert not [f for f in beyond if "faketime" in f or "clock" in f]
