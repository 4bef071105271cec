"""`make venv`'s install, as a fresh machine makes it: exactly the locked releases, no extra
(ray, gradio, playwright) in the base, and a moto at another release refused by name before
any sandbox starts (kit/toolchain/emulators.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kit.toolchain import emulators, lockfile

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
UV = Path(sys.executable).parent / "uv"
# a moto release the fixes are not written for (the one before: the fixes moved off it)
OTHER = "5.2.5"
EXTRAS = ("ray", "gradio", "playwright", "openenv", "pytest")


@pytest.fixture(scope="module")
def base_venv(tmp_path_factory) -> Path:
    """A venv synced from uv.lock the way the Makefile's base target does it."""
    venv = tmp_path_factory.mktemp("base") / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(venv)], check=True)
    env = {**os.environ, "UV_PROJECT_ENVIRONMENT": str(venv)}
    subprocess.run([str(UV), "sync", "--locked", "--inexact", "--quiet", "--link-mode", "copy",
                    "--python", str(venv / "bin" / "python")], cwd=ROOT, env=env, check=True)
    return venv


def test_the_base_install_is_the_lock_and_nothing_more(base_venv) -> None:
    python = str(base_venv / "bin" / "python")
    assert lockfile.moved(python) == []
    found = lockfile.installed(python)
    assert found["moto"] == emulators.WRITTEN_FOR["moto"]
    assert not [name for name in EXTRAS if name in found]


def test_a_moto_the_fixes_were_not_written_for_is_refused_before_any_sandbox(base_venv) -> None:
    python = str(base_venv / "bin" / "python")
    subprocess.run([str(UV), "pip", "install", "--quiet", "--python", python,
                    f"moto[server]=={OTHER}"], check=True)
    kit = str(base_venv / "bin" / "kit")
    doctor = subprocess.run([kit, "doctor"], capture_output=True, text=True, check=False)
    assert doctor.returncode != 0
    assert f"moto {OTHER} is installed" in doctor.stdout + doctor.stderr
    graded = subprocess.run([kit, "eval", "order-pipeline", "--fault", "none"],
                            capture_output=True, text=True, check=False, timeout=120)
    out = graded.stdout + graded.stderr
    assert graded.returncode == 3, out
    assert f"written for moto {emulators.WRITTEN_FOR['moto']}" in out
    assert "reproduce:" not in out  # refused before the runs: nothing started
