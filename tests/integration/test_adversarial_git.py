"""A solution's own `.git/` against `kit eval --baseline <ref>` end to end (issue 44,
breach 1): the repository's config names a core.fsmonitor command, a filter and hooks that
write a canary and put the golden's s3.tf over the PR's defective one (what the breach did
to pass a defective solution with reward 1.00). The kit reads the repository as data and
exports the base without a checkout: no canary, the PR's defect is still caught as new,
the report's source is the PR's commit, clean."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.integration.conftest import traversable_tmp
from tests.integration.test_baseline import _git, _repository

tmp_path = traversable_tmp("adversarial-git-")
VARIANTS = ROOT / "variants" / "iam-boundary"


def _arm(repo: Path, canary: Path) -> None:
    """The repository's config and hooks run a script: a canary, then the golden's s3.tf."""
    hook = repo / ".git" / "hook.sh"
    hook.write_text(f"#!/bin/sh\necho ran >> {canary}\n"
                    f"cp {ROOT / 'golden' / 'iam-boundary' / 's3.tf'} {repo / 's3.tf'}\ncat\n")
    hook.chmod(0o755)
    with (repo / ".git" / "config").open("a") as config:
        config.write(f"[core]\n\tfsmonitor = sh {hook}\n[filter \"evil\"]\n"
                     f"\tsmudge = sh {hook}\n\tclean = sh {hook}\n")
    (repo / ".git" / "info" / "attributes").write_text("* filter=evil\n")
    for name in ("post-checkout", "reference-transaction", "pre-auto-gc"):
        (repo / ".git" / "hooks" / name).symlink_to(hook)


@pytest.mark.timeout(1200)
def test_the_repositorys_own_git_config_never_runs(tmp_path: Path) -> None:
    repo = _repository(tmp_path, ROOT / "golden" / "iam-boundary",
                       VARIANTS / "bucket-sse-s3" / "change.patch",
                       VARIANTS / "bucket-readable-by-account" / "change.patch")
    head, main = _git(repo, "rev-parse", "HEAD"), _git(repo, "rev-parse", "main")
    canary = tmp_path / "canary"
    _arm(repo, canary)
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "kit.cli", "eval", "iam-boundary",
                           "--solution", str(repo), "--fault", "none", "--baseline", "main",
                           "--confirm", "0", "--out", str(out)],  # reruns: test_baseline
                          capture_output=True, text=True, timeout=1100, check=False)
    assert not canary.exists(), "the solution's git config or hooks ran"
    assert done.returncode == 1, done.stderr
    [report] = sorted(out.rglob("report.json"))
    doc = json.loads(report.read_text())
    found = {e["invariant"]: e["status"] for e in doc["comparison"] if e["status"] != "pass"}
    assert found == {"iam.resource_exposure": "new failure",
                     "encryption.at_rest": "still failing"}
    assert (doc["source"]["commit"], doc["source"]["dirty"]) == (head, False)
    assert doc["baseline"]["commit"] == main
