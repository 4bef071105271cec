"""The environment's in-process API (kit/rl/session.py) and its workspace confinement
(kit/rl/workspace.py): no path leaves a session's workspace, sessions never share one."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from kit.rl.session import KitSession
from kit.rl.workspace import Workspace, WorkspaceRefusal

REPAIR = "order-pipeline.repair.2b32c12d56"  # rds-public


@pytest.fixture
def ws(tmp_path):
    outside = tmp_path / "host-secret.txt"
    outside.write_text("secret")
    root = tmp_path / "ws"
    space = Workspace(root)
    os.symlink(outside, root / "link-out")
    (root / "dir").mkdir()
    os.symlink(tmp_path, root / "dir-out")
    return space


@pytest.mark.parametrize("path, why", [
    ("/etc/passwd", "absolute"), ("../host-secret.txt", "`..`"),
    ("a/../../host-secret.txt", "`..`"), ("link-out", "symbolic link"),
    ("dir-out/host-secret.txt", "symbolic link"), ("", "non-empty"), (".", "itself"),
])
def test_paths_out_of_the_workspace_are_refused_for_every_file_action(ws, path, why):
    for act in (lambda: ws.read(path), lambda: ws.write(path, "x"), lambda: ws.delete(path)):
        with pytest.raises(WorkspaceRefusal, match=why):
            act()
    assert (ws.root.parent / "host-secret.txt").read_text() == "secret"


def test_files_inside_are_written_read_listed_and_links_never_followed(ws):
    assert ws.write("worker/__main__.py", "print(1)\n").startswith("wrote")
    assert ws.read("./worker/__main__.py") == "print(1)\n"
    assert ws.files() == ["dir-out", "link-out", "worker/__main__.py"]
    assert "secret" not in str(ws.snapshot())


def test_a_session_starts_from_the_tasks_files_and_refuses_with_evidence(tmp_path):
    session = KitSession(base=tmp_path)
    first = session.reset(REPAIR, seed=3)
    assert first["task_id"] == REPAIR and "rds.tf" in first["files"]
    refused = session.step("read", "../../etc/passwd")
    assert refused["refused"] and not refused["ok"] and "`..`" in refused["output"]
    assert session.step("write", "/tmp/kit-escape", "x")["refused"]
    assert not os.path.exists("/tmp/kit-escape")
    assert session.step("write", "notes.md", "hi")["ok"]
    assert "notes.md" in session.step("list")["output"]
    assert "unknown tool" in session.step("rm -rf")["output"]
    session.close()


@pytest.mark.parametrize("path, content, why", [
    ("notes.md/inner.md", "x", "not a directory"), ("x" * 300, "x", "File name too long"),
    ("text.md", "\udc80", "UnicodeEncodeError")])
def test_a_failed_action_says_why_by_the_agents_path_never_the_hosts(tmp_path, path, content,
                                                                      why):
    session = KitSession(base=tmp_path)
    session.reset(REPAIR, seed=3)
    session.step("write", "notes.md", "hi")
    failed = session.step("write", path, content)
    assert not failed["ok"] and why in failed["output"]
    assert str(tmp_path) not in failed["output"] and "kit-rl-" not in failed["output"]
    session.close()


def test_two_sessions_do_not_see_each_others_files(tmp_path):
    one, two = KitSession(base=tmp_path), KitSession(base=tmp_path)
    one.reset(REPAIR)
    two.reset(REPAIR)
    one.step("write", "mine.txt", "one's")
    assert "mine.txt" not in two.step("list")["output"]
    assert "no such file" in two.step("read", "mine.txt")["output"]
    assert one.workspace.root != two.workspace.root
    one.close()
    two.close()


def test_a_diagnose_submit_grades_and_ends_the_episode(tmp_path):
    session = KitSession(base=tmp_path)
    session.reset("order-pipeline.diagnose.2b32c12d56")
    session.step("write", "DIAGNOSIS.json", '{"file": "rds.tf", "invariant": "rds.hardening"}')
    done = session.step("submit")
    assert done["reward"] == 1.0 and session.done
    assert "over" in session.step("list")["output"]
    session.close()


def test_the_base_install_needs_no_openenv():
    """The CLI (tasks, serve's parser) and the in-process session never import OpenEnv:
    it is the rl extra's (it pulls gradio and more)."""
    code = ("import sys, kit.cli, kit.rl.session; kit.cli.build_parser(); "
            "print('openenv' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=300)
    assert done.stdout.strip() == "False"
