"""Lambda: SQS event source mappings are polled by the kit, not by moto's SQS model."""

from __future__ import annotations

from typing import Any


class _Registered(dict):  # type: ignore[type-arg]
    """A queue's event source mappings, kept for moto's Lambda API (create, get, delete)
    but never iterated to invoke: moto's Queue.add_message walks `items()` to receive and
    invoke on every send, which the kit's Lambda service (kit/lambdas/) does instead."""

    def items(self) -> Any:
        return iter(())


def event_source_mappings_left_to_the_kit() -> None:
    """A message sent to a queue with an SQS event source mapping waits in the queue until
    the mapping's poller receives it (its receive count untouched by the send).

    AWS ("Using Lambda with Amazon SQS", Lambda developer guide): "Lambda polls the queue
    and invokes your Lambda function synchronously with an event that contains queue
    messages"; the poller is the Lambda service's, which long-polls in batches. moto 5.2
    instead receives the message inside SendMessage and tries to invoke the function in
    docker: without docker the message comes back with its receive count raised, so
    maxReceiveCount would be spent by sends. The kit plays the Lambda service.
    """
    from moto.sqs.models import Queue

    if getattr(Queue, "_kit_polls_mappings", False):
        return
    original = Queue.__init__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        self.lambda_event_source_mappings = _Registered()

    Queue.__init__ = __init__  # type: ignore[method-assign]
    Queue._kit_polls_mappings = True  # type: ignore[attr-defined]
