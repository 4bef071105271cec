"""The stop rule of a queue run (kit/run/stop.py): it ends early only when nothing valid can
still take effect: nothing visible, in flight (emulator and history) or delayed."""

from __future__ import annotations

import time

import boto3
import pytest
from moto import mock_aws

from kit.recorder import Recorder
from kit.run import queue, stop

QUIET = stop.QUIET_SECONDS


def _look(**counts: int | bool) -> stop.Look:
    base: dict = {"visible": 0, "not_visible": 0, "delayed": 0, "open_receives": 0,
                  "all_recorded": False}
    return stop.Look(**{**base, **counts})


def test_all_zero_stops_at_once_when_every_key_is_recorded() -> None:
    assert stop.may_stop(_look(all_recorded=True), quiet_for=0)


def test_all_zero_with_a_key_missing_stops_only_once_quiet() -> None:
    # A dropped message does not come back; a transient zero (a fan-out on its way) might.
    assert not stop.may_stop(_look(), quiet_for=QUIET - 0.1)
    assert stop.may_stop(_look(), quiet_for=QUIET)


@pytest.mark.parametrize("busy", ["visible", "not_visible", "delayed", "open_receives"])
def test_anything_still_due_holds_the_run(busy: str) -> None:
    # A message in flight (or an open receive) while every other count is zero: it can still
    # take effect, or take effect twice, however long the rest has been quiet.
    look = _look(**{busy: 1}, all_recorded=True)
    assert not stop.settled(look)
    assert not stop.may_stop(look, quiet_for=1e9)


def test_an_open_receive_in_the_history_holds_the_run_until_it_completes() -> None:
    rec = Recorder()
    rec.record("worker-0", "invocation", type="invoke", function="f", request_id="r",
               batch_size=1, message_ids=["m"])
    rec.record("worker-1", "invocation", type="invoke", function="f", request_id="s",
               batch_size=1, message_ids=["n"])
    assert stop.open_calls(rec.snapshot()) == 2
    assert not stop.may_stop(_look(open_receives=stop.open_calls(rec.snapshot()),
                                   all_recorded=True), quiet_for=1e9)
    rec.record("worker-0", "invocation", type="info", function="f", batch_size=1)
    assert stop.open_calls(rec.snapshot()) == 1
    # A process that ended has no call in progress any more.
    rec.record("kit", "worker_exit", worker="worker-1", pid=0, code=None, signal="SIGKILL")
    assert stop.open_calls(rec.snapshot()) == 0


def test_the_window_runs_to_the_rto_after_the_fault_end_plus_a_visibility_timeout() -> None:
    rec = Recorder()
    assert stop.window_end(rec.snapshot(), 30, 20) == float("-inf")
    rec.record("nemesis", "fault_end", fault="worker_crash", detail={})
    end = rec.snapshot()[-1].time
    assert stop.window_end(rec.snapshot(), 30, 20) == pytest.approx(end + 50)
    assert stop.window_end(rec.snapshot(), 30, 1e6) == pytest.approx(
        end + 30 + stop.MAX_VISIBILITY_WAIT)
    # The wait runs to the window when it ends after the quiescence timeout, never less.
    assert stop.wait_until(10, 60, end + 50) == max(70, end + 50)


class _Seen:
    """What the run's observer exposes to the wait: the keys recorded so far."""

    def __init__(self, seen: set[str]) -> None:
        self.seen = seen


@pytest.mark.parametrize(("delay", "waits"), [(0, False), (900, True)])
@mock_aws
def test_a_delayed_message_holds_the_run_to_its_bound(delay: int, waits: bool) -> None:
    # Every valid key recorded, the other queue empty, one message sent with a delay (or a
    # plain one, received and deleted): the delayed one can still take effect.
    sqs = boto3.client("sqs", region_name="us-east-1")
    work = sqs.create_queue(QueueName="work")["QueueUrl"]
    other = sqs.create_queue(QueueName="other")["QueueUrl"]
    sqs.send_message(QueueUrl=work, MessageBody="m", DelaySeconds=delay)
    if not delay:
        got = sqs.receive_message(QueueUrl=work)["Messages"][0]
        sqs.delete_message(QueueUrl=work, ReceiptHandle=got["ReceiptHandle"])
    bound = 1.0
    began = time.monotonic()
    queue.await_quiescence(sqs, [work, other], {"a"}, _Seen({"a"}), Recorder(), bound, 0)
    took = time.monotonic() - began
    assert (took >= bound) is waits, took
