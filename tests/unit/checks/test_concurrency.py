"""delivery.no_concurrent_processing."""

from __future__ import annotations

from kit.checks.concurrency import check_no_concurrent_processing as check

from .builder import HistoryBuilder, healthy_run


def _two_workers(seed: int = 5) -> tuple[HistoryBuilder, str]:
    b = HistoryBuilder(seed)
    b.worker_start("worker-0")
    b.worker_start("worker-1")
    return b, b.send_order("o-1", "c-1", 100)


def test_passes_on_a_healthy_run():
    # Poison messages pass from worker to worker without being deleted: not processing.
    r = check(healthy_run(seed=5).build(), {})
    assert r.verdict == "pass" and r.evidence["receives"] > 0


def test_second_receive_while_first_worker_holds_and_deletes_fails():
    b, m = _two_workers()
    b.receive("worker-0", m)
    b.advance(31.0)  # worker-0's visibility lapsed while it was still working
    b.receive("worker-1", m)
    b.delete("worker-1", m)
    b.delete("worker-0", m)
    r = check(b.build(), {})
    assert r.verdict == "fail"
    pair = r.evidence["concurrent"]["members"][0]
    assert (pair["message_id"], pair["first"], pair["second"]) == (m, "worker-0", "worker-1")
    assert pair["held_for_s"] > 31.0
    assert r.summary.startswith("1 message processed by two workers at once")


def test_killed_workers_hold_is_not_counted():
    b, m = _two_workers()
    b.receive("worker-0", m)
    b.worker_exit("worker-0")
    b.receive("worker-1", m)
    b.delete("worker-1", m)
    assert check(b.build(), {}).verdict == "pass"


def test_restarted_worker_under_the_same_name_starts_fresh():
    b, m = _two_workers()
    b.receive("worker-0", m)
    b.worker_exit("worker-0")
    b.worker_start("worker-0")
    b.receive("worker-1", m)
    b.delete("worker-0", m)  # the new session never received m: no hold to complete
    b.delete("worker-1", m)
    assert check(b.build(), {}).verdict == "pass"


def test_abandoned_hold_is_not_processing():
    b, m = _two_workers()
    b.receive("worker-0", m)  # e.g. the database was down; worker-0 gave up on m
    b.receive("worker-1", m)
    b.delete("worker-1", m)
    assert check(b.build(), {}).verdict == "pass"


def test_released_message_is_not_held():
    b, m = _two_workers()
    b.receive("worker-0", m)
    b.change_visibility("worker-0", m, 0)
    b.receive("worker-1", m)
    b.delete("worker-1", m)
    b.delete("worker-0", m)  # a stray delete after releasing: no open hold
    assert check(b.build(), {}).verdict == "pass"


def test_extended_visibility_still_holds():
    b, m = _two_workers()
    b.receive("worker-0", m)
    b.change_visibility("worker-0", m, 120)
    b.receive("worker-1", m)
    b.delete("worker-0", m)
    assert check(b.build(), {}).verdict == "fail"


def test_a_new_receive_by_the_same_worker_replaces_its_hold():
    b, m = _two_workers()
    b.receive("worker-0", m)
    b.receive("worker-1", m)  # worker-1 abandons it
    b.worker_exit("worker-1")
    b.receive("worker-0", m)  # worker-0's second hold starts after worker-1 is gone
    b.delete("worker-0", m)
    assert check(b.build(), {}).verdict == "pass"


def test_overlap_counts_against_the_hold_that_completes():
    b, m = _two_workers()
    b.receive("worker-0", m)
    b.receive("worker-1", m)
    b.receive("worker-0", m)  # overlaps worker-1's open hold
    b.delete("worker-1", m)  # worker-1 completes: both worked on m at once
    r = check(b.build(), {})
    assert r.verdict == "fail"
    pair = r.evidence["concurrent"]["members"][0]
    assert (pair["first"], pair["second"]) == ("worker-1", "worker-0")


def test_injected_duplicate_delivery_is_ignored():
    b, m = _two_workers()
    b.receive("worker-0", m)
    b.receive("worker-1", m, injected=True)
    b.delete("worker-1", m)
    b.delete("worker-0", m)
    assert check(b.build(), {}).verdict == "pass"


def test_duplicate_sends_are_different_messages():
    b, m = _two_workers()
    dup = b.send(b.bodies[m], duplicate_of=m)
    b.receive("worker-0", m)
    b.receive("worker-1", dup)
    b.delete("worker-1", dup)
    b.delete("worker-0", m)
    assert check(b.build(), {}).verdict == "pass"


def test_no_receives_means_nothing_was_processed_twice():
    # Workers that never act are workload.workers_start's failure, not an error here.
    b, _ = _two_workers()
    r = check(b.build(), {})
    assert r.verdict == "pass" and "0 receives" in r.summary
