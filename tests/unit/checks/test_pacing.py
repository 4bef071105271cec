"""workload.retries_paced: the calls AWS refuses a worker within any 2 s of a fault's window
(AWS SDKs and Tools Reference Guide, "Retry behavior": retries back off exponentially)."""

from __future__ import annotations

from kit.checks.pacing import RETRIES_PACED
from kit.checks.pacing import check_retries_paced as check
from kit.history import History

from .builder import HistoryBuilder, params_of


def _denied(b: HistoryBuilder, process: str, n: int, every: float) -> None:
    for _ in range(n):
        b.op(process, "authz", action="sqs:ReceiveMessage", operation="ReceiveMessage",
             resource="arn:aws:sqs:us-east-1:123456789012:orders", decision="ExplicitDeny",
             deciding=["inline:kit-revoke"], reason="revoked")
        b.advance(every)


def _run(refused: dict[str, tuple[int, float]], window: float = 10.0) -> History:
    """A fault window of at least `window` s in which each process is refused n calls, one
    every `every` s (and a bit); refused calls before and after the window too."""
    b = HistoryBuilder(seed=3)
    b.worker_start("worker-0#0")
    _denied(b, "worker-0#0", 1, 0.1)  # before the fault: not counted
    b.fault_start("iam_deny")
    start = b.t
    for process, (n, every) in refused.items():
        _denied(b, process, n, every)
    b.t = max(b.t, start + window)
    b.fault_end("iam_deny")
    _denied(b, "worker-0#0", 50, 0.001)  # after it: not counted
    return History(ops=tuple(b.ops))


def test_a_worker_that_backs_off_passes() -> None:
    r = check(_run({"worker-0#0": (40, 0.25), "worker-1#1": (12, 0.5)}),
              params_of(RETRIES_PACED))
    assert r.verdict == "pass", r.summary
    assert r.evidence["peaks"]["worker-0#0"] <= 8 and r.evidence["peaks"]["worker-1#1"] <= 4


def test_a_worker_that_retries_at_once_fails_and_is_named() -> None:
    # A burst is enough: a worker that spins only while it is idle (between messages)
    # averages little over the window but not over its burst.
    r = check(_run({"worker-0#0": (40, 0.25), "worker-2#0": (40, 0.001)}, window=30),
              params_of(RETRIES_PACED))
    assert r.verdict == "fail"
    assert [m["worker"] for m in r.evidence["unpaced"]["members"]] == ["worker-2#0"]
    assert "worker-2#0 was refused 40 times within 2 s" in r.summary


def test_only_workers_in_the_window_count_and_the_bound_is_a_parameter() -> None:
    history = _run({"producer": (400, 0.001), "worker-0#0": (20, 0.2)})
    assert check(history, params_of(RETRIES_PACED)).verdict == "pass"  # ~10 in 2 s
    assert check(history, params_of(RETRIES_PACED, max_refused_per_second=2)).verdict \
        == "fail"


def test_a_run_without_a_fault_passes() -> None:
    b = HistoryBuilder(seed=1)
    _denied(b, "worker-0#0", 500, 0.001)
    r = check(History(ops=tuple(b.ops)), params_of(RETRIES_PACED))
    assert r.verdict == "pass" and r.evidence["window_seconds"] == 0


def _outage(refused_every: float, workers: int = 3, window: float = 10.0) -> History:
    """A database outage of `window` s in which the namespace counted one refused connection
    every `refused_every` s, sampled every 0.25 s."""
    b = HistoryBuilder(seed=4)
    for n in range(workers):
        b.worker_start(f"worker-{n}#0")
    b.worker_start("worker-0#1")  # a restart: the same worker slot
    b.fault_start("network_outage")
    start, count = b.t, 0
    while b.t < start + window:
        b.advance(0.25)
        now = int((b.t - start) / refused_every)
        if now != count:
            count = now
            b.op("network", "connects_refused", port=5432, refused=count)
    b.fault_end("network_outage")
    b.op("network", "connects_refused", port=5432, refused=count + 10_000)  # after: no
    return History(ops=tuple(b.ops))


def test_workers_reconnecting_with_a_backoff_pass() -> None:
    r = check(_outage(refused_every=0.2), params_of(RETRIES_PACED))  # ~10 in 2 s, 3 workers
    assert r.verdict == "pass", r.summary
    assert r.evidence["connects"]["workers"] == 3 and r.evidence["connects"]["limit"] == 60
    assert 8 <= r.evidence["connects"]["peak"] <= 11


def test_a_reconnect_loop_without_pause_fails() -> None:
    r = check(_outage(refused_every=0.001), params_of(RETRIES_PACED))
    assert r.verdict == "fail"
    assert "reconnected without pause" in r.summary and "3 workers" in r.summary
    assert r.evidence["connects"]["peak"] >= 1500  # samples 0.25 s apart: 1.75 s of 2


def test_actions_narrow_the_count_to_the_calls_retried_in_place() -> None:
    # A worker refused a store once per job it takes (paced by its work, not a retry) and
    # a receive retried at once: with `actions`, only the receives count.
    b = HistoryBuilder(seed=5)
    b.worker_start("worker-0#0")
    b.fault_start("iam_deny")
    for _ in range(40):
        b.op("worker-0#0", "authz", action="s3:PutObject", operation="PutObject",
             resource="arn:aws:s3:::results/r.json", decision="ExplicitDeny",
             deciding=["inline:kit-revoke"], reason="revoked")
        b.advance(0.04)
    b.fault_end("iam_deny")
    stores = History(ops=tuple(b.ops))
    receives_only = params_of(RETRIES_PACED, actions=["sqs:ReceiveMessage"])
    assert check(stores, params_of(RETRIES_PACED)).verdict == "fail"
    assert check(stores, receives_only).verdict == "pass"
    assert check(_run({"worker-0#0": (40, 0.001)}), receives_only).verdict == "fail"
