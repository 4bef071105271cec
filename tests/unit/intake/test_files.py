"""Kit files written into a run's copy of a solution, never through a link the solution put
at the name (issue 44, breach 2): a dangling link, an absolute link, a link on the way, each
at the names the kit writes (its provider and backend overrides, `.kit-lambda/`). Each is
the solution's fault (`SolutionError`, verdict `fail`) naming the path, never an OSError
(the kit's `error`), and nothing is written where the link points."""

from __future__ import annotations

import json
import os
import threading
import zipfile
from pathlib import Path

import pytest

from kit.deploy.hcl import parse
from kit.deploy.override import (
    BACKEND_FILE,
    PROVIDER_FILE,
    write_backend_override,
    write_provider_config,
)
from kit.errors import SolutionError
from kit.intake import files
from kit.lambdas import package

URL = "http://127.0.0.1:4566"


def _links(tmp_path: Path) -> dict[str, tuple[str, Path]]:
    """Link targets a solution could use, with what each would write when followed."""
    outside = tmp_path / "host"
    outside.mkdir()
    (outside / "kept.tf").write_text("# the host's\n")
    return {"dangling": ("no-such-dir/p.tf", tmp_path / "sol" / "no-such-dir" / "p.tf"),
            "absolute": (str(outside / "kept.tf"), outside / "kept.tf"),
            "climbing": ("../host/new.tf", outside / "new.tf")}


@pytest.mark.parametrize("kind", ["dangling", "absolute", "climbing"])
@pytest.mark.parametrize("name", [PROVIDER_FILE, BACKEND_FILE])
def test_a_link_at_a_kit_file_name_is_the_solutions_fault(tmp_path: Path, kind: str,
                                                          name: str) -> None:
    target, followed = _links(tmp_path)[kind]
    sol = tmp_path / "sol"
    sol.mkdir()
    (sol / "main.tf").write_text('terraform {\n  backend "s3" {}\n}\n')
    before = followed.read_text() if followed.exists() else None
    (sol / name).symlink_to(target)
    write = (lambda: write_provider_config(sol, parse(sol), URL)) if name == PROVIDER_FILE \
        else (lambda: write_backend_override(sol, parse(sol)))
    with pytest.raises(SolutionError, match=f"{name}: this name is reserved .* symbolic link"):
        write()
    assert (followed.read_text() if followed.exists() else None) == before
    assert os.readlink(sol / name) == target


def test_a_link_on_the_way_to_a_kit_file_is_the_solutions_fault(tmp_path: Path) -> None:
    outside = tmp_path / "host"
    outside.mkdir()
    sol = tmp_path / "sol"
    sol.mkdir()
    (sol / "infra").symlink_to(outside)
    with pytest.raises(files.Taken, match="infra: this name is reserved"):
        files.create(sol, "infra/zz_kit_provider.tf", "x")
    assert list(outside.iterdir()) == []


def test_a_new_file_gets_the_mode_asked_for_and_parents(tmp_path: Path) -> None:
    os.umask(0o077)
    try:
        path = files.create(tmp_path, "a/b/run.sh", "#!/bin/sh\n", mode=0o755)
    finally:
        os.umask(0o022)
    assert path.read_text() == "#!/bin/sh\n" and path.stat().st_mode & 0o777 == 0o755
    with pytest.raises(files.Taken, match="a/b/run.sh: .* a file there"):
        files.create(tmp_path, "a/b/run.sh", "again")


def test_reading_follows_no_link_and_waits_on_no_fifo(tmp_path: Path) -> None:
    (tmp_path / "real").write_text("data")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dir").symlink_to(tmp_path)
    (tmp_path / "sub").mkdir()
    assert files.read_regular(tmp_path, "sub", 10) is None  # a directory is no file
    assert files.read_regular(tmp_path, "real", 10) == b"data"
    assert files.read_regular(tmp_path, "real", 3) is None  # over the limit
    done: list[object] = []
    reader = threading.Thread(target=lambda: done.extend(
        files.read_regular(tmp_path, name, 10) for name in ("link", "fifo", "dir/real")))
    reader.start()
    reader.join(5)
    assert done == [None, None, None]


def _workspace(tmp_path: Path, name: str = "consumer") -> Path:
    ws = tmp_path / "ws"
    (ws / "build").mkdir(parents=True)
    with zipfile.ZipFile(ws / "build" / "c.zip", "w") as zf:
        zf.writestr("handler.py", "x = 1\n")
    state = {"resources": [{"mode": "managed", "type": "aws_lambda_function", "instances": [
        {"attributes": {"function_name": name, "filename": "build/c.zip"}}]}]}
    (ws / "terraform.tfstate").write_text(json.dumps(state))
    return ws


def test_a_link_at_kit_lambda_is_the_solutions_fault(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    host = tmp_path / "host"
    host.mkdir()
    (ws / package.UNPACKED).symlink_to(host)
    with pytest.raises(SolutionError, match=r"\.kit-lambda: this name is reserved"):
        package.code_dir(ws, None, "consumer")
    assert list(host.iterdir()) == []
    (ws / package.UNPACKED).unlink()
    (ws / package.UNPACKED).mkdir()
    (ws / package.UNPACKED / "consumer").symlink_to("/nonexistent")
    with pytest.raises(SolutionError, match="consumer: this name is reserved"):
        package.code_dir(ws, None, "consumer")


def test_unpacking_again_replaces_the_earlier_copy(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    inside = package.code_dir(ws, None, "consumer")
    (ws / inside / "stale.py").write_text("")
    assert package.code_dir(ws, None, "consumer") == inside
    assert sorted(p.name for p in (ws / inside).iterdir()) == ["handler.py"]


@pytest.mark.parametrize("name", ["../../escape", "a/b", ".."])
def test_a_function_name_that_is_no_directory_name_is_refused(tmp_path: Path,
                                                              name: str) -> None:
    ws = _workspace(tmp_path, name)
    with pytest.raises(SolutionError, match="not a Lambda function name"):
        package.code_dir(ws, None, name)


def test_a_root_module_that_is_a_link_in_the_copy_is_the_solutions_fault(
        tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "infra").symlink_to("real")
    with pytest.raises(files.Taken, match="infra: this name is reserved .* symbolic link"):
        files.create(tmp_path / "infra", "zz_kit_provider.tf", "x")
    assert list((tmp_path / "real").iterdir()) == []


def test_replacing_and_removing_follow_no_link_and_touch_only_regular_files(
        tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("host")
    root = tmp_path / "root"
    root.mkdir()
    assert files.replace(root, "a/b.txt", "one").read_text() == "one"
    assert files.replace(root, "a/b.txt", "2").read_text() == "2"  # truncated, not appended
    (root / "out").symlink_to(outside)
    (root / "dir-out").symlink_to(tmp_path)
    os.mkfifo(root / "pipe")
    for name in ("out", "dir-out/outside.txt", "pipe", "a"):
        with pytest.raises(files.Taken):
            files.replace(root, name, "x")
        assert not files.remove(root, name)
    assert outside.read_text() == "host"
    assert files.remove(root, "a/b.txt") and not (root / "a" / "b.txt").exists()
    assert not files.remove(root, "a/b.txt")
