"""recovery.within_rto."""

from __future__ import annotations

from kit.checks.recovery import WITHIN_RTO
from kit.checks.recovery import check_within_rto as check

from .builder import HistoryBuilder, finish_run, healthy_run, params_of


def _late_run(order_id: str, delay: float, fault: str = "db_outage"):
    """A healthy run whose observer first sees one order `delay` seconds after the rest."""
    run = healthy_run(seed=9, fault=fault, finish=False)
    run.b.drop("recorded", key=order_id)
    run.b.advance(delay)
    run.b.record(run.orders[order_id])
    finish_run(run)
    return run


def test_passes_after_a_fault():
    r = check(healthy_run(seed=9, fault="db_outage").build(), params_of(WITHIN_RTO, rto_seconds=30))
    assert r.verdict == "pass" and "fault_end (db_outage)" in r.summary


def test_passes_without_a_fault_counting_from_the_last_send():
    r = check(healthy_run(seed=9).build(), params_of(WITHIN_RTO))
    assert r.verdict == "pass" and "last send" in r.summary


def test_late_order_fails_with_its_lateness():
    history = _late_run("o-0003", delay=100.0).build()
    r = check(history, params_of(WITHIN_RTO, rto_seconds=30))
    assert r.verdict == "fail"
    (late,) = r.evidence["late"]["members"]
    assert late["key"] == "o-0003" and 69.0 < late["late_by_s"] < 71.0
    assert "1 recorded late" in r.summary
    assert check(history, params_of(WITHIN_RTO, rto_seconds=200)).verdict == "pass"


def test_never_recorded_violates_it_and_says_so():
    run = healthy_run(seed=9, fault="worker_crash")
    run.b.drop("recorded", key="o-0006")
    run.final["orders"] = [r for r in run.final["orders"] if r["order_id"] != "o-0006"]
    r = check(run.build(), params_of(WITHIN_RTO))
    assert r.verdict == "fail"
    assert r.evidence["never_recorded"]["members"] == ["o-0006"]
    assert "1 never recorded" in r.summary


def test_order_sent_after_the_fault_gets_its_own_deadline():
    b = HistoryBuilder(seed=9)
    b.fault_start("sqs_outage")
    b.fault_end("sqs_outage")
    b.advance(500.0)
    m = b.send_order("o-1", "c-1", 100)
    b.advance(10.0)
    b.record(m)
    assert check(b.build(), params_of(WITHIN_RTO, rto_seconds=30)).verdict == "pass"


def test_fault_that_never_ended_is_an_error():
    b = HistoryBuilder(seed=9)
    b.fault_start("db_outage")
    b.record(b.send_order("o-1", "c-1", 100))
    r = check(b.build(), params_of(WITHIN_RTO))
    assert r.verdict == "error" and "never ended" in r.summary


def test_fault_none_markers_count_from_the_last_send():
    b = HistoryBuilder(seed=9)
    b.fault_start("none")
    b.fault_end("none")
    m = b.send_order("o-1", "c-1", 100)
    b.advance(20.0)
    b.record(m)
    assert check(b.build(), params_of(WITHIN_RTO, rto_seconds=10)).verdict == "fail"
    assert check(b.build(), params_of(WITHIN_RTO, rto_seconds=30)).verdict == "pass"


def test_final_row_without_recorded_op_is_an_error():
    run = healthy_run(seed=9)
    run.b.drop("recorded", key="o-0001")
    r = check(run.build(), params_of(WITHIN_RTO))
    assert r.verdict == "error" and "ledger is incomplete" in r.summary


def test_no_valid_send_is_an_error():
    b = HistoryBuilder(seed=9)
    b.send("junk")
    assert check(b.build(), params_of(WITHIN_RTO)).verdict == "error"


def test_the_slowest_key_gives_the_rto_headroom():
    """slowest_s: the longest time to effect past max(reference, send), pass or fail."""
    history = _late_run("o-0003", delay=100.0).build()
    passed = check(history, params_of(WITHIN_RTO, rto_seconds=200))
    failed = check(history, params_of(WITHIN_RTO, rto_seconds=30))
    (late,) = failed.evidence["late"]["members"]
    assert passed.verdict == "pass" and failed.verdict == "fail"
    assert passed.evidence["slowest_s"] == failed.evidence["slowest_s"]
    assert abs(failed.evidence["slowest_s"] - (late["late_by_s"] + 30)) < 0.01
