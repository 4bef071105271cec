"""`kit eval --baseline <git ref>` on a repository of two commits made here (issue 27's
acceptance): main already fails an invariant; a PR that breaks nothing passes (exit 0, the
failure listed as still failing), one that adds a defect fails on it alone (exit 1), after
its new failure reproduced in a rerun of both sides (`--confirm 1`: two runs more). The
base is checked out in a temporary worktree that is gone afterwards. One fault (`none`),
two runs per command: an agent task's scenario (the reward shown; in make test) and the
team repository (team mode, --scenarios, no reward shown; slow: make validate)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

TEAM = ROOT / "examples" / "team-repo"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c",
                           "user.email=t@t", *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def _repository(tmp: Path, source: Path, main_defect: Path, pr: Path | None) -> Path:
    """A git repository: `main` is `source` with one defect, the checked-out branch `pr`
    adds the patch `pr` (None: a comment only, a PR that breaks nothing)."""
    repo = tmp / "repo"
    shutil.copytree(source, repo, ignore=shutil.ignore_patterns("__pycache__", ".terraform"))
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "apply", str(main_defect))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "main, with a defect")
    _git(repo, "checkout", "-q", "-b", "pr")
    if pr is None:
        tf = next(p for p in sorted(repo.rglob("*.tf")) if ".kit" not in p.parts)
        tf.write_text(tf.read_text() + "\n# a comment: this PR breaks nothing\n")
    else:
        _git(repo, "apply", str(pr))
    _git(repo, "commit", "-qam", "the PR")
    return repo


def _eval(args: list[str], out: Path, confirm: int = 2) -> tuple[int, str, dict, str]:
    """kit eval --baseline main under `none`: exit code, stderr, report.json, summary.md."""
    done = subprocess.run([sys.executable, "-m", "kit.cli", "eval", *args, "--fault", "none",
                           "--baseline", "main", "--confirm", str(confirm), "--out", str(out)],
                          capture_output=True, text=True, timeout=1200, check=False)
    [report] = sorted(out.rglob("report.json"))
    return (done.returncode, done.stderr, json.loads(report.read_text()),
            (report.parent / "summary.md").read_text())


def _worktree_gone(repo: Path, stderr: str) -> None:
    [where] = re.findall(r"baseline: main in (\S+)", stderr)
    assert not Path(where).exists() and not Path(where).parent.exists()
    assert _git(repo, "worktree", "list").count("\n") == 0  # only the repository's own


@pytest.mark.slow  # the team's Lambda runs: minutes on a loaded machine (make validate)
@pytest.mark.timeout(1500)
def test_a_clean_team_pr_passes_though_main_fails(tmp_path: Path) -> None:
    variants = TEAM / ".kit" / "variants" / "team-orders-lambda"
    repo = _repository(tmp_path, TEAM, variants / "dynamodb-star" / "change.patch", None)
    code, err, doc, summary = _eval(["team-orders-lambda", "--scenarios", str(repo / ".kit"),
                                     "--solution", str(repo)], tmp_path / "out")
    assert code == 0, err
    still = [(e["fault"], e["invariant"]) for e in doc["comparison"]
             if e["status"] == "still failing"]
    # main's defect (and whatever else main fails on this machine) is still failing:
    # nothing is new, nothing unknown.
    assert ("none", "iam.least_privilege") in still
    assert {e["status"] for e in doc["comparison"]} == {"still failing", "pass"}
    assert (doc["outcome"], doc["verdict"], doc["baseline"]["outcome"]) == ("fail", "pass",
                                                                            "fail")
    assert doc["baseline"]["commit"] == _git(repo, "rev-parse", "main")
    assert doc["baseline"]["solution"] == "."  # its path in the repository, not the temp dir
    assert doc["source"]["commit"] == _git(repo, "rev-parse", "HEAD")
    assert "### Still failing" in summary and "### New failures" not in summary
    assert "reward" not in summary  # a team's check, not an agent task
    assert str(tmp_path) not in summary  # paths relative to the repository
    head = _git(repo, "rev-parse", "HEAD")[:12]
    assert f"git checkout {head} && kit eval team-orders-lambda --scenarios .kit " \
           "--solution . --seed 1 --fault none --baseline main" in summary
    _worktree_gone(repo, err)


@pytest.mark.timeout(1200)
def test_a_pr_adding_a_defect_fails_on_it_alone(tmp_path: Path) -> None:
    variants = ROOT / "variants" / "iam-boundary"
    repo = _repository(tmp_path, ROOT / "golden" / "iam-boundary",
                       variants / "bucket-sse-s3" / "change.patch",
                       variants / "bucket-readable-by-account" / "change.patch")
    code, err, doc, summary = _eval(["iam-boundary", "--solution", str(repo)],
                                    tmp_path / "out", confirm=1)
    assert code == 1, err
    found = {e["invariant"]: e["status"] for e in doc["comparison"] if e["status"] != "pass"}
    assert found == {"iam.resource_exposure": "new failure",
                     "encryption.at_rest": "still failing"}
    # The new failure was rerun once on each side at its seed, and reproduced.
    [new] = [e for e in doc["comparison"] if e["status"] == "new failure"]
    assert new["confirm"]["runs"] == [{"seed": 1, "base": "pass", "head": "fail"}] * 2
    assert "confirm: 1 new failure(s) under none" in err
    assert "reruns: head failed 2 of 2, base failed 0 of 2" in summary
    assert {p.parent.name for p in (tmp_path / "out").rglob("none-seed1")
            if p.parent.parent.name == "confirm"} == {"base", "head"}
    assert summary.index("### New failures") < summary.index("### Still failing") \
        < summary.index("| invariant |")
    assert "- **none** (seed 1) `iam.resource_exposure`" in summary
    assert "reward" in summary  # an agent task's scenario shows its reward
    assert [r["fault"] for r in doc["baseline"]["runs"]] == ["none"]
    _worktree_gone(repo, err)
