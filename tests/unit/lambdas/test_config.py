"""What the kit reads of a deployed function and its mapping, from moto's Lambda API
(CreateFunction without docker stores handler, runtime, timeout, environment, role;
CreateEventSourceMapping stores batch size, window, scaling and response types)."""

from __future__ import annotations

from collections.abc import Iterator

import boto3
import pytest
from moto import mock_aws

from kit.errors import InputError
from kit.lambdas import config
from tests.unit.lambdas.moto_function import REGION, function


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                        "AWS_DEFAULT_REGION": REGION}.items():
        monkeypatch.setenv(name, value)
    with mock_aws():
        yield


def _queue(name: str = "orders") -> str:
    sqs = boto3.client("sqs", region_name=REGION)
    url = sqs.create_queue(QueueName=name)["QueueUrl"]
    return sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])[
        "Attributes"]["QueueArn"]


def test_the_function_and_its_mapping_read_back_as_deployed(aws: None) -> None:
    arn = function(Timeout=7, Environment={"Variables": {"TABLE": "effects"}})
    lam = boto3.client("lambda", region_name=REGION)
    lam.put_function_concurrency(FunctionName=arn, ReservedConcurrentExecutions=3)
    queue = _queue()
    lam.create_event_source_mapping(
        EventSourceArn=queue, FunctionName=arn, BatchSize=5,
        MaximumBatchingWindowInSeconds=2, ScalingConfig={"MaximumConcurrency": 2},
        FunctionResponseTypes=["ReportBatchItemFailures"])
    found, mappings = config.read(lam, arn, "here")
    assert (found.handler, found.runtime, found.timeout, found.env, found.reserved) == (
        "handler.handle", "python3.11", 7, {"TABLE": "effects"}, 3)
    assert found.role.endswith(":role/consumer-role")
    (mapping,) = mappings
    assert (mapping.queue_arn, mapping.batch_size, mapping.window,
            mapping.maximum_concurrency, mapping.report_failures, mapping.enabled) == (
        queue, 5, 2.0, 2, True, True)
    assert config.pollers(mapping) == 2


def test_lambda_defaults_fill_what_the_mapping_leaves_out(aws: None) -> None:
    arn = function()
    lam = boto3.client("lambda", region_name=REGION)
    lam.create_event_source_mapping(EventSourceArn=_queue(), FunctionName=arn)
    found, (mapping,) = config.read(lam, arn, "here")
    # Defaults: timeout 3 s (CreateFunction), batch size 10, no window, no response types.
    assert (found.timeout, found.reserved) == (3, None)
    assert (mapping.batch_size, mapping.window, mapping.report_failures) == (10, 0.0, False)
    assert config.pollers(mapping) == config.DEFAULT_POLLERS
    assert config.reserved_concurrency(lam, arn) is None


def test_a_disabled_mapping_reads_as_disabled(aws: None) -> None:
    arn = function()
    lam = boto3.client("lambda", region_name=REGION)
    lam.create_event_source_mapping(EventSourceArn=_queue(), FunctionName=arn, Enabled=False)
    _, (mapping,) = config.read(lam, arn, "here")
    assert mapping.enabled is False


def test_a_runtime_other_than_python_is_a_clear_input_error(aws: None) -> None:
    arn = function(Runtime="nodejs20.x", Handler="index.handler")
    lam = boto3.client("lambda", region_name=REGION)
    with pytest.raises(InputError, match=r"workers.function .*nodejs20.x.*Python"):
        config.read(lam, arn, "workers.function function.consumer")


def test_a_handler_without_a_module_is_refused() -> None:
    reply = {"Configuration": {"FunctionName": "f", "FunctionArn": "a", "Role": "r",
                               "Runtime": "python3.12", "Handler": "handle"}}
    with pytest.raises(InputError, match="module.function"):
        config.function_config(reply, "here")


def test_mappings_on_other_event_sources_are_not_the_kits() -> None:
    kinesis = {"UUID": "u", "EventSourceArn": "arn:aws:kinesis:us-east-1:1:stream/s"}
    assert config.sqs_mappings([kinesis]) == []


def test_the_kit_runs_at_most_max_pollers_invocations_at_once() -> None:
    mapping = config.mapping_config({"UUID": "u", "EventSourceArn": "arn:aws:sqs:r:1:q",
                                     "ScalingConfig": {"MaximumConcurrency": 1000}})
    assert config.pollers(mapping) == config.MAX_POLLERS
