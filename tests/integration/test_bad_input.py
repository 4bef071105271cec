"""Bad input and hostile conditions end as a clear `error` or `fail` and leave nothing behind.

Each case runs the real `kit` CLI as a child process whose TMPDIR is a fresh directory, then
looks for leftovers: processes living under that directory, ports the kit's processes
listened on, files left in it, and a report that looks complete when it is not.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kit import scenario
from kit.checks import invariants
from tests.conftest import ROOT
from tests.integration.conftest import traversable_tmp
from tests.integration.procs import (
    alive,
    eventually,
    held_by_us,
    listening_ports,
    living_under,
    tree,
)

SCENARIO = scenario.load("order-pipeline")
KIT = [sys.executable, "-m", "kit.cli"]


def _env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "TMPDIR": str(tmp), "PYTHONFAULTHANDLER": "1"}


tmp_path = traversable_tmp("badinput-")


def _dirs(tmp_path: Path) -> tuple[Path, Path]:
    temp, out = tmp_path / "tmp", tmp_path / "runs"
    temp.mkdir()
    temp.chmod(0o711)
    return temp, out


def _assert_nothing_left(temp: Path) -> None:
    assert eventually(lambda: not living_under(temp), timeout=15), living_under(temp)
    assert sorted(os.listdir(temp)) == []


def _golden_with_worker(tmp_path: Path, main: str | None) -> Path:
    """A copy of the golden whose worker entry point is `main` (None: no worker package)."""
    solution = tmp_path / "solution"
    shutil.copytree(SCENARIO.golden, solution)
    if main is None:
        shutil.rmtree(solution / "worker")
    else:
        (solution / "worker" / "__main__.py").write_text(main)
    return solution


@pytest.mark.parametrize(("main", "said"), [
    (None, "No module named worker"),
    ("import sys\nprint('worker: QUEUE_URL is not a URL', file=sys.stderr)\nsys.exit(3)\n",
     "QUEUE_URL is not a URL"),
], ids=["does-not-start", "exits-at-once"])
def test_a_worker_that_never_runs_fails_workers_start(tmp_path: Path, main: str | None,
                                                      said: str) -> None:
    temp, out = _dirs(tmp_path)
    solution = _golden_with_worker(tmp_path, main)
    done = subprocess.run([*KIT, "eval", "order-pipeline", "--solution", str(solution),
                           "--fault", "db_outage", "--out", str(out)],
                          env=_env(temp), capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    report = json.loads(next(out.rglob("report.json")).read_text())
    verdicts = {i: r["verdict"] for i, r in report["runs"][0]["invariants"].items()}
    # Nothing ran, so only what needs no workload is judged besides the failed gate.
    assert verdicts.pop("workload.workers_start") == "fail"
    static = set(invariants.static()) & set(scenario.load("order-pipeline").params)
    assert set(verdicts) == {"deploy.allowed_constructs", "deploy.applies",
                             "workload.fault_injected", *static}
    assert set(verdicts.values()) == {"pass"}
    assert said in report["runs"][0]["invariants"]["workload.workers_start"]["summary"]
    _assert_nothing_left(temp)


def _can(argv: list[str]) -> bool:
    return subprocess.run(argv, capture_output=True, check=False).returncode == 0


NETNS = _can(["unshare", "-n", "true"])
MOUNTNS = _can(["unshare", "-m", "true"])


@pytest.mark.skipif(not NETNS, reason="needs `unshare -n` (root) for a private port range")
def test_exhausted_ports_are_a_clear_error(tmp_path: Path) -> None:
    # In a private network namespace, every ephemeral port is really taken.
    temp, out = _dirs(tmp_path)
    script = (
        "import socket, sys\n"
        "from kit.cli import main\n"
        "held = []\n"
        "for port in (40000, 40001):\n"
        "    s = socket.socket(); s.bind(('127.0.0.1', port)); s.listen(); held.append(s)\n"
        f"sys.exit(main(['eval', 'order-pipeline', '--fault', 'none', '--out', '{out}']))\n")
    done = subprocess.run(
        ["unshare", "-n", "sh", "-c", "ip link set lo up && echo '40000 40001' > "
         "/proc/sys/net/ipv4/ip_local_port_range && exec \"$0\" -c \"$1\"",
         sys.executable, script],
        env=_env(temp), capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 3, done.stderr
    assert "no free loopback port" in done.stderr
    assert "Traceback" not in done.stderr
    _assert_nothing_left(temp)


@pytest.mark.skipif(not MOUNTNS, reason="needs `unshare -m` (root) for a small private tmpfs")
@pytest.mark.parametrize("full", ["work", "out"])
def test_a_full_disk_is_a_clear_error(tmp_path: Path, full: str) -> None:
    # A 64 KB tmpfs, private to the child: the sandbox (~40 MB of PostgreSQL) cannot fit in
    # it, and neither can a run's history and logs.
    disk = tmp_path / "disk"
    disk.mkdir()
    temp, out = _dirs(tmp_path)
    if full == "work":
        temp = disk
    else:
        out = disk / "runs"
    kit = " ".join([*KIT, "eval", "order-pipeline", "--fault", "none", "--out", str(out)])
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", f"mount -t tmpfs -o size=64k tmpfs {disk} && "
         f"{kit}; echo \"rc=$?\"; ls -A {temp}"],
        env=_env(temp), capture_output=True, text=True, timeout=300, cwd=ROOT)
    lines = done.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("rc="))
    rc_line, left = lines[at], lines[at + 1:]
    assert rc_line == "rc=3", done.stdout + done.stderr
    assert "No space left on device" in done.stderr
    assert "Traceback" not in done.stderr
    assert left == []  # listed inside the namespace, before its tmpfs vanished
    assert eventually(lambda: not living_under(temp), timeout=15), living_under(temp)


def _interrupt(child: subprocess.Popen[str], timeout: float) -> str:
    """Ctrl-C the kit; its remaining stderr. A kit that hangs is failed with its stacks."""
    child.send_signal(signal.SIGINT)
    try:
        rest = child.communicate(timeout=timeout)[1]
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGABRT)  # PYTHONFAULTHANDLER: every thread's stack
        pytest.fail(f"the kit did not stop within {timeout:.0f} s of Ctrl-C:\n"
                    + child.communicate()[1][-8000:])
    assert child.returncode == 130, rest
    return rest


STAGES = ["start", "sandbox", "gate", "init", "apply", "bind", "workload", "recover",
          "observe", "teardown", "check"]
# Through the CLI at these in `make test` (test_leaks interrupts each stage in-process).
QUICK_STAGES = ("start", "apply", "workload")


# Parallel-safe (both Ctrl-C tests): a port the kit listened on that another worker took at
# once is not held by us (`held_by_us`); a signal that lands after a short stage interrupts
# the second run.
@pytest.mark.parametrize("stage", [s if s in QUICK_STAGES else pytest.param(
    s, marks=pytest.mark.slow) for s in STAGES])
def test_ctrl_c_at_every_stage_leaves_nothing_and_no_verdict(tmp_path: Path,
                                                             stage: str) -> None:
    temp, out = _dirs(tmp_path)
    since = time.time()
    # Two runs: a Ctrl-C that lands just after a short stage of the first run (check takes
    # ~0.1 s) interrupts the second one instead, so the eval never completes.
    child = subprocess.Popen([*KIT, "-v", "eval", "order-pipeline", "--fault", "db_outage",
                              "--repeat", "2", "--out", str(out)],
                             env=_env(temp), stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert child.stderr is not None
    # `start`: the sandbox is starting (right after the reproduce line).
    marker = "reproduce:" if stage == "start" else f": stage {stage}"
    seen = []
    for line in child.stderr:
        seen.append(line)
        if marker in line:
            break
    else:
        pytest.fail(f"the run ended before stage {stage}: {''.join(seen)}")
    pids = tree(child.pid)
    ports = listening_ports(pids)
    rest = _interrupt(child, timeout=120)
    assert "Traceback" not in rest
    assert "interrupted" in rest
    for pid in pids:
        assert eventually(lambda pid=pid: not alive(pid), timeout=15), pid
    for port in ports:
        assert eventually(lambda port=port: not held_by_us(port, since), timeout=15), port
    _assert_nothing_left(temp)
    # No report claims a verdict: the eval report is absent, the interrupted run says why,
    # and a run that finished before the Ctrl-C is complete.
    assert not list(out.rglob("report.json"))
    results = [json.loads(path.read_text()) for path in out.rglob("result.json")]
    interrupted = [r for r in results
                   if r["outcome"] == "error" and "interrupted" in (r["error"] or "")]
    assert len(interrupted) == (0 if stage == "start" else 1), results
    assert all(r in interrupted or (r["outcome"] == "pass" and r["invariants"])
               for r in results), results


def test_ctrl_c_stops_a_parallel_validate_without_running_the_rest(tmp_path: Path) -> None:
    temp, out = _dirs(tmp_path)
    child = subprocess.Popen([*KIT, "-v", "validate", "order-pipeline", "--jobs", "2",
                              "--out", str(out)],
                             env=_env(temp), stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert child.stderr is not None
    for line in child.stderr:
        if ": stage workload" in line:
            break
    # The matrix has 20 runs; the two running stop as their next stage begins. A thread whose
    # run ended just as the signal came may have begun one more (interrupted at its start).
    rest = _interrupt(child, timeout=180)
    assert "Traceback" not in rest
    results = [json.loads(p.read_text()) for p in out.rglob("result.json")]
    assert len(results) <= 4, [r["error"] for r in results]
    assert any("interrupted" in (r["error"] or "") for r in results)
    _assert_nothing_left(temp)
