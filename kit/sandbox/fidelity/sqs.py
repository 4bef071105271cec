"""SQS: attributes and delivery order as AWS has them."""

from __future__ import annotations

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


def released_messages_wait_their_turn() -> None:
    """SQS standard queues: a message released with ChangeMessageVisibility(0) does not jump
    ahead of the messages already waiting.

    AWS: standard queues deliver in best-effort order, sampling many servers, so a released
    message is one among all visible ones. moto always hands out the oldest visible message
    first, so a few released poison messages would be received forever and starve every
    valid message behind them, something AWS does not do. Here a released message moves to
    the back of the queue.
    """
    from moto.sqs.models import SQSBackend

    if getattr(SQSBackend.change_message_visibility, "_kit_fix", False):
        return
    original = SQSBackend.change_message_visibility

    def change_message_visibility(self: Any, queue_name: str, receipt_handle: str,
                                  visibility_timeout: int) -> None:
        original(self, queue_name, receipt_handle, visibility_timeout)
        if int(visibility_timeout) != 0:
            return
        queue = self.get_queue(queue_name)
        with queue._messages_lock:
            for message in list(queue._messages):
                if message.had_receipt_handle(receipt_handle):
                    queue._messages.remove(message)
                    queue._messages.append(message)
                    break

    change_message_visibility._kit_fix = True  # type: ignore[attr-defined]
    SQSBackend.change_message_visibility = change_message_visibility  # type: ignore[method-assign]


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
