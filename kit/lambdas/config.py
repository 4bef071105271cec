"""What the kit reads of a deployed Lambda function and its SQS event source mapping.

Read from the emulator's Lambda API (GetFunction, ListEventSourceMappings) after apply, as
the Lambda service would act on them; the pure `function_config` / `mapping_config` turn
the API replies into typed records, so their rules are tested without a service.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kit.errors import InputError

# Lambda's defaults ("Using Lambda with Amazon SQS", Lambda developer guide): batch size 10
# for a standard queue, function timeout 3 s (CreateFunction API reference).
DEFAULT_BATCH_SIZE = 10
DEFAULT_TIMEOUT = 3
# The poller count the kit starts when neither maximum concurrency nor reserved
# concurrency bounds it. Lambda starts with five pollers and scales up ("Configuring
# scaling behavior for SQS event source mappings"); five invocations at once is what a
# run on two shared cores can hold.
DEFAULT_POLLERS = 5
# The most invocations the kit runs at once, whatever the mapping allows (AWS scales to
# 1,000): each is a sandbox on the run's machine, and within its connection budget
# (kit/sandbox/netns.py PER_WORKER per worker replica).
MAX_POLLERS = 8
REPORT_FAILURES = "ReportBatchItemFailures"


@dataclass(frozen=True)
class FunctionConfig:
    """The deployed function as its invocations need it."""

    name: str
    arn: str
    handler: str  # module.function, relative to the code's root
    runtime: str
    timeout: int  # seconds
    role: str  # the execution role's ARN
    env: dict[str, str] = field(default_factory=dict)
    reserved: int | None = None  # reserved concurrency (None: unreserved)
    memory: int = 128
    code: str | None = None  # where the deployed package came from (its `filename`)


@dataclass(frozen=True)
class MappingConfig:
    """An SQS event source mapping of the function."""

    uuid: str
    queue_arn: str
    batch_size: int
    window: float  # MaximumBatchingWindowInSeconds
    maximum_concurrency: int | None
    report_failures: bool
    enabled: bool


def function_config(reply: dict[str, Any], where: str) -> FunctionConfig:
    """A GetFunction reply as a FunctionConfig; InputError for a runtime the kit cannot
    run (it runs Python handlers only) or a handler that is not `module.function`."""
    conf = reply["Configuration"]
    runtime, handler = conf.get("Runtime") or "", conf.get("Handler") or ""
    if not runtime.startswith("python3"):
        raise InputError(f"{where}: function {conf['FunctionName']!r} has runtime "
                         f"{runtime or 'none (a container image)'!r}; the kit runs Python "
                         "(python3.x) zip functions only")
    module, _, func = handler.rpartition(".")
    if not module or not func:
        raise InputError(f"{where}: function {conf['FunctionName']!r} has handler "
                         f"{handler!r}; a Python handler is `module.function`")
    reserved = (reply.get("Concurrency") or {}).get("ReservedConcurrentExecutions")
    return FunctionConfig(
        name=conf["FunctionName"], arn=conf["FunctionArn"], handler=handler, runtime=runtime,
        timeout=int(conf.get("Timeout") or DEFAULT_TIMEOUT), role=conf["Role"],
        env=dict((conf.get("Environment") or {}).get("Variables") or {}),
        reserved=None if reserved is None else int(reserved),
        memory=int(conf.get("MemorySize") or 128))


def mapping_config(reply: dict[str, Any]) -> MappingConfig:
    """One entry of ListEventSourceMappings as a MappingConfig (Lambda's defaults filled)."""
    scaling = reply.get("ScalingConfig") or {}
    return MappingConfig(
        uuid=reply["UUID"], queue_arn=reply["EventSourceArn"],
        batch_size=int(reply.get("BatchSize") or DEFAULT_BATCH_SIZE),
        window=float(reply.get("MaximumBatchingWindowInSeconds") or 0),
        maximum_concurrency=scaling.get("MaximumConcurrency"),
        report_failures=REPORT_FAILURES in (reply.get("FunctionResponseTypes") or []),
        enabled=reply.get("State", "Enabled") in ("Enabled", "Enabling", "Creating"))


def sqs_mappings(replies: list[dict[str, Any]]) -> list[MappingConfig]:
    """The function's mappings on SQS queues (other event sources are not the kit's)."""
    return [mapping_config(r) for r in replies
            if r.get("EventSourceArn", "").startswith("arn:aws:sqs:")]


def pollers(mapping: MappingConfig) -> int:
    """How many invocations the mapping runs at once, before reserved concurrency: its
    maximum concurrency ("Configuring scaling behavior for SQS event source mappings": "the
    maximum number of concurrent functions that an event source can invoke"), else the
    kit's starting scale; at most MAX_POLLERS."""
    return min(mapping.maximum_concurrency or DEFAULT_POLLERS, MAX_POLLERS)


def read(admin: Any, function_arn: str, where: str) -> tuple[FunctionConfig, list[MappingConfig]]:
    """The deployed function and its SQS mappings (the kit's admin Lambda client)."""
    config = function_config(admin.get_function(FunctionName=function_arn), where)
    pages = admin.get_paginator("list_event_source_mappings").paginate(
        FunctionName=function_arn)
    return config, sqs_mappings([m for page in pages for m in page["EventSourceMappings"]])


def reserved_concurrency(admin: Any, function_arn: str) -> int | None:
    """The function's reserved concurrency now (GetFunctionConcurrency; None: unreserved)."""
    return admin.get_function_concurrency(FunctionName=function_arn).get(
        "ReservedConcurrentExecutions")
