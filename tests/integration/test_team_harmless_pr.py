"""A harmless pull request on the team repository is never told it broke something (issue
45's acceptance): main is examples/team-repo as it is, the PR raises both fulfilment queues'
retention to 14 days and tags them (what the issue's harmless PR did), and the whole check
(`kit eval --baseline main`, every fault, on both sides) reports no new and no flaky
failure, in each of REPEATS repeats. Slow (make validate): ~4 min a repeat on 2 cores."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kit.report import compare
from tests.integration.test_baseline import TEAM, _git

pytestmark = [pytest.mark.integration, pytest.mark.slow]
REPEATS = int(os.environ.get("KIT_HARMLESS_REPEATS", "10"))
SCENARIO = "team-orders-ecs"
HARMLESS = '''  name                       = "order-fulfilment"
  visibility_timeout_seconds = 30
  max_receive_count          = var.max_receive_count
  message_retention_seconds  = 1209600
  dlq_retention_seconds      = 1209600
  tags                       = { change = "retention-14-days" }
'''


def _repository(tmp: Path) -> Path:
    """main: the team repository as it is; the checked-out branch: the harmless PR."""
    repo = tmp / "repo"
    shutil.copytree(TEAM, repo, ignore=shutil.ignore_patterns("__pycache__", ".terraform"))
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "main")
    _git(repo, "checkout", "-q", "-b", "pr")
    sqs = repo / "infra" / "sqs.tf"
    before = ('  name                       = "order-fulfilment"\n'
              "  visibility_timeout_seconds = 30\n"
              "  max_receive_count          = var.max_receive_count\n")
    assert before in sqs.read_text()
    sqs.write_text(sqs.read_text().replace(before, HARMLESS))
    _git(repo, "commit", "-qam", "fulfilment queues keep messages 14 days")
    return repo


@pytest.mark.timeout(600 * max(REPEATS, 1))
def test_a_harmless_team_pr_reports_no_new_failure_in_any_repeat(tmp_path: Path) -> None:
    repo = _repository(tmp_path)
    for repeat in range(REPEATS):
        out = tmp_path / f"out-{repeat}"
        done = subprocess.run(
            [sys.executable, "-m", "kit.cli", "eval", SCENARIO, "--scenarios",
             str(repo / ".kit"), "--solution", str(repo), "--baseline", "main",
             "--jobs", "2", "--out", str(out)],
            capture_output=True, text=True, timeout=1200, check=False)
        [report] = sorted(out.rglob("report.json"))
        doc = json.loads(report.read_text())
        cried = [(e["fault"], e["invariant"], e["status"]) for e in doc["comparison"]
                 if e["status"] in (compare.NEW, compare.FLAKY)]
        assert (done.returncode, cried) == (0, []), (repeat, done.stderr[-3000:])
