"""The observe stage: what the run left behind, read once everything stopped (as the kit's
admin, never through the solution's roles): effects, tables and queues for the queue
workload, the database the application was left with for a drill, and for every run the
DB instances, IAM (kit/workload/iam_state.py) and the deployed configuration's facts.
Reading each service is kit/workload/final.py's; the live observer of a queue workload's
effects is kit/workload/observer.py."""

from __future__ import annotations

from typing import Any

from kit import aws
from kit.deploy import inspect
from kit.history import FinalState
from kit.run.bind import Bound, arns
from kit.run.context import RunContext
from kit.run.drill import app_endpoint
from kit.workload import final, iam_state


def observe(ctx: RunContext, bound: Bound) -> FinalState:
    """What the run left behind: tables, queues and their attributes, DB instances, IAM,
    config facts."""
    scenario = ctx.scenario
    rds = ctx.admin("rds")  # through the front: the data plane's records, if any
    kinds = {name: name.split(".", 1)[0] for name in scenario.resources}
    instances = {name: final.db_instance(rds, bound.values[f"{name}.instance"])
                 for name, kind in kinds.items() if kind == "database"}
    resources = arns(scenario, bound.values)
    roles = {name: arn for name, arn in resources.items() if kinds[name] == "role"}
    iam = iam_state.read(ctx.admin("iam"), roles,
                         {n: a for n, a in resources.items() if kinds[n] != "role"},
                         clients=ctx.admin, since=ctx.started_at)
    if bound.services:  # team mode: each role is assumed by its service, not the harness
        iam["assumed_by"] = dict(bound.services)
    assert ctx.config is not None
    # The contract's variables are set by the kit: their defaults never reach the apply.
    rds_facts = inspect.rds_config(ctx.config, passed=scenario.contract.variables)
    admin_sqs = ctx.admin("sqs")
    urls = {name: bound.values[f"{name}.url"] for name, kind in kinds.items() if kind == "queue"}
    common = {"db_instances": instances, "rds_config": rds_facts, "iam": iam,
              "queue_attributes": {name: final.queue_attributes(admin_sqs, url)
                                   for name, url in urls.items()}}
    if scenario.workload.kind == "drill":
        in_use, tables = database_in_use(ctx, bound)
        return FinalState(tables=tables, in_use=in_use, **common)
    return FinalState(**_queue_state(ctx, bound, admin_sqs, urls), **common)


def _queue_state(ctx: RunContext, bound: Bound, admin_sqs: Any,
                 urls: dict[str, str]) -> dict[str, Any]:
    """The queue workload's effects, the effects database's tables, what each queue holds."""
    messages = ctx.scenario.messages
    assert messages is not None
    rows, tables = _effect_rows(ctx, bound)
    describe = ctx.scenario.workload_module.describe
    queues = {name: final.drain(admin_sqs, url, describe) for name, url in urls.items()}
    return {"effects": final.effects(rows, messages.key), "tables": tables, "queues": queues}


def _effect_rows(ctx: RunContext, bound: Bound) -> tuple[list[dict[str, Any]],
                                                        dict[str, list[dict[str, Any]]]]:
    """(the effect rows, every table of the effects database) at the end. For a DynamoDB
    store, the tables are every declared table resource's items, by resource name (where
    idempotency.effects_once's totals find theirs)."""
    effects = ctx.scenario.workload.effects
    if effects.dynamodb:
        dynamodb = ctx.admin("dynamodb")
        tables = {name: final.items(dynamodb, bound.values[f"{name}.name"])
                  for name in ctx.scenario.resources if name.startswith("table.")}
        return tables[effects.dynamodb], tables
    if effects.bucket:
        s3 = ctx.admin("s3")
        return final.objects(s3, bound.values[f"{effects.bucket}.name"], effects.prefix), {}
    assert effects.database is not None and effects.table is not None
    tables = final.tables(bound.databases[effects.database])
    return tables.get(effects.table, []), tables


def database_in_use(ctx: RunContext, bound: Bound
                    ) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]] | None]:
    """The database the application's secret names at the end, and its tables (None:
    it names nothing the data plane holds, or nothing readable)."""
    in_use: dict[str, Any] = {"endpoint": None, "instance": None, "description": None}
    try:
        found = app_endpoint(ctx.scenario, bound, bound.gateway.upstream)()
        host, port = str(found["host"]), int(found["port"])
    except Exception:  # noqa: BLE001 - a secret that names no endpoint names no database
        return in_use, None
    in_use["endpoint"] = f"{host}:{port}"
    plane = ctx.sandbox.rds.plane
    instance = plane.by_port(port) if host in ("127.0.0.1", "localhost") else None
    if instance is None:
        return in_use, None
    in_use["instance"] = instance.identifier
    in_use["description"] = final.db_instance(
        aws.client("rds", ctx.sandbox.rds.url, region=instance.spec.region), instance.identifier)
    server = instance.primary
    if server is None or not server.alive():
        return in_use, None
    return in_use, final.tables(server.dsn(instance.spec.db_name or "postgres"))
