"""The lock and the emulator releases the kit's fixes are written for agree, and a moto at
another release is refused by name (kit/toolchain/emulators.py, kit/toolchain/lockfile.py)."""

from __future__ import annotations

import pytest

from kit.errors import ToolchainError
from kit.toolchain import emulators, lockfile


def test_the_lock_holds_each_emulator_at_the_release_its_fixes_are_written_for() -> None:
    held = lockfile.locked()
    for name, version in emulators.WRITTEN_FOR.items():
        assert held[name] == {version}


def test_the_lock_holds_every_base_dependency() -> None:
    held = lockfile.locked()
    for name in ("boto3", "moto", "pydantic", "python-hcl2", "ray", "openenv", "playwright"):
        assert name in held


def test_another_moto_release_is_one_line_naming_both_and_the_fix(monkeypatch) -> None:
    monkeypatch.setattr(emulators, "installed", lambda name: "5.2.6")
    (line,) = emulators.drift()
    assert "moto 5.2.6 is installed" in line
    assert f"written for moto {emulators.WRITTEN_FOR['moto']}" in line
    assert "make venv" in line
    assert emulators.found() is None
    with pytest.raises(ToolchainError, match="moto 5.2.6"):
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
