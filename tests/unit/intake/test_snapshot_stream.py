"""The intake's reader of the walker's stream (kit/intake/snapshot.py `_extract`): the
stream is data the kit does not trust; whatever it holds, nothing is made outside the
snapshot, no name is taken twice, and only directories, regular files and links are made."""

from __future__ import annotations

import io
import os
import tarfile
from pathlib import Path

from kit.intake.snapshot import _extract


def _stream(*members: tuple[str, bytes | str | None, bytes]) -> io.BytesIO:
    """A tar of (name, type, content-or-link-target) members."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as out:
        for name, kind, body in members:
            info = tarfile.TarInfo(name)
            info.type = kind
            if kind == tarfile.SYMTYPE:
                info.linkname = body.decode()
                out.addfile(info)
            elif kind == tarfile.REGTYPE:
                info.size, info.mode = len(body), 0o755 if name.endswith(".sh") else 0o600
                out.addfile(info, io.BytesIO(body))
            else:
                out.addfile(info)
    buffer.seek(0)
    return buffer


def _tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    tree.mkdir()
    return tree


def test_files_directories_and_links_are_made_as_they_are_streamed(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    stream = _stream(("mod", tarfile.DIRTYPE, b""), ("mod/main.tf", tarfile.REGTYPE, b"x\n"),
                     ("run.sh", tarfile.REGTYPE, b"#!/bin/sh\n"),
                     ("alias", tarfile.SYMTYPE, b"mod"), ("out", tarfile.SYMTYPE, b"/etc/shadow"))
    assert _extract(stream, tree) is None
    assert (tree / "mod" / "main.tf").read_bytes() == b"x\n"
    assert (tree / "mod" / "main.tf").stat().st_mode & 0o777 == 0o644  # never the stream's
    assert (tree / "run.sh").stat().st_mode & 0o777 == 0o755
    assert os.readlink(tree / "alias") == "mod" and os.readlink(tree / "out") == "/etc/shadow"


def test_a_name_that_leaves_the_tree_or_goes_through_a_link_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    for members in ([("../escape.tf", tarfile.REGTYPE, b"x")],
                    [("/abs.tf", tarfile.REGTYPE, b"x")],
                    [("out", tarfile.SYMTYPE, str(outside).encode()),
                     ("out/planted.tf", tarfile.REGTYPE, b"x")],
                    [(".git/config", tarfile.REGTYPE, b"x")]):
        tree = tmp_path / f"t{len(list(tmp_path.iterdir()))}"
        tree.mkdir()
        assert _extract(_stream(*members), tree) is not None, members
        assert list(outside.iterdir()) == []


def test_a_special_member_or_a_name_taken_twice_is_refused(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    assert "special" in _extract(_stream(("p", tarfile.FIFOTYPE, b"")), tree)
    assert not (tree / "p").exists()
    twice = _stream(("a.tf", tarfile.REGTYPE, b"one"), ("a.tf", tarfile.REGTYPE, b"two"))
    assert "twice" in _extract(twice, tree)
    assert (tree / "a.tf").read_bytes() == b"one"


def test_an_empty_stream_makes_nothing(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    assert _extract(io.BytesIO(b""), tree) is None
    assert list(tree.iterdir()) == []
