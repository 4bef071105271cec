"""A hostile solution's `.git/` against the kit's reading of it (issue 44, breach 1): real
git repositories built here whose config names commands (core.fsmonitor, a smudge filter,
hooks) that write a canary file. A control first shows that git itself runs them on this
machine; then `baseline.source` (every `kit eval`) and `baseline.checkout` (`--baseline
<ref>`) read the repository and never do."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from kit.evaluate import baseline
from kit.intake import git


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c",
                           "user.email=t@t", *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def _repo(tmp: Path) -> tuple[Path, str, str]:
    """A repository of two commits (infra/main.tf changes, a script kept 755, a link kept
    as a link): (top, first commit, second commit)."""
    repo = tmp / "repo"
    (repo / "infra").mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    (repo / "infra" / "main.tf").write_text("# base $Format:%H$\n")
    (repo / "infra" / "run.sh").write_text("#!/bin/sh\n")
    (repo / "infra" / "run.sh").chmod(0o755)
    (repo / "infra" / "alias.tf").symlink_to("main.tf")
    # Attributes a checkout or `git archive` would act on: a filter and export-subst.
    (repo / ".gitattributes").write_text("*.tf filter=evil export-subst\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    first = _git(repo, "rev-parse", "HEAD")
    (repo / "infra" / "main.tf").write_text("# head\n")
    _git(repo, "commit", "-qam", "head")
    return repo, first, _git(repo, "rev-parse", "HEAD")


def _arm(repo: Path, canary: Path) -> None:
    """Make the repository's own config and hooks run a command that writes `canary`."""
    hook = repo / ".git" / "hook.sh"
    hook.write_text(f"#!/bin/sh\necho ran >> {canary}\ncat\n")
    hook.chmod(0o755)
    with (repo / ".git" / "config").open("a") as config:
        config.write(f"[core]\n\tfsmonitor = sh {hook}\n[filter \"evil\"]\n"
                     f"\tsmudge = sh {hook}\n\tclean = sh {hook}\n\trequired = true\n")
    for name in ("post-checkout", "pre-commit", "reference-transaction"):
        (repo / ".git" / "hooks" / name).symlink_to(hook)


@pytest.fixture
def armed(tmp_path: Path) -> tuple[Path, str, str, Path]:
    repo, first, second = _repo(tmp_path)
    canary = tmp_path / "canary"
    _arm(repo, canary)
    # The control: git run the old way (in the solution, its config) does run the hook.
    subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], capture_output=True,
                   check=False)
    assert canary.exists(), "git did not run core.fsmonitor: the test could not fail"
    canary.unlink()
    return repo, first, second, canary


def test_source_reads_the_commit_and_runs_nothing_of_the_repository(armed) -> None:
    repo, _, second, canary = armed
    src = baseline.source(repo / "infra")
    assert src is not None and (src.top, src.path, src.commit) == (repo, "infra", second)
    assert src.dirty is False
    (repo / "infra" / "main.tf").write_text("# changed, not committed\n")
    assert baseline.source(repo / "infra").dirty is True
    assert not canary.exists()


def test_an_untracked_file_is_dirty_and_packed_refs_are_read(armed) -> None:
    repo, _, second, canary = armed
    _git(repo, "pack-refs", "--all")
    canary.unlink(missing_ok=True)  # this test's own git ran the hook: not the kit
    assert not (repo / ".git" / "refs" / "heads" / "main").exists()
    (repo / "infra" / "new.tf").write_text("# new\n")
    src = baseline.source(repo / "infra")
    assert src is not None and (src.commit, src.dirty) == (second, True)
    assert not canary.exists()


def test_a_baseline_ref_is_exported_without_checkout_filters_or_hooks(armed) -> None:
    repo, first, _, canary = armed
    with baseline.checkout("main~1", repo / "infra") as base:
        assert (base.ref, base.commit, base.shown) == ("main~1", first, "infra")
        # Bytes as committed: no smudge filter, no export-subst expansion.
        assert (base.solution / "main.tf").read_text() == "# base $Format:%H$\n"
        assert os.stat(base.solution / "run.sh").st_mode & 0o777 == 0o755
        assert os.stat(base.solution / "main.tf").st_mode & 0o777 == 0o644
        assert os.readlink(base.solution / "alias.tf") == "main.tf"
        assert not (base.solution.parent / ".git").exists()
        holder = base.solution.parent.parent
    assert not holder.exists()
    assert not canary.exists()
    assert _git(repo, "worktree", "list").count("\n") == 0


def test_a_head_or_ref_that_is_a_link_is_not_followed(tmp_path: Path) -> None:
    repo, _, second = _repo(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text(f"{'a' * 40}\n")
    ref = repo / ".git" / "refs" / "heads" / "main"
    ref.unlink()
    ref.symlink_to(elsewhere)
    assert baseline.source(repo) is None  # HEAD names main, main is a link: unknown
    head = repo / ".git" / "HEAD"
    head.unlink()
    head.symlink_to(elsewhere)
    assert baseline.source(repo) is None


def test_a_dot_git_link_or_forged_gitdir_file_is_no_repository(tmp_path: Path) -> None:
    other, _, _ = _repo(tmp_path)
    solution = tmp_path / "solution"
    solution.mkdir()
    (solution / ".git").symlink_to(other / ".git")
    assert git.find(solution) is None
    (solution / ".git").unlink()
    (solution / ".git").write_text(f"gitdir: {other / '.git'}\n")
    assert git.find(solution) is None
    # A real worktree's `.git` file is confirmed by the directory it names.
    real = tmp_path / "wt"
    _git(other, "worktree", "add", "-q", "--detach", str(real), "main")
    found = git.find(real)
    assert found is not None and found.common == other / ".git"
    assert baseline.source(real).commit == _git(other, "rev-parse", "main")
    # Its `.git` file copied into the solution names a worktree that does not name it back.
    (solution / ".git").write_text((real / ".git").read_text())
    assert git.find(solution) is None


def test_alternates_of_the_object_store_leave_dirty_unjudged(armed) -> None:
    repo, _, second, canary = armed
    (repo / ".git" / "objects" / "info" / "alternates").write_text("/nowhere\n")
    src = baseline.source(repo)
    assert src is not None and (src.commit, src.dirty) == (second, None)
    assert not canary.exists()


def test_a_tree_path_git_would_refuse_is_not_exported(tmp_path: Path) -> None:
    repo, _, _ = _repo(tmp_path)
    blob = subprocess.run(["git", "-C", str(repo), "hash-object", "-w", "--stdin"],
                          input="x", capture_output=True, text=True, check=True).stdout.strip()
    inner = subprocess.run(["git", "-C", str(repo), "mktree"], capture_output=True, text=True,
                           check=True, input=f"100644 blob {blob}\tconfig\n").stdout.strip()
    top = subprocess.run(["git", "-C", str(repo), "mktree"], capture_output=True, text=True,
                         check=True, input=f"040000 tree {inner}\t.GIT\n").stdout.strip()
    commit = _git(repo, "commit-tree", top, "-m", "hostile")
    into = tmp_path / "into"
    into.mkdir()
    with pytest.raises(git.Unreadable, match="git itself refuses"):
        git.export(git.find(repo), commit, into)
    assert list(into.iterdir()) == []


def test_a_path_that_is_not_utf8_is_exported_as_its_bytes(tmp_path: Path) -> None:
    repo, _, _ = _repo(tmp_path)
    name = os.fsdecode(b"caf\xe9.tf")
    (repo / name).write_text("# latin-1 name\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "a latin-1 name")
    into = tmp_path / "into"
    into.mkdir()
    git.export(git.find(repo), _git(repo, "rev-parse", "HEAD"), into)
    assert (into / name).read_text() == "# latin-1 name\n"



def test_another_users_repository_is_none_as_git_would_refuse_it(tmp_path: Path) -> None:
    repo, _, _ = _repo(tmp_path)
    assert git.find(repo / "infra") is not None
    os.chown(repo / ".git", 65534, 65534)
    assert git.find(repo / "infra") is None
