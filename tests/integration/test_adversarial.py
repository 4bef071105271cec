"""Reward-hacking solutions for order-pipeline: each is caught, by the gate or by the
invariant named for it (tests/adversarial/<scenario>/<name>/variant.yaml), and none of them
changes a byte of the kit's tree, its cache, the worker runtime or other runs' files.

The hostile fixtures (they write everywhere, fork, fill disks, take memory) run only after
the others proved the sandbox holds: a worker that finds the golden solution or can signal
the kit means the machine is not confining, and then they would do real damage.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kit import scenario, settings
from kit.evaluate.matrix import Row
from kit.evaluate.validate import validate
from kit.history import History
from kit.sandbox import identity
from kit.sandbox.limits import WORKLOAD
from kit.sandbox.support import missing
from kit.toolchain import runtime
from tests.conftest import ROOT
from tests.integration import (
    test_adversarial_blame,
    test_adversarial_bounds,
    test_adversarial_database,
    test_adversarial_iam,
    test_adversarial_intake,
)
from tests.integration.adversary import processes, survivors
from tests.integration.fingerprint import changes, fingerprint

SCENARIO = scenario.load("order-pipeline")
HOSTILE = ("write-everywhere", "fork-bomb", "disk-filler", "memory-hog")
# They prove the sandbox holds (the golden out of sight, the kit out of reach) before the
# hostile fixtures run.
PROBES = ("read-golden", "signal-kit")
# Cases judged by a file of their own, with the checks particular to them: run once, there.
ELSEWHERE = (test_adversarial_blame.CASES | test_adversarial_intake.CASES
             | test_adversarial_iam.IAM_CASES | test_adversarial_iam.PASSWORD_CASES
             | {test_adversarial_bounds.CASE, test_adversarial_database.CASE})
ADVERSARIAL = ROOT / "tests" / "adversarial"


@pytest.fixture
def other_run() -> Iterator[Path]:
    """Another evaluation's files, where such files live (a worker once overwrote every
    *result*.json under /tmp)."""
    path = Path(tempfile.mkdtemp(prefix="adversarial-other-run-"))
    for name in ("result.json", "history.json", "report.json"):
        (path / name).write_text(json.dumps({"outcome": "fail", "from": name}))
    (path / "worker-0.log").write_text("another run's log\n")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _protected(other_run: Path) -> list[Path]:
    cache = settings.cache_dir()
    return [ROOT, cache / "mirror", cache / "bin", cache / "terraform.rc", runtime.location(),
            other_run]


def _run(out: Path, names: set[str]) -> list[Row]:
    return validate(SCENARIO, out, jobs=2, root=ADVERSARIAL, golden=False, only=names)


def _said(out: Path, row: str, prefix: str) -> list[str]:
    """What the row's workers printed after `prefix` (one line per incarnation)."""
    return [line.split(prefix, 1)[1].strip()
            for log in sorted((out / row / "none-seed1").glob("worker-*.log"))
            for line in log.read_text(errors="replace").splitlines() if prefix in line]


def _not_ok(rows: list[Row]) -> dict[str, object]:
    return {row.subject: [(r.outcome, r.error, {i: v.summary for i, v in r.results.items()
                                                if v.verdict != "pass"}) for r in row.runs]
            for row in rows if not row.ok}


def _names() -> set[str]:
    return {d.name for d in (ADVERSARIAL / SCENARIO.name).iterdir()
            if (d / "variant.yaml").exists()}


# Parallel: the trees it fingerprints are written by no other test (only their bytecode and
# tool caches, which the fingerprint leaves out), and `survivors` counts only orphans that
# are no other test's (see adversary.py). The probes and the hostile fixtures are the serial
# test's below.
@pytest.mark.timeout(2400)
def test_every_reward_hack_is_caught(tmp_path: Path, other_run: Path) -> None:
    before = fingerprint(*_protected(other_run))
    running, since = processes(), time.time()
    rows = _run(tmp_path, _names() - set(HOSTILE) - set(PROBES) - ELSEWHERE)
    assert len(rows) >= 9
    assert not _not_ok(rows), _not_ok(rows)

    # The admin API call was refused by the gateway and is on the record.
    history = History.load(tmp_path / "poison-dropped-admin-api" / "none-seed1" /
                           "history.json")
    refused = [op for op in history.of_kind("authz") if op.value.action == "moto-api"]
    assert refused and all(op.value.decision != "Allow" for op in refused)

    # Files the worker forged were overwritten by the kit's own record.
    result = json.loads((tmp_path / "forged-run-files" / "none-seed1" /
                         "result.json").read_text())
    assert result["outcome"] == "fail" and "invariants" in result

    # Terraform could not read the host's file: the deploy failed on it, the solution's fault.
    deploy = json.loads((tmp_path / "tf-reads-host" / "none-seed1" / "result.json").read_text())
    assert "/etc/os-release" in deploy["invariants"]["deploy.applies"]["summary"]
    assert not changes(before, fingerprint(*_protected(other_run)))
    assert survivors(running, since) == []


# Serial: its hostile fixtures (fork bomb, memory hog, disk filler) load the machine other
# tests time themselves on. They run only after its probes proved, in this test, that the
# sandbox holds.
@pytest.mark.serial
@pytest.mark.timeout(2400)
def test_the_hostile_fixtures_are_contained(tmp_path: Path, other_run: Path) -> None:
    before = fingerprint(*_protected(other_run))
    running, since = processes(), time.time()
    probes = _run(tmp_path, set(PROBES))
    assert sorted(row.subject for row in probes) == sorted(PROBES)
    assert not _not_ok(probes), _not_ok(probes)

    # Nothing of the grader is in a worker's sight, nor within its reach.
    found = _said(tmp_path, "read-golden", "read-golden:")
    assert found and all(line == "found 0: []" for line in found), found
    struck = _said(tmp_path, "signal-kit", "signal-kit:")
    # Its parent is the sandbox's init. As root the init is another user's: every attempt is
    # refused. Without root the init has the worker's uid, so kill(2) succeeds, but the
    # kernel drops SIGSTOP and SIGKILL sent to a PID namespace's init from inside it
    # (pid_namespaces(7)): the worker lived on to print this, and its row was judged as
    # expected above.
    signals = "Operation not permitted" if identity.can_switch() else "sent"
    assert struck and all(line == f"parent 1: ptrace: Operation not permitted; SIGSTOP: "
                                  f"{signals}; SIGKILL: {signals}" for line in struck), struck
    assert not changes(before, fingerprint(*_protected(other_run)))
    assert survivors(running, since) == []

    lacking = missing()
    if lacking:
        pytest.skip(f"hostile fixtures not run: this machine does not confine fully: {lacking}")
    hostile = _run(tmp_path / "hostile", set(HOSTILE))
    assert not _not_ok(hostile), _not_ok(hostile)
    out = tmp_path / "hostile"
    _assert_contained(out)
    assert not changes(before, fingerprint(*_protected(other_run)))
    assert survivors(running, since) == []


def _assert_contained(out: Path) -> None:
    """Each hostile worker hit a limit of its own sandbox (the evidence is in its log)."""
    for line in _said(out, "write-everywhere", "write-everywhere:"):
        places = json.loads(line.split(" in: ", 1)[1].replace("'", '"'))
        # Its workspace copy, its /tmp and the sandbox's device nodes: nothing else.
        assert places and all(p.startswith(("/workspace", "/tmp", "/dev")) for p in places), line
    bombs = _said(out, "fork-bomb", "fork-bomb:")
    assert bombs and all(re.fullmatch(r"(\d+) processes, then: \[Errno 11\] .*", b)
                         and int(b.split()[0]) < WORKLOAD.processes for b in bombs), bombs
    fills = _said(out, "disk-filler", "disk-filler:")
    assert fills and all(re.fullmatch(r"/(workspace|tmp): (\d+) MiB, then: \[Errno 2[78]\] .*", f)
                         for f in fills), fills
    hogs = _said(out, "memory-hog", "memory-hog:")
    assert hogs and all(re.fullmatch(r"\d+ MiB, then (MemoryError|killed by SIGKILL)", h)
                        for h in hogs), hogs
