"""The history model: validation of ops, JSON round-trip, /1 upgrade."""

from __future__ import annotations

import json

import pytest

from kit.history import FORMAT, FinalState, History, HistoryError, make_history, parse_op

from .builder import SCENARIO, describe_body, healthy_run


def test_json_round_trip_is_identical(tmp_path):
    history = healthy_run(seed=3).build()
    again = History.from_json(history.to_json())
    assert again == history
    assert History.load(history.save(tmp_path / "h.json")) == history


def test_round_trip_keeps_float_times_exactly():
    history = healthy_run(seed=4).build()
    again = History.from_json(history.to_json())
    assert [op.time for op in again.ops] == [op.time for op in history.ops]


def test_ops_are_frozen():
    op = parse_op({"index": 0, "time": 0.0, "process": "kit", "kind": "phase",
                   "value": {"name": "deploy"}})
    with pytest.raises(ValueError):
        op.kind = "other"  # type: ignore[misc]
    with pytest.raises(ValueError):
        op.value.name = "other"  # type: ignore[misc]


def test_missing_field_names_the_op():
    with pytest.raises(HistoryError, match=r"op 0 \(ok receive by worker-0\): missing "
                                           r"field 'receive_count'"):
        make_history([{"index": 0, "time": 0.1, "process": "worker-0", "kind": "receive",
                       "value": {"message_id": "m-1", "key": None}}])


def test_bool_is_not_an_int():
    with pytest.raises(HistoryError, match="'receive_count' is True"):
        make_history([{"index": 0, "time": 0.1, "process": "worker-0", "kind": "receive",
                       "value": {"message_id": "m-1", "key": None,
                                 "receive_count": True}}])


def test_send_marked_valid_must_have_a_key():
    body = "garbage"
    value = {"message_id": "m-1", "body": body, **describe_body(body), "duplicate_of": None}
    value["valid"] = True
    with pytest.raises(HistoryError, match="marked valid"):
        make_history([{"index": 0, "time": 0.1, "process": "producer", "kind": "send",
                       "value": value}])


def test_unknown_kinds_pass_through():
    h = make_history([{"index": 0, "time": 0.0, "process": "kit", "kind": "note",
                       "value": {"anything": 1}}])
    assert h.ops[0].kind == "note"


def test_indexes_must_increase():
    ops = [{"index": i, "time": 0.0, "process": "kit", "kind": "phase",
            "value": {"name": "deploy"}} for i in (0, 2, 1)]
    with pytest.raises(HistoryError, match="op 1 follows op 2"):
        make_history(ops)


def test_a_failed_send_says_why_instead_of_its_message_id():
    value = {"body": "x", "key": None, "fields": {}, "valid": False}
    h = make_history([{"index": 0, "time": 0.1, "process": "producer", "kind": "send",
                       "type": "fail", "value": {**value, "error": "AccessDenied: no"}}])
    assert h.of_kind("send") == [] and h.ops[0].type == "fail"
    with pytest.raises(HistoryError, match="missing field 'error'"):
        make_history([{"index": 0, "time": 0.1, "process": "producer", "kind": "send",
                       "type": "fail", "value": value}])


def test_a_version_1_history_is_read_in_the_current_shape():
    old = {"format": "kit.history/1", "ops": [
        {"index": 0, "time": 0.1, "process": "producer", "kind": "send", "value": {
            "message_id": "m-1", "body": "{}", "order_id": "o-1", "customer_id": "c-1",
            "amount_cents": 5, "valid": True, "duplicate_of": None}},
        {"index": 1, "time": 0.2, "process": "worker-0", "kind": "receive", "value": {
            "message_id": "m-1", "order_id": "o-1", "receive_count": 1}},
        {"index": 2, "time": 0.3, "process": "observer", "kind": "recorded", "value": {
            "order_id": "o-1", "customer_id": "c-1", "amount_cents": 5}}],
        "final": {"orders": [{"order_id": "o-1", "customer_id": "c-1", "amount_cents": 5}],
                  "balances": {"c-1": 5}, "queue_messages": [], "dlq_messages": [],
                  "db_instance": {"Engine": "postgres"}, "rds_config": None, "iam": None}}
    # Only the scenario knows its old fields: the kit alone refuses to guess.
    with pytest.raises(HistoryError, match="upgrade_history"):
        History.from_json(json.dumps(old))
    h = History.from_json(json.dumps(old), SCENARIO.workload_module.upgrade_history)
    assert [op.value.key for op in h.ops] == ["o-1"] * 3
    assert h.ops[0].value.fields["amount_cents"] == 5
    assert h.final.effects[0].key == "o-1"
    assert h.final.tables == {"customer_balances": [{"customer_id": "c-1",
                                                     "balance_cents": 5}]}
    assert h.final.queues == {"queue.orders": [], "queue.dlq": []}
    assert h.final.db_instances == {"database.main": {"Engine": "postgres"}}


def test_from_json_refuses_other_formats():
    with pytest.raises(HistoryError, match="expected 'kit.history/2'"):
        History.from_json(json.dumps({"ops": []}))
    with pytest.raises(HistoryError, match="not JSON"):
        History.from_json("{")


def test_load_names_the_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": FORMAT, "ops": [{"index": 0}]}))
    with pytest.raises(HistoryError, match="bad.json: history is malformed"):
        History.load(path)


def test_final_fields_default_to_not_collected():
    final = FinalState()
    assert final.effects is None and final.queues is None and final.db_instances is None


def test_describe_body_keeps_fields_of_poison():
    facts = describe_body('{"order_id": "p-1", "customer_id": "c", "amount_cents": 0}')
    assert facts == {"key": "p-1", "valid": False, "fields": {
        "order_id": "p-1", "customer_id": "c", "amount_cents": 0}}


def test_a_saved_history_with_a_malformed_op_names_it(tmp_path):
    # A file save wrote is read in one pass; when that fails, the error still names the op.
    doc = json.loads(healthy_run(seed=5).build().to_json())
    receive = next(op for op in doc["ops"] if op["kind"] == "receive")
    del receive["value"]["receive_count"]
    path = tmp_path / "h.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(HistoryError, match=rf"h.json: history is malformed: op "
                                           rf"{receive['index']} \(ok receive by worker-\d"):
        History.load(path)


def test_ops_are_typed_by_kind_and_type():
    h = healthy_run(seed=6).build()
    sends = h.of_kind("send")
    assert {type(op.value).__name__ for op in sends} == {"Send"}
    assert all(isinstance(op.value.valid, bool) for op in sends)
    other = parse_op({"index": 0, "time": 0.0, "process": "app", "kind": "write",
                      "type": "info", "value": {"key": "t", "error": "cut"}})
    assert type(other.value).__name__ == "Value" and other.value.error == "cut"
    failed = parse_op({"index": 0, "time": 0.0, "process": "app", "kind": "write",
                       "type": "fail", "value": {"key": "t", "error": "refused"}})
    assert type(failed.value).__name__ == "WriteFailed"
