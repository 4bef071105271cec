"""The cached PostgreSQL template is published in one step: parallel test workers and
validate jobs that build it at the same time keep one whole copy."""

from __future__ import annotations

import os
import shutil
from multiprocessing import Pool
from pathlib import Path

from kit.sandbox.postgres import publish


def _built(root: Path, name: str) -> Path:
    data = root / name / "data"
    (data / "base").mkdir(parents=True)
    (data / "PG_VERSION").write_text(f"16 from {name}\n")
    return data


def test_publish_moves_a_built_template_into_place(tmp_path: Path) -> None:
    target = tmp_path / "cache" / "16"
    target.parent.mkdir()
    publish(_built(tmp_path, "a"), target)
    assert (target / "PG_VERSION").read_text() == "16 from a\n"
    assert sorted(os.listdir(target.parent)) == ["16"]  # no staging dir left beside it


def test_a_template_published_first_is_kept_whole(tmp_path: Path) -> None:
    # The race the old check-then-move lost: another process published between the check
    # and the move, and shutil.move put this one inside it (16/data).
    target = tmp_path / "cache" / "16"
    target.parent.mkdir()
    publish(_built(tmp_path, "first"), target)
    publish(_built(tmp_path, "second"), target)
    assert sorted(os.listdir(target)) == ["PG_VERSION", "base"]
    assert (target / "PG_VERSION").read_text() == "16 from first\n"
    assert sorted(os.listdir(target.parent)) == ["16"]


def _publish_one(args: tuple[str, str]) -> None:
    root, name = args
    publish(_built(Path(root), name), Path(root, "cache", "16"))


def test_processes_publishing_at_once_leave_one_whole_template(tmp_path: Path) -> None:
    (tmp_path / "cache").mkdir()
    with Pool(4) as pool:
        pool.map(_publish_one, [(str(tmp_path), f"p{n}") for n in range(8)])
    target = tmp_path / "cache" / "16"
    assert sorted(os.listdir(target)) == ["PG_VERSION", "base"]
    assert (target / "PG_VERSION").read_text().startswith("16 from p")
    assert sorted(os.listdir(target.parent)) == ["16"]
    shutil.rmtree(tmp_path / "cache")
