"""The lock and the emulator releases the kit's fixes are written for agree, and a moto at
another release is refused by name (kit/toolchain/emulators.py, kit/toolchain/lockfile.py)."""

from __future__ import annotations

import re

import pytest

from kit.errors import ToolchainError
from kit.toolchain import emulators, localstack_install, lockfile, runtime


def test_the_lock_holds_each_emulator_at_the_release_its_fixes_are_written_for() -> None:
    held = lockfile.locked()
    for name, version in emulators.WRITTEN_FOR.items():
        assert held[name] == {version}


def test_the_lock_holds_every_base_dependency() -> None:
    held = lockfile.locked()
    for name in ("boto3", "moto", "pydantic", "python-hcl2", "ray", "openenv", "playwright"):
        assert name in held


def test_another_moto_release_is_one_line_naming_both_and_the_fix(monkeypatch) -> None:
    monkeypatch.setattr(emulators, "installed", lambda name: "5.2.5")
    (line,) = emulators.drift()
    assert "moto 5.2.5 is installed" in line
    assert f"written for moto {emulators.WRITTEN_FOR['moto']}" in line
    assert "make venv" in line
    assert emulators.found() is None
    with pytest.raises(ToolchainError, match="moto 5.2.5"):
        emulators.require()


def test_the_expected_release_passes(monkeypatch) -> None:
    monkeypatch.setattr(emulators, "installed", lambda name: emulators.WRITTEN_FOR[name])
    assert emulators.drift() == []
    emulators.require()


def test_moved_names_a_release_off_the_lock(monkeypatch, tmp_path) -> None:
    lock = tmp_path / "uv.lock"
    lock.write_text('version = 1\n[[package]]\nname = "Moto"\nversion = "5.2.5"\n'
                    '[[package]]\nname = "boto3"\nversion = "1.0"\n')
    monkeypatch.setattr(lockfile, "installed",
                        lambda python: {"moto": "5.2.6", "boto3": "1.0", "extra": "2", "pip": "9"})
    assert lockfile.moved("python", lock) == ["extra 2: not in the lock",
                                              "moto: locked 5.2.5, resolved 5.2.6"]


def test_the_worker_runtime_lock_is_the_kit_lock_s_releases() -> None:
    held = lockfile.locked()
    pins = lockfile.pinned(runtime.LOCK)
    assert {"boto3", "botocore", "psycopg", "psycopg-binary", "s3transfer"} <= set(pins)
    off = {name: version for name, version in pins.items() if version not in held.get(name, ())}
    assert off == {}  # `make lock` writes it from uv.lock: workers run the kit's releases
    assert runtime.wanted() == {"boto3": pins["boto3"], "psycopg": pins["psycopg"]}


def test_localstack_s_lock_pins_its_release_and_every_pin_is_hashed() -> None:
    assert lockfile.pinned(localstack_install.LOCK)["localstack-core"] == localstack_install.VERSION
    for lock in (runtime.LOCK, localstack_install.LOCK):
        pins = [block for block in re.split(r"\n(?=\S)", lock.read_text()) if "==" in block]
        assert len(pins) == len(lockfile.pinned(lock))
        assert all("--hash=sha256:" in block for block in pins)  # pip --require-hashes


def test_pinned_reads_extras_and_markers(tmp_path) -> None:
    lock = tmp_path / "r.txt"
    lock.write_text("# via make lock\nPsycopg[binary]==3.3.9 \\\n    --hash=sha256:ab\n"
                    "tzdata==2026.6 ; sys_platform == 'win32' \\\n    --hash=sha256:cd\n")
    assert lockfile.pinned(lock) == {"psycopg": "3.3.9", "tzdata": "2026.6"}
    other = tmp_path / "s.txt"
    other.write_text(lock.read_text().replace("3.3.9", "3.3.10"))
    assert lockfile.digest(lock) != lockfile.digest(other)
