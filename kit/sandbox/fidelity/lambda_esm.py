"""Lambda: SQS event source mappings are polled by the kit, not by moto's SQS model.

moto internals touched: moto.sqs.models.Queue.__init__, Queue.lambda_event_source_mappings
(walked by Queue.add_message), Queue._kit_polls_mappings, moto.sqs.models.sqs_backends,
SQSBackend.queues, Queue.queue_arn, Queue.visibility_timeout,
moto.awslambda.models.LambdaBackend.create_event_source_mapping, LambdaBackend._lambdas,
LambdaBackend.account_id, LambdaBackend.region_name,
LambdaStorage.get_function_by_name_or_arn_with_qualifier, LambdaFunction.timeout,
moto.awslambda.exceptions.InvalidParameterValueException.
"""

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


def mappings_need_the_visibility_timeout_to_cover_the_function() -> None:
    """CreateEventSourceMapping refuses an SQS queue whose visibility timeout is shorter
    than the function's timeout: InvalidParameterValueException "Queue visibility timeout:
    <v> seconds is less than Function timeout: <t> seconds".

    AWS ("Using Lambda with Amazon SQS", configuring a queue: the visibility timeout must
    be at least the function's timeout; the error as AWS words it is quoted in
    hashicorp/terraform-provider-aws#18099). moto 5.2 creates the mapping.
    """
    from moto.awslambda.exceptions import InvalidParameterValueException
    from moto.awslambda.models import LambdaBackend
    from moto.sqs.models import sqs_backends

    original = LambdaBackend.create_event_source_mapping
    if getattr(original, "_kit_checks_visibility", False):
        return

    def create_event_source_mapping(self: Any, spec: dict[str, Any]) -> Any:
        arn = spec.get("EventSourceArn") or ""
        name = spec.get("FunctionName") or ""
        if arn.startswith("arn:aws:sqs:") and name:
            func = self._lambdas.get_function_by_name_or_arn_with_qualifier(name)
            queues = sqs_backends[self.account_id][self.region_name].queues.values()
            queue = next((q for q in queues if q.queue_arn == arn), None)
            visibility = int(queue.visibility_timeout) if queue is not None else None
            timeout = int(func.timeout or 3)
            if visibility is not None and visibility < timeout:
                raise InvalidParameterValueException(
                    f"Queue visibility timeout: {visibility} seconds is less than Function "
                    f"timeout: {timeout} seconds")
        return original(self, spec)

    create_event_source_mapping._kit_checks_visibility = True  # type: ignore[attr-defined]
    LambdaBackend.create_event_source_mapping = create_event_source_mapping  # type: ignore[method-assign]
