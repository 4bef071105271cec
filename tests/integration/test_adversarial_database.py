"""A worker with the database's keys: tests/adversarial/order-pipeline/db-shell-escape/.

The red team's worker, logged in as the PostgreSQL superuser, ran a shell on the host
(COPY ... FROM PROGRAM 'setsid sleep 900 &': a process that outlived the kit), read the
server's files, and cut the kit's observer so that faulted runs became the kit's `error`.
As the role the bind stage makes for it, each attempt is refused (its log says so), the
run is judged (its double charge is caught, no run is `error`), and nothing of it is left
running on the host.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.integration.adversary import judge, not_caught, processes, survivors

SCENARIO, CASE = "order-pipeline", "db-shell-escape"
PREFIX = "db-shell-escape:"


def _said(out: Path) -> list[str]:
    """What the case's workers printed after PREFIX, one line per attempt."""
    return [line.split(PREFIX, 1)[1].strip()
            for log in sorted((out / CASE / "none-seed1").glob("worker-*.log"))
            for line in log.read_text(errors="replace").splitlines() if PREFIX in line]


# Parallel: one run, refused at each attempt; its orphan check (adversary.survivors) is the
# one test_adversarial_iam already runs in the parallel phase.
@pytest.mark.timeout(900)
def test_a_database_shell_is_refused_caught_and_leaves_nothing(tmp_path: Path) -> None:
    before, since = processes(), time.time()
    rows = judge(SCENARIO, {CASE}, tmp_path, jobs=1)
    assert [row.subject for row in rows] == [CASE]
    assert not_caught(SCENARIO, rows) == {}
    # What the database would run is the servers' user's (postgres as root, else the kit's
    # own), what a worker leaves is its sandbox user's (adversary.survivors).
    assert survivors(before, since) == []
    said = _said(tmp_path)
    attempts = {line.split(": ", 1)[0] for line in said}
    # A shell, the server's files, and the kit's observer (its reader's session) at least.
    assert {"copy-from-program", "pg_read_file", "pg_ls_dir",
            "pg_terminate_backend kit_reader"} <= attempts, said
    assert all(line.split(": ", 1)[1] == "refused (InsufficientPrivilege)" for line in said), said
