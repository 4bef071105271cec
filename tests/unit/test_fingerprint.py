"""The leak tests' tree fingerprint sees every write, even one that puts the bytes and the
modification time back as they were."""

from __future__ import annotations

import os
from pathlib import Path

from tests.integration.fingerprint import changes, fingerprint


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text("x = 1\n")
    (tmp_path / "link").symlink_to("pkg/mod.py")
    return tmp_path


def test_reading_changes_nothing(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    before = fingerprint(root)
    (root / "pkg" / "mod.py").read_bytes()
    assert changes(before, fingerprint(root)) == []


def test_a_rewrite_with_the_same_bytes_and_mtime_is_seen(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    path = root / "pkg" / "mod.py"
    info = path.stat()
    before = fingerprint(root)
    path.write_text("x = 1\n")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert path.read_text() == "x = 1\n" and path.stat().st_mtime_ns == info.st_mtime_ns
    assert changes(before, fingerprint(root)) == [f"changed {path}"]


def test_a_chmod_an_added_file_and_a_replaced_link_are_seen(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    before = fingerprint(root)
    (root / "pkg" / "mod.py").chmod(0o600)
    (root / "pkg" / "new.py").write_text("")
    (root / "link").unlink()
    (root / "link").symlink_to("/etc/passwd")
    assert changes(before, fingerprint(root)) == [
        f"added {root / 'pkg' / 'new.py'}", f"changed {root / 'link'}",
        f"changed {root / 'pkg' / 'mod.py'}"]


def test_bytecode_and_tool_caches_are_left_out(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    before = fingerprint(root)
    (root / "pkg" / "__pycache__").mkdir()
    (root / "pkg" / "__pycache__" / "mod.cpython-311.pyc").write_bytes(b"\0")
    assert changes(before, fingerprint(root)) == []
