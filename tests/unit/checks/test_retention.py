"""delivery.retention: judged from the queues' MessageRetentionPeriod after the run.

AWS: Amazon SQS API Reference, SetQueueAttributes, MessageRetentionPeriod ("The length of
time, in seconds, for which Amazon SQS retains a message. Valid values: An integer
representing seconds, from 60 (1 minute) to 1,209,600 (14 days). Default: 345,600 (4
days)"); a message older than that is deleted whether or not it was received.
"""

from __future__ import annotations

import pytest

from kit.checks.retention import RETENTION
from kit.checks.retention import check_retention as check
from kit.history import FinalState, History

from .builder import params_of

FOUR_DAYS = 345_600
QUEUES = {"queue.orders": FOUR_DAYS, "queue.dlq": FOUR_DAYS}


def _history(attributes: dict | None) -> History:
    return History(final=FinalState(queue_attributes=attributes))


def _attrs(seconds: int) -> dict[str, str]:
    # GetQueueAttributes answers every attribute as a string.
    return {"MessageRetentionPeriod": str(seconds), "VisibilityTimeout": "30"}


def test_queues_keeping_messages_long_enough_pass():
    r = check(_history({"queue.orders": _attrs(FOUR_DAYS), "queue.dlq": _attrs(1_209_600)}),
              params_of(RETENTION, queues=QUEUES))
    assert r.verdict == "pass"
    assert r.evidence["kept_seconds"] == {"queue.orders": FOUR_DAYS, "queue.dlq": 1_209_600}


@pytest.mark.parametrize("seconds", [60, FOUR_DAYS - 1])
def test_a_queue_deleting_messages_sooner_fails_and_names_it(seconds):
    r = check(_history({"queue.orders": _attrs(seconds), "queue.dlq": _attrs(FOUR_DAYS)}),
              params_of(RETENTION, queues=QUEUES))
    assert r.verdict == "fail"
    assert r.evidence["short"]["members"] == [
        {"queue": "queue.orders", "seconds": seconds, "minimum": FOUR_DAYS}]
    assert f"queue.orders keeps a message {seconds} s" in r.summary


def test_a_queue_gone_at_the_end_fails():
    r = check(_history({"queue.orders": _attrs(FOUR_DAYS), "queue.dlq": None}),
              params_of(RETENTION, queues=QUEUES))
    assert r.verdict == "fail" and "queue.dlq does not exist" in r.summary


def test_what_the_run_did_not_read_is_an_error_not_a_verdict():
    assert check(_history(None), params_of(RETENTION, queues=QUEUES)).verdict == "error"
    unread = check(_history({"queue.orders": _attrs(FOUR_DAYS), "queue.dlq": {}}),
                   params_of(RETENTION, queues=QUEUES))
    assert unread.verdict == "error" and unread.evidence["unread"] == ["queue.dlq"]
    # A short queue is a fail even when another could not be read.
    both = check(_history({"queue.orders": _attrs(60), "queue.dlq": {}}),
                 params_of(RETENTION, queues=QUEUES))
    assert both.verdict == "fail"
    assert check(_history({}), params_of(RETENTION)).verdict == "error"
