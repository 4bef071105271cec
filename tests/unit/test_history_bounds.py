"""Bounded history fields: whatever a worker sends, a recorded field stays small and says
how much was cut."""

from __future__ import annotations

import json

import pytest

from kit.history import MAX_ITEMS, MAX_KEY_ID, MAX_TEXT, HistoryError, bounded, clip
from kit.recorder import Recorder


def test_short_text_is_kept_whole() -> None:
    assert clip("arn:aws:sqs:us-east-1:000000000000:orders") == \
        "arn:aws:sqs:us-east-1:000000000000:orders"
    assert clip("x" * MAX_TEXT) == "x" * MAX_TEXT


def test_long_text_is_cut_with_a_marker_saying_how_much() -> None:
    cut = clip("A" * 61_440, MAX_KEY_ID)
    assert cut.startswith("A" * MAX_KEY_ID)
    assert cut.endswith(f"[kit: {61_440 - MAX_KEY_ID} more characters cut]")
    assert len(cut) < MAX_KEY_ID + 64


def test_bounded_reaches_nested_strings_and_long_lists() -> None:
    value = bounded({"reason": "r" * 100_000, "deciding": ["p" * 5000] * 1000,
                     "count": 3, "none": None, "nested": {"k" * 3000: ("v" * 3000,)}})
    assert len(value["reason"]) < MAX_TEXT + 64
    assert len(value["deciding"]) == MAX_ITEMS + 1
    assert value["deciding"][-1] == f"...[kit: {1000 - MAX_ITEMS} more items cut]"
    assert all(len(item) < MAX_TEXT + 64 for item in value["deciding"])
    assert value["count"] == 3 and value["none"] is None
    key, = value["nested"]
    assert len(key) < MAX_TEXT + 64 and len(value["nested"][key][0]) < MAX_TEXT + 64


def test_a_history_of_refusals_stays_small() -> None:
    # The red team's 60 KB access key ids, a thousand times: a few hundred KB, not 60 MB.
    recorder = Recorder()
    for _ in range(1000):
        recorder.record("unknown", "authn", access_key_id=clip("K" * 61_440, MAX_KEY_ID),
                        **bounded({"message": "m" * 61_440, "resource": "r" * 61_440}))
    size = len(recorder.history(None).to_json())
    assert size < 3 * 1000 * (MAX_KEY_ID + 2 * MAX_TEXT), size
    assert json.loads(recorder.history(None).to_json())["ops"][0]["value"]["access_key_id"] \
        .endswith("more characters cut]")


def test_refusal_ops_are_checked_for_their_fields() -> None:
    recorder = Recorder()
    recorder.record("worker-0#0", "connection_refused", port=1, refused=1, limit=64)
    recorder.record("unknown", "request_refused", code="X", reason="y")
    assert [op.kind for op in recorder.history(None).ops] == \
        ["connection_refused", "request_refused"]
    # A malformed op fails where it is recorded, naming the op and its field.
    with pytest.raises(HistoryError, match=r"op 2 \(ok connection_refused by worker-0#0\): "
                                           r"missing field 'refused'"):
        recorder.record("worker-0#0", "connection_refused", port=1, limit=64)


def test_repeatable_refusals_are_sampled_with_their_count() -> None:
    recorder = Recorder()
    for _ in range(10_000):
        recorder.record_sampled("worker-0#0", "authn", error="InvalidClientTokenId")
    recorder.record_sampled("worker-1#0", "authn", error="InvalidClientTokenId")
    counts = [op.value.occurrence for op in recorder.snapshot()
              if op.process == "worker-0#0"]
    assert counts == [*range(1, 21), 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]
    assert [op.value.occurrence for op in recorder.snapshot()
            if op.process == "worker-1#0"] == [1]
