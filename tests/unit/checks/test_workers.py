"""workload.workers_start."""

from __future__ import annotations

from kit.checks.workers import check_workers_start

from .builder import HistoryBuilder


def test_pass_when_workers_started_and_never_crash_looped():
    b = HistoryBuilder(seed=1)
    b.op("kit", "worker_start", worker="worker-0#0", pid=10)
    b.op("kit", "worker_exit", worker="worker-0#0", pid=10, code=0)
    assert check_workers_start(b.build(), {"keeps_running": False}).verdict == "pass"


def test_crash_loop_fails_with_the_exit_and_the_last_output():
    b = HistoryBuilder(seed=1)
    b.op("kit", "worker_start", worker="worker-0#0", pid=10)
    b.op("kit", "crash_loop", exits=[
        {"worker": "worker-0#0", "code": 3, "lived_seconds": 0.4},
        {"worker": "worker-0#1", "code": -9, "lived_seconds": 0.2}],
        output={"worker-0": ["Traceback", "KeyError: 'QUEUE'"], "worker-1": []})
    r = check_workers_start(b.build(), {})
    assert r.verdict == "fail"
    assert "worker-0#0, code 3 after 0.4 s" in r.summary
    assert r.summary.endswith("last output: KeyError: 'QUEUE'")
    assert r.evidence["exits"]["count"] == 2


def test_no_worker_ever_started_is_an_error():
    assert check_workers_start(HistoryBuilder(seed=1).build(), {}).verdict == "error"


def _worker_that_exits(by: str | None):
    b = HistoryBuilder(seed=1)
    b.op("kit", "worker_start", worker="worker-0#0", pid=10)
    b.op("observer", "recorded", key="o1", fields={})
    exit_by = {"by": by} if by else {}
    b.op("kit", "worker_exit", worker="worker-0#0", pid=10, code=1, **exit_by)
    b.op("kit", "worker_start", worker="worker-0#1", pid=11)
    return b.build()


def test_a_worker_that_exits_by_itself_fails_when_it_must_keep_running():
    r = check_workers_start(_worker_that_exits(None), {"keeps_running": True})
    assert r.verdict == "fail"
    assert "1 worker exit the kit did not cause (e.g. worker-0#0, code 1" in r.summary
    assert r.evidence["exits"]["count"] == 1


def test_exits_the_kit_caused_and_exits_where_the_contract_allows_them_pass():
    assert check_workers_start(_worker_that_exits("fault"),
                               {"keeps_running": True}).verdict == "pass"
    assert check_workers_start(_worker_that_exits("stop"),
                               {"keeps_running": True}).verdict == "pass"
    assert check_workers_start(_worker_that_exits(None),
                               {"keeps_running": False}).verdict == "pass"
