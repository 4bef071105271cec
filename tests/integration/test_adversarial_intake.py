"""Reward-hacking cases against the solution's intake (tests/adversarial/order-pipeline/):
links out of the solution, a link into .terraform/, an override file, provisioners and data
sources in forms the gate once missed. Each is refused by the gate
(`deploy.allowed_constructs`), no run is the kit's `error`, no process is left behind, and
the linked file's content is in none of the runs' files.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.integration.adversary import judge, not_caught, processes, survivors
from tests.integration.conftest import traversable_tmp

CASES = {"symlink-golden-worker", "symlink-root-file", "file-leak-precondition",
         "override-region", "tfjson-array-provisioner", "module-link-into-dot-terraform",
         "check-block-external"}


tmp_path = traversable_tmp("adversarial-intake-")


def _secrets() -> list[str]:
    """The lines of the root-only file the cases link to, as they would show if leaked."""
    return [line for line in Path("/etc/shadow").read_text().splitlines() if len(line) > 8]


# Parallel: what it looks at is its own (its runs' files; the host's orphans through
# adversary.survivors, whose filter leaves other tests' out, as for test_adversarial_iam).
@pytest.mark.timeout(900)
def test_every_intake_hack_is_refused_by_the_gate(tmp_path: Path) -> None:
    before, since = processes(), time.time()
    rows = judge("order-pipeline", CASES, tmp_path)
    assert {row.subject for row in rows} == CASES
    assert not_caught("order-pipeline", rows) == {}
    for row in rows:  # refused by the gate itself, not by a deploy that failed after it
        for run in row.runs:
            gated = run.results["deploy.allowed_constructs"]
            assert gated.verdict == "fail", (row.subject, gated.summary)
    written = [p for p in tmp_path.rglob("*") if p.is_file() and not p.is_symlink()]
    assert any(p.name == "history.json" for p in written)
    leaked = [(str(p), line) for p in written for line in _secrets()
              if line in p.read_text(errors="replace")]
    assert leaked == []
    assert survivors(before, since) == []
