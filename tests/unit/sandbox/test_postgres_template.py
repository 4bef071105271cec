"""The cached PostgreSQL template is published in one step: parallel test workers and
validate jobs that build it at the same time keep one whole copy."""

from __future__ import annotations

import multiprocessing
import os
import shutil
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


def _publish_one(root: str, name: str) -> None:
    publish(_built(Path(root), name), Path(root, "cache", "16"))


def test_processes_publishing_at_once_leave_one_whole_template(tmp_path: Path) -> None:
    # Plain processes, spawned: a fork of this (threaded) pytest worker could inherit a held
    # lock, and a Pool's terminate could kill a worker holding its queue's (both hung here).
    (tmp_path / "cache").mkdir()
    spawn = multiprocessing.get_context("spawn")
    procs = [spawn.Process(target=_publish_one, args=(str(tmp_path), f"p{n}"))
             for n in range(8)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(120)
    assert [proc.exitcode for proc in procs] == [0] * 8
    target = tmp_path / "cache" / "16"
    assert sorted(os.listdir(target)) == ["PG_VERSION", "base"]
    assert (target / "PG_VERSION").read_text().startswith("16 from p")
    assert sorted(os.listdir(target.parent)) == ["16"]
    shutil.rmtree(tmp_path / "cache")
