"""SQS: attributes and delivery order as AWS has them.

moto internals touched: moto.sqs.models.Queue.BASE_ATTRIBUTES, Queue.redrive_allow_policy,
Queue.attributes, Queue.redrive_policy, Queue.fifo_queue, Queue._messages,
Queue._messages_lock, Queue.add_message, Queue._set_attributes, Queue.policy,
Queue.delete_message, Queue.deleted_messages, Queue.__dict__, Message.had_receipt_handle,
Message.receipt_handle, Message.visible, Message.deduplication_id, Message.group_id,
Message.sent_timestamp, moto.sqs.models.SQSBackend.change_message_visibility,
SQSBackend.receive_message, SQSBackend.get_queue, SQSBackend.purge_queue,
Queue.approximate_number_of_messages (and _delayed, _not_visible), Queue.pending_messages,
moto.sqs.models.DEDUPLICATION_TIME_IN_SECONDS, moto.sqs.exceptions.SQSException,
moto.sqs.exceptions.ReceiptHandleIsInvalid (subclassed); Queue._messages_lock is a
Condition over an RLock, the same in moto 5.2.5 and 5.2.6.
"""

from __future__ import annotations

import functools
import json
from typing import Any


def restore_redrive_allow_policy() -> None:
    """SQS stores and returns the RedriveAllowPolicy queue attribute (moto 5.2 drops it).

    AWS: SetQueueAttributes/CreateQueue accept RedriveAllowPolicy and GetQueueAttributes
    returns it; `aws_sqs_queue_redrive_allow_policy` waits for it to read back.
    """
    from moto.sqs.models import Queue

    if "RedriveAllowPolicy" in Queue.BASE_ATTRIBUTES:
        return
    Queue.BASE_ATTRIBUTES.append("RedriveAllowPolicy")
    Queue.redrive_allow_policy = None  # type: ignore[attr-defined]
    original = Queue.attributes.fget  # type: ignore[attr-defined]

    def attributes(self: Any) -> dict[str, Any]:
        result = original(self)
        if not result.get("RedriveAllowPolicy"):
            result.pop("RedriveAllowPolicy", None)
        return result

    Queue.attributes = property(attributes)  # type: ignore[assignment]


def redrive_policy_reads_back_compact() -> None:
    """GetQueueAttributes returns RedrivePolicy as compact JSON, as SetQueueAttributes or
    `aws_sqs_queue_redrive_policy` (Terraform's jsonencode) sent it.

    AWS (SQS API reference, SetQueueAttributes / GetQueueAttributes, RedrivePolicy: a JSON
    object as a string, deadLetterTargetArn and maxReceiveCount; returned without the
    blanks Python adds). moto 5.2 re-serializes it with Python's default separators
    (`", "`, `": "`), so every queue whose redrive policy was set apart
    (terraform-aws-modules/sqs's aws_sqs_queue_redrive_policy) plans a change right after
    the apply, which terraform-aws-modules/sqs's complete example does not on AWS.
    """

    from moto.sqs.models import Queue

    original = Queue.attributes.fget  # type: ignore[attr-defined]
    if getattr(original, "_kit_compact", False):
        return

    def attributes(self: Any) -> dict[str, Any]:
        result = original(self)
        if self.redrive_policy and result.get("RedrivePolicy"):
            result["RedrivePolicy"] = json.dumps(self.redrive_policy, separators=(",", ":"))
        return result

    attributes._kit_compact = True  # type: ignore[attr-defined]
    Queue.attributes = property(attributes)  # type: ignore[assignment]


def released_messages_wait_their_turn() -> None:
    """SQS standard queues: a message released with ChangeMessageVisibility(0) does not jump
    ahead of the messages already waiting.

    AWS: standard queues deliver in best-effort order, sampling many servers, so a released
    message is one among all visible ones. moto always hands out the oldest visible message
    first, so a few released poison messages would be received forever and starve every
    valid message behind them, something AWS does not do. Here a released message moves to
    the back of the queue.

    Not for FIFO queues: there AWS keeps the order within a message group, so a released
    message is the next of its group again ("Amazon SQS FIFO queues": "messages within a
    message group are received in the order they were sent"; a returned message is
    delivered again before later messages of its group).
    """
    from moto.sqs.models import SQSBackend

    if getattr(SQSBackend.change_message_visibility, "_kit_fix", False):
        return
    original = SQSBackend.change_message_visibility

    def change_message_visibility(self: Any, queue_name: str, receipt_handle: str,
                                  visibility_timeout: int) -> None:
        original(self, queue_name, receipt_handle, visibility_timeout)
        queue = self.get_queue(queue_name)
        if int(visibility_timeout) != 0 or queue.fifo_queue:
            return
        with queue._messages_lock:
            for message in list(queue._messages):
                if message.had_receipt_handle(receipt_handle):
                    queue._messages.remove(message)
                    queue._messages.append(message)
                    break

    change_message_visibility._kit_fix = True  # type: ignore[attr-defined]
    SQSBackend.change_message_visibility = change_message_visibility  # type: ignore[method-assign]


def receives_are_atomic() -> None:
    """SQS: a message is handed to at most one ReceiveMessage call until its visibility
    timeout ends, and in a FIFO queue no later message of its group is handed out while it
    is in flight.

    AWS, SQS Developer Guide, "Amazon SQS visibility timeout": "Immediately after a message
    is received, it remains in the queue. To prevent other consumers from processing the
    message again, Amazon SQS sets a visibility timeout". moto checks visibility and marks
    a message received without a lock, so two concurrent receives (the server is threaded)
    can both take the same message: the kit would then see two workers holding it. Here
    each pass over the queue runs under the queue's lock; a long poll waits between passes
    without it (woken by a new message, or at POLL_SECONDS for a lapsed timeout or a FIFO
    group set free), instead of moto's own loop, which spins while every visible message
    belongs to a group in flight. Before each pass, the messages whose timeout lapsed are no
    longer in flight (`_lapsed_are_not_in_flight`).
    """
    import time

    from moto.sqs.models import SQSBackend

    if getattr(SQSBackend.receive_message, "_kit_fix", False):
        return
    original = SQSBackend.receive_message

    def receive_message(self: Any, queue_name: str, count: int, wait_seconds_timeout: int,
                        visibility_timeout: int,
                        message_attribute_names: list[str] | None = None) -> list[Any]:
        queue = self.get_queue(queue_name)
        deadline = time.monotonic() + (wait_seconds_timeout or 0)
        while True:
            with queue._messages_lock:
                _lapsed_are_not_in_flight(queue)
                got = original(self, queue_name, count, 0, visibility_timeout,
                               message_attribute_names)
                remaining = deadline - time.monotonic()
                if got or remaining <= 0:
                    return got
                queue._messages_lock.wait(timeout=min(POLL_SECONDS, remaining))

    receive_message._kit_fix = True  # type: ignore[attr-defined]
    SQSBackend.receive_message = receive_message  # type: ignore[method-assign]


def _lapsed_are_not_in_flight(queue: Any) -> None:
    """Forget as in flight every message whose visibility timeout has ended.

    moto takes a FIFO queue's groups in flight from its pending messages once per receive
    and forgets a lapsed one only when its pass reaches it: of a batch that lapsed
    together (a0, a1 of group A), a0 is skipped because a1 still counts as in flight, then
    a1 frees the group and a1 and the later a2 are delivered before a0, against AWS's
    order within a group ("a returned message is delivered again before later messages
    of its group"; tests/integration/test_fifo_fidelity.py).
    """
    for message in [m for m in queue.pending_messages if m.visible]:
        queue.pending_messages.discard(message)


POLL_SECONDS = 0.05


def deduplication_outlives_deletion() -> None:
    """SQS FIFO: a message with the deduplication ID of one sent in the last 5 minutes is
    accepted but not delivered, even if the first was received and deleted meanwhile.

    AWS, SendMessage API reference, MessageDeduplicationId: "If a message with a particular
    MessageDeduplicationId is sent successfully, any messages sent with the same
    MessageDeduplicationId are accepted successfully but aren't delivered during the
    5-minute deduplication interval"; with DeduplicationScope "messageGroup" the ID is
    unique within its message group. moto compares only with the messages still in the
    queue, so a duplicate of a message already deleted is delivered again.
    """
    import time

    from moto.sqs.models import DEDUPLICATION_TIME_IN_SECONDS, Queue

    if getattr(Queue.add_message, "_kit_fix", False):
        return
    original = Queue.add_message

    def add_message(self: Any, message: Any) -> None:
        if self.fifo_queue and message.deduplication_id:
            per_group = self.attributes.get("DeduplicationScope") == "messageGroup"
            key = (message.group_id if per_group else None, message.deduplication_id)
            accepted: dict[Any, float] = self.__dict__.setdefault("_kit_deduplication", {})
            now = (message.sent_timestamp or time.time() * 1000) / 1000
            if now - accepted.get(key, float("-inf")) < DEDUPLICATION_TIME_IN_SECONDS:
                return
            accepted[key] = now
        original(self, message)

    add_message._kit_fix = True  # type: ignore[attr-defined]
    Queue.add_message = add_message  # type: ignore[method-assign]


def setting_other_attributes_keeps_the_policy() -> None:
    """SetQueueAttributes without a Policy leaves the queue's policy as it was.

    AWS (SQS API reference, SetQueueAttributes): it sets the attributes given; the others
    keep their values. moto 5.2 sets the policy to the request's Policy, None when absent,
    so setting RedriveAllowPolicy or VisibilityTimeout deletes a queue policy set just
    before (an apply that sets both at once fails at random: "attribute (Policy): empty
    result").
    """
    from moto.sqs.models import Queue

    original = Queue._set_attributes
    if getattr(original, "_kit_fix", False):
        return

    def _set_attributes(self: Any, attributes: dict[str, Any], now: float | None = None
                        ) -> None:
        policy = getattr(self, "policy", None)
        original(self, attributes, now)
        if "Policy" not in attributes:
            self.policy = policy

    _set_attributes._kit_fix = True  # type: ignore[attr-defined]
    Queue._set_attributes = _set_attributes  # type: ignore[method-assign]


def queue_policies_are_checked() -> None:
    """SetQueueAttributes and CreateQueue refuse a Policy AWS would not store.

    AWS: a policy without a statement is refused with InvalidAttributeValue, "Invalid
    value for the parameter Policy." (cloud-custodian#1816: removing a queue policy's last
    statement); a policy without `Version` is accepted but never stored, so the AWS
    provider waits for it to read back until its 20-minute timeout (the provider's
    aws_sqs_queue_policy documentation, terraform-provider-aws#29497). moto stores the
    second and drops the first silently, so an apply passes with a policy AWS never
    has, or waits forever for one moto will not return. Here both are refused at once,
    the message naming what AWS does, so the apply fails on the solution's policy.

    The code is AWS's; the message is not, on purpose: the AWS provider retries a
    SetQueueAttributes refused with "Invalid value for the parameter Policy" for half its
    create timeout (10 minutes; IAM propagation of a principal just created), on AWS too,
    and fails after. Worded otherwise, the apply fails at once, as it ends on AWS.
    """
    from moto.sqs.exceptions import SQSException
    from moto.sqs.models import Queue

    original = Queue._set_attributes
    if getattr(original, "_kit_policy_checked", False):
        return

    def _set_attributes(self: Any, attributes: dict[str, Any], now: float | None = None
                        ) -> None:
        problem = _policy_problem(attributes.get("Policy"))
        if problem:
            raise SQSException("InvalidAttributeValue",
                               f"The queue's Policy is invalid: {problem}")
        original(self, attributes, now)

    _set_attributes._kit_policy_checked = True  # type: ignore[attr-defined]
    Queue._set_attributes = _set_attributes  # type: ignore[method-assign]


def _policy_problem(policy: Any) -> str:
    """Why AWS would not store this queue policy ("" when it would, or none is set)."""
    if not policy:
        return ""  # an empty Policy removes the queue's policy
    try:
        document = json.loads(policy)
    except ValueError:
        return "it is not JSON."
    if not isinstance(document, dict) or not document.get("Statement"):
        return "it has no statement."
    if "Version" not in document:
        return ("it has no Version: AWS accepts such a queue policy but never stores it, "
                "and the AWS provider waits for it until its timeout "
                "(terraform-provider-aws#29497); set Version = \"2012-10-17\".")
    return ""


def fifo_receipt_handles_expire() -> None:
    """SQS FIFO: a delete with a receipt handle whose visibility timeout has ended is
    refused (InvalidParameterValue, "The receipt handle has expired"); the message stays.

    AWS Knowledge Center, "Why do I get a ReceiptHandleIsInvalid or InvalidParameterValue
    error when I delete messages from my Amazon SQS queue?": "The receipt handle expires
    after a visibility timeout period" and the delete fails with "Value ... for parameter
    ReceiptHandle is invalid. Reason: The receipt handle has expired."; "Old receipt handles
    might work if you're using standard SQS queues" (so standard queues keep moto's way).
    moto deletes a message with any handle it ever had, so a FIFO worker that deletes after
    its lease lapsed, while another worker may hold the message, succeeds on moto and fails
    on AWS. In a batch the entry fails and the others go on (moto's batch reports it).
    """
    from moto.sqs.exceptions import ReceiptHandleIsInvalid, SQSException
    from moto.sqs.models import Queue

    if getattr(Queue.delete_message, "_kit_fix", False):
        return
    original = Queue.delete_message

    class ReceiptHandleExpired(ReceiptHandleIsInvalid):
        def __init__(self, handle: str) -> None:
            SQSException.__init__(self, "InvalidParameterValue",
                                  f"Value {handle} for parameter ReceiptHandle is invalid. "
                                  "Reason: The receipt handle has expired.")

    def delete_message(self: Any, receipt_handle: str) -> None:
        if self.fifo_queue and receipt_handle not in self.deleted_messages:
            for message in self._messages:
                if message.had_receipt_handle(receipt_handle) and (
                        message.visible or message.receipt_handle != receipt_handle):
                    raise ReceiptHandleExpired(receipt_handle)
        original(self, receipt_handle)

    delete_message._kit_fix = True  # type: ignore[attr-defined]
    Queue.delete_message = delete_message  # type: ignore[method-assign]


def queue_changes_hold_the_lock() -> None:
    """SQS: a delete, a visibility change or a purge never loses or repeats another message.

    AWS: a message leaves a queue only when it is deleted, purged, redriven or expires.
    moto's Queue.delete_message rebuilds `_messages` from a walk over it without the queue's
    lock, while a send, a receive (redriving to the DLQ) and the release to the back
    (released_messages_wait_their_turn) change it under the lock: a message appended during
    the walk is dropped with the old list, one moved during it is skipped or kept twice
    (issue 45: a valid message never received; the DLQ holding one message twice). Here
    every path that changes a queue's messages, and the counts read from them, hold the
    lock (re-entrant: the fixes above already hold it around moto's code). Apply after the
    other SQS fixes, so it wraps them too.
    """
    from moto.sqs.models import Queue, SQSBackend

    if getattr(Queue.delete_message, "_kit_locked", False):
        return

    def on_queue(method: Any) -> Any:
        @functools.wraps(method)
        def locked(self: Any, *args: Any, **kwargs: Any) -> Any:
            with self._messages_lock:
                return method(self, *args, **kwargs)
        locked._kit_locked = True  # type: ignore[attr-defined]
        return locked

    def on_backend(method: Any) -> Any:
        @functools.wraps(method)
        def locked(self: Any, queue_name: str, *args: Any, **kwargs: Any) -> Any:
            with self.get_queue(queue_name)._messages_lock:
                return method(self, queue_name, *args, **kwargs)
        locked._kit_locked = True  # type: ignore[attr-defined]
        return locked

    # delete_message_batch and change_message_visibility_batch go through these.
    Queue.delete_message = on_queue(Queue.delete_message)  # type: ignore[method-assign]
    Queue.add_message = on_queue(Queue.add_message)  # type: ignore[method-assign]
    for name in ("change_message_visibility", "purge_queue"):
        setattr(SQSBackend, name, on_backend(getattr(SQSBackend, name)))
    for name in ("approximate_number_of_messages", "approximate_number_of_messages_delayed",
                 "approximate_number_of_messages_not_visible"):
        setattr(Queue, name, property(on_queue(getattr(Queue, name).fget)))
