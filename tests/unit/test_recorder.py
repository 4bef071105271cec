from __future__ import annotations

import json
import threading

from kit.recorder import Recorder


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


# As the kit's recording sites pass them (producer, gateway, app, supervisor, observer).
RECORDED = [
    ("producer", "send", "ok", {"message_id": "m-1", "duplicate_of": None, "body": "{}",
                                "key": "k-1", "fields": {"a": 1}, "valid": True,
                                "queue": "queue.q", "group": "g"}),
    ("producer", "send", "fail", {"error": "AccessDenied: no", "body": "{}", "key": None,
                                  "fields": {}, "valid": False, "queue": "queue.q"}),
    ("worker-0", "authz", "ok", {"action": "sqs:SendMessage", "operation": "SendMessage",
                                 "resource": "arn:x", "decision": "Allow", "deciding": [],
                                 "reason": None}),
    ("app", "write", "fail", {"key": "t-1", "fields": {"n": 1}, "endpoint": "h:1",
                              "error": "OperationalError: cut"}),
    ("kit", "worker_exit", "ok", {"worker": "worker-0", "pid": 7, "signal": "SIGKILL"}),
    ("kit", "deploy", "ok", {"ok": False, "stage": "apply", "diagnostics": ["x"],
                             "kit_error": None, "gaps": []}),
    ("worker-0", "request_refused", "ok", {"occurrence": 1, "code": "X", "reason": "y",
                                           "service": "sqs"}),
]


def test_a_saved_op_holds_exactly_what_was_recorded_in_its_order() -> None:
    # history.json must not change: no unset optional field written as null, no reordering.
    rec = Recorder()
    for process, kind, type_, value in RECORDED:
        rec.record(process, kind, type=type_, **value)
    saved = json.loads(rec.history(None).to_json())["ops"]
    assert [list(op) for op in saved] == [["index", "time", "process", "type", "kind",
                                           "value"]] * len(RECORDED)
    assert [list(op["value"].items()) for op in saved] == \
        [list(value.items()) for *_, value in RECORDED]
    assert [op.value.as_dict() for op in rec.snapshot()] == [v for *_, v in RECORDED]
