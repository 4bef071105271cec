from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kit import cli, scenario
from kit.cli import setup as cli_setup
from tests.conftest import ROOT


@pytest.mark.parametrize("argv, message", [
    (["eval", "nosuch"], f"unknown scenario 'nosuch'; known: {', '.join(scenario.known())}"),
    (["eval", "order-pipeline", "--solution", "/nonexistent"], "/nonexistent does not exist"),
    (["eval", "order-pipeline", "--fault", "meteor"], "unknown fault 'meteor'"),
    (["validate", "order-pipeline", "--only", "golden", "--only", "nosuch"],
     "unknown row 'nosuch' for order-pipeline; known: golden, "),
    (["drill", "order-pipeline"], "order-pipeline is a queue scenario, not a drill"),
    (["drill", "rds-recovery", "--fault", "meteor"], "unknown fault 'meteor'"),
])
def test_bad_input_is_a_clear_error_without_traceback(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == cli.EXIT_USAGE
    err = " ".join(capsys.readouterr().err.split())
    assert message in err
    assert "Traceback" not in err


def test_empty_solution_directory_is_refused(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["eval", "order-pipeline", "--solution", str(tmp_path)]) == cli.EXIT_USAGE
    assert "holds no *.tf" in " ".join(capsys.readouterr().err.split())


def test_list_names_the_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list"]) == cli.EXIT_OK
    assert "order-pipeline" in capsys.readouterr().out


def test_require_confinement_refuses_to_grade_what_it_cannot_confine(tmp_path: Path) -> None:
    # A real missing piece: no worker runtime where the kit looks for it.
    done = subprocess.run(
        [sys.executable, "-m", "kit.cli", "eval", "order-pipeline", "--require-confinement",
         "--out", str(tmp_path / "runs")],
        env={**os.environ, "KIT_WORKER_RUNTIME": str(tmp_path / "absent")},
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    err = " ".join(done.stderr.split())
    assert done.returncode == cli.EXIT_USAGE, err
    assert "nothing was graded" in err
    assert f"the worker runtime is not installed in {tmp_path / 'absent'}: run `kit setup`" in err
    assert "Traceback" not in err
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("argv, message", [
    (["eval", "order-pipeline", "--emulator", "localstack"],
     "--emulator localstack: LocalStack is not installed; run `kit setup --localstack"),
    (["eval", "order-pipeline", "--cross-check"],
     "--cross-check: LocalStack is not installed; run `kit setup --localstack"),
    (["validate", "order-pipeline", "--emulator", "localstack"],
     "--emulator localstack: LocalStack is not installed"),
    (["eval", "order-pipeline", "--emulator", "moto", "--emulator-url", "http://x:4566"],
     "--emulator-url is the address of a running LocalStack: use it with --emulator localstack"),
    (["validate", "order-pipeline", "--emulator-url", "http://x:4566", "--jobs", "2"],
     "--emulator-url with --jobs above 1"),
])
def test_emulator_flags_are_checked_before_anything_starts(
        argv: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KIT_CACHE", str(tmp_path))  # no LocalStack installed there
    assert cli.main([*argv, "--out", str(tmp_path / "runs")]) == cli.EXIT_USAGE
    err = " ".join(capsys.readouterr().err.split())
    assert message in err
    assert "Traceback" not in err
    assert not (tmp_path / "runs").exists()


def test_doctor_lists_localstack_as_optional(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from kit.toolchain import localstack_install

    monkeypatch.setenv("KIT_CACHE", str(tmp_path))
    pieces = cli_setup.optional_pieces()
    assert not pieces[0].ok  # pieces[1] is chromium (tests/unit/toolchain/test_chromium.py)
    assert pieces[0].fix == localstack_install.FIX
