"""The intake's snapshot (kit/intake/snapshot.py) made by its real walker, in the real
sandbox as the deploy user: what it takes, what it leaves out, what it refuses, and that
the kit's own process opens nothing of the original to make it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from kit.intake import snapshot
from kit.sandbox import identity
from tests.integration.conftest import traversable_tmp

pytestmark = pytest.mark.integration
tmp_path = traversable_tmp("snapshot-")
OPENED: list[str] | None = None


def _audit(event: str, args: tuple) -> None:
    if OPENED is not None and event == "open" and isinstance(args[0], str | bytes):
        OPENED.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)


def _solution(top: Path) -> Path:
    root = top / "solution"
    (root / "mod").mkdir(parents=True)
    (root / "main.tf").write_text('module "m" { source = "./alias" }\n')
    (root / "mod" / "main.tf").write_text("# the module\n")
    (root / "run.sh").write_text("#!/bin/sh\n")
    (root / "run.sh").chmod(0o755)
    (root / "alias").symlink_to("mod")
    (root / "leak").symlink_to("/etc/shadow")
    for left in (".git/config", ".terraform/modules/modules.json", "mod/__pycache__/x.pyc"):
        (root / left).parent.mkdir(parents=True, exist_ok=True)
        (root / left).write_text("[core]\n\tfsmonitor = touch /tmp/ran\n")
    (root / ".kit" / "scenarios").mkdir(parents=True)
    return root


def test_the_snapshot_holds_the_tree_links_as_links_and_leaves_out_what_is_never_read(
        tmp_path: Path) -> None:
    global OPENED
    source = _solution(tmp_path)
    OPENED = opened = []
    try:
        with snapshot.taken(source) as tree:
            OPENED = None
            found = sorted(str(p.relative_to(tree)) for p in tree.rglob("*"))
            assert found == [".kit", ".kit/scenarios", "alias", "leak", "main.tf", "mod",
                             "mod/main.tf", "run.sh"]
            assert (tree / "mod" / "main.tf").read_text() == "# the module\n"
            assert os.readlink(tree / "alias") == "mod"
            assert os.readlink(tree / "leak") == "/etc/shadow"  # a link, never its content
            assert (tree / "run.sh").stat().st_mode & 0o777 == 0o755
            assert {p.lstat().st_uid for p in tree.rglob("*")} == {os.geteuid()}
        assert not tree.exists()  # removed with its context
    finally:
        OPENED = None
    assert [p for p in opened if p.startswith(str(tmp_path))] == []  # the walker read it


def test_a_special_file_an_unreadable_file_and_a_tree_past_its_bounds_are_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = _solution(tmp_path)
    os.mkfifo(source / "mod" / "pipe")
    _refused(source, r"mod/pipe: not taken: a special file")
    (source / "mod" / "pipe").unlink()
    if identity.can_switch():  # the walker is the deploy user: a root-only file is not its
        (source / "secret.tf").write_text("x")
        (source / "secret.tf").chmod(0o600)
        _refused(source, r"secret.tf: not taken: .* may not read")
        (source / "secret.tf").unlink()
    monkeypatch.setattr(snapshot, "MAX_ENTRIES", 3)
    _refused(source, r"more than 3 entries")


def _refused(source: Path, match: str) -> None:
    with pytest.raises(snapshot.Refused, match=match), snapshot.taken(source):
        pass
