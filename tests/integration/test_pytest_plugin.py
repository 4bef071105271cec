"""The pytest plugin against real services: examples/pytest (a team's test) run in a pytest
of its own passes on the golden, with the seed and the rerun command in its header; the
same test fails on a one-defect variant; and a session that fails and is then interrupted
leaves no process and no temp dir behind.

Each session runs with a private TMPDIR (where every sandbox makes its temp dirs) and is
watched for its descendants while it runs: the leak checks look at those only, so these
tests run beside others (not `serial`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

from kit import scenario as scenarios
from kit import variants
from tests.conftest import ROOT
from tests.integration.procs import alive, living_under

EXAMPLE = ROOT / "examples" / "pytest"
SAMPLE_SECONDS = 0.5  # how often a session's descendants are listed while it runs


@dataclass
class Session:
    """One pytest session's exit code, output, and the processes seen under it."""

    code: int
    output: str
    seen: set[tuple[int, float]]  # (pid, create time) of every descendant seen

    def survivors(self) -> list[int]:
        """The descendants still alive (the same process: its create time matches)."""
        left = []
        for pid, created in self.seen:
            try:
                if alive(pid) and psutil.Process(pid).create_time() == created:
                    left.append(pid)
            except psutil.NoSuchProcess:
                continue
        return left


@pytest.fixture
def private_tmp() -> Iterator[Path]:
    """A TMPDIR of the session's own, traversable by the workload's and postgres' users."""
    path = Path(tempfile.mkdtemp(prefix="kit-plugin-test-"))
    path.chmod(0o711)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def run_pytest(args: list[str], tmp: Path, private: Path, timeout: float = 600) -> Session:
    """Run pytest on `args` from the repository, with TMPDIR `private`, listing its
    descendants every SAMPLE_SECONDS until it exits."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("KIT_SEED", "PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER")}
    env["TMPDIR"] = str(private)
    log = tmp / "session.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pytest", *args, "-p", "no:cacheprovider",
             f"--basetemp={tmp / 'basetemp'}", "-o", "addopts="],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        seen: set[tuple[int, float]] = set()
        try:
            while True:
                seen |= _descendants(proc.pid)
                try:
                    proc.wait(timeout=SAMPLE_SECONDS)
                    break
                except subprocess.TimeoutExpired:
                    if timeout <= 0:
                        raise
                    timeout -= SAMPLE_SECONDS
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return Session(proc.returncode, log.read_text(), seen)


def _descendants(pid: int) -> set[tuple[int, float]]:
    """(pid, create time) of each live descendant of `pid`."""
    found = set()
    try:
        children = psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return set()
    for child in children:
        try:
            found.add((child.pid, child.create_time()))
        except psutil.NoSuchProcess:
            continue
    return found


def assert_nothing_left(session: Session, private: Path) -> None:
    """No descendant of the session alive, nothing under its TMPDIR."""
    assert session.seen, "no process was seen under the session: the watch saw nothing"
    assert not session.survivors(), f"left running: {session.survivors()}"
    assert not living_under(private), living_under(private)
    assert not list(private.iterdir()), f"left in TMPDIR: {list(private.iterdir())}"


@pytest.mark.slow
def test_the_example_fails_on_a_solution_that_loses_orders_in_an_outage(
        tmp_path: Path, private_tmp: Path) -> None:
    scenario = scenarios.load("order-pipeline")
    # The variant kit validate kills with delivery.no_loss under db_outage.
    variant = variants.load(scenario, ROOT / "variants" / scenario.name / "swallow-db-errors")
    solution = variants.materialize(scenario, variant, tmp_path / "solution")
    session = run_pytest([str(EXAMPLE.relative_to(ROOT)), "--kit-seed", "1234",
                          "--kit-solution", str(solution)], tmp_path, private_tmp)
    assert session.code == 1, session.output
    assert "1 failed" in session.output
    assert "valid messages lost" in session.output, session.output
    assert_nothing_left(session, private_tmp)


# Run after the example, in its session: a failing test, then Ctrl-C with the sandbox up.
INTERRUPTED = '''
import os, signal

def test_fails(kit_sandbox):
    raise AssertionError("a failing test: the sandbox must outlive it, then stop")

def test_interrupted(kit_sandbox):
    os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, with the sandbox's services running
'''


def test_the_example_passes_with_the_seed_in_the_header_and_nothing_is_left_behind(
        tmp_path: Path, private_tmp: Path) -> None:
    # One session, one sandbox: the example, then a failing test, then Ctrl-C.
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_interrupted.py").write_text(INTERRUPTED)
    session = run_pytest([str(EXAMPLE.relative_to(ROOT)), str(tests), "--kit-seed", "1234"],
                         tmp_path, private_tmp)
    assert session.code == pytest.ExitCode.INTERRUPTED, session.output
    assert "examples/pytest/test_order_pipeline.py ." in session.output, session.output
    assert "1 failed, 1 passed" in session.output and "KeyboardInterrupt" in session.output
    assert ("kit: seed 1234 (from --kit-seed); rerun with: pytest examples/pytest "
            f"{tests} -p no:cacheprovider --basetemp={tmp_path / 'basetemp'} -o addopts= "
            "--kit-seed=1234\n") in session.output, session.output
    assert_nothing_left(session, private_tmp)
