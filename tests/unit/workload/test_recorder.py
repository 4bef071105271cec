from __future__ import annotations

import threading

from kit.workload.recorder import Recorder


def test_ops_are_indexed_in_order_and_become_a_history() -> None:
    rec = Recorder()
    rec.record("kit", "phase", name="deploy")
    rec.record("kit", "deploy", ok=True, stage="apply", diagnostics=[])
    history = rec.history(None)
    assert [op.index for op in history.ops] == [0, 1]
    assert history.ops[1].value.ok is True
    assert rec.count("deploy") == 1


def test_waiters_wake_on_the_op_they_wait_for() -> None:
    rec = Recorder()
    seen = threading.Event()

    def waiter() -> None:
        with rec.changed:
            if rec.changed.wait_for(lambda: rec.count("recorded") >= 2, timeout=10):
                seen.set()

    thread = threading.Thread(target=waiter)
    thread.start()
    for i in range(2):
        rec.record("observer", "recorded", key=f"o{i}", fields={})
    thread.join(timeout=10)
    assert seen.is_set()


def test_running_counts_follow_ok_ops_and_distinct_keys() -> None:
    rec = Recorder()
    for key in ("a", "b", "a"):
        rec.record("observer", "recorded", key=key, fields={})
    rec.record("producer", "send", type="fail", body="x", error="AccessDenied")
    assert rec.count("recorded") == 3 and rec.distinct_keys() == 2
    assert rec.count("send") == 0
    assert rec.history(None).ops[-1].type == "fail"
