"""The Lambda service of a run, built from what was deployed and bound (the queue workload
uses it in place of the worker supervisor for `workers: {kind: lambda}`)."""

from __future__ import annotations

from collections.abc import Callable

from kit import aws
from kit.lambdas import config, package
from kit.lambdas.direct import Invoker
from kit.lambdas.service import Deployed, LambdaService
from kit.run.bind import AWS_ENDPOINT, Bound
from kit.run.context import RunContext
from kit.workload.supervisor import NoSession


def deployed(ctx: RunContext, bound: Bound) -> Deployed:
    """The scenario's function as deployed: its config, its first enabled SQS mapping
    (by queue ARN), that queue's URL and the handler's directory in the workspace."""
    workers = ctx.scenario.workers
    assert workers is not None and workers.function is not None and ctx.tf is not None
    arn = bound.values[f"{workers.function}.arn"]
    function, mappings = config.read(ctx.admin("lambda"), arn,
                                     f"workers.function {workers.function}")
    enabled = sorted((m for m in mappings if m.enabled), key=lambda m: m.queue_arn)
    mapping = enabled[0] if enabled else None
    url = ""
    if mapping is not None:
        url = aws.queue_url(ctx.admin("sqs"), mapping.queue_arn)
    code = package.code_dir(ctx.tf.dir, workers.source, function.name, ctx.tf.root)
    ctx.recorder.record("kit", "lambda", function=function.name, handler=function.handler,
                        timeout=function.timeout, reserved=function.reserved, code=code,
                        mapping=None if mapping is None else {
                            "queue_arn": mapping.queue_arn, "batch_size": mapping.batch_size,
                            "window": mapping.window,
                            "maximum_concurrency": mapping.maximum_concurrency,
                            "report_failures": mapping.report_failures})
    return Deployed(function, mapping, url, code)


def service(ctx: RunContext, bound: Bound, refused: Callable[[], bool]) -> LambdaService:
    """The run's Lambda service: sessions of the function's execution role per slot, each
    refused (NoSession) when `refused()` says the role's trust no longer admits Lambda."""
    found = deployed(ctx, bound)

    def session_for(name: str) -> aws.Credentials:
        # Each execution environment assumes the role anew, as Lambda does: a trust policy
        # narrowed since the last one refuses it.
        if refused():
            raise NoSession(name)
        # Lambda assumes the function's own role (its `role`), whatever the scenario binds.
        return bound.session_of(found.function.role, name)

    describe = ctx.scenario.workload_module.describe
    return LambdaService(found, bound.confinement, _endpoint(bound), session_for, bound.gateway.url,
                         ctx.admin("lambda"), ctx.run_dir, ctx.recorder,
                         lambda body: describe(body).key)


def invoker(ctx: RunContext, bound: Bound) -> Invoker:
    """Synchronous invocations of the run's deployed functions by ARN (a service the kit
    plays invokes them); each environment assumes the function's own role."""
    assert ctx.tf is not None
    return Invoker(ctx.admin("lambda"), bound.confinement, _endpoint(bound), bound.session_of,
                   ctx.tf.dir, ctx.tf.root, ctx.run_dir)


def _endpoint(bound: Bound) -> dict[str, str]:
    """What a function's environment gets besides its own variables: the AWS endpoint."""
    return {"AWS_ENDPOINT_URL": bound.values[AWS_ENDPOINT], "AWS_REGION": aws.REGION,
            "AWS_DEFAULT_REGION": aws.REGION, "PATH": "/usr/bin:/bin", "HOME": "/tmp",
            "PYTHONUNBUFFERED": "1", "LANG": "C.UTF-8"}
