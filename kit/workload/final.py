"""Read the final state after quiescence: database tables, effect objects or DynamoDB items,
queue contents and attributes, DB instances."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import psycopg
from boto3.dynamodb.types import Binary, TypeDeserializer
from botocore.exceptions import ClientError
from psycopg import sql
from psycopg.rows import dict_row

from kit.history import Effect, QueueMessage
from kit.workload.notifications import unwrap

DRAIN_VISIBILITY = 600


def plain(row: dict[str, Any]) -> dict[str, Any]:
    """A database row with JSON-safe values (decimals, timestamps as text)."""
    return json.loads(json.dumps(row, default=str))


def tables(dsn: str) -> dict[str, list[dict[str, Any]]]:
    """Every table of the database's public schema, every row (the workload's scale).

    Names are qualified: a schema of the workload's own on the search path cannot stand in
    for `public`; views are not read (a function in one would run as the kit's reader).
    """
    with psycopg.connect(dsn, autocommit=True, row_factory=dict_row) as conn:
        names = [r["table_name"] for r in conn.execute(
            "select table_name from information_schema.tables where table_schema = 'public' "
            "and table_type = 'BASE TABLE' order by table_name").fetchall()]
        return {name: [plain(row) for row in conn.execute(
            sql.SQL("select * from {}").format(sql.Identifier("public", name))).fetchall()]
            for name in names}


def object_row(s3: Any, bucket: str, name: str) -> dict[str, Any]:
    """An effect object as a row: its JSON fields, or `_object`/`_body` when its body is
    not a JSON object (then it holds no key)."""
    body = s3.get_object(Bucket=bucket, Key=name)["Body"].read().decode(errors="replace")
    try:
        found = json.loads(body)
    except json.JSONDecodeError:
        found = None
    return plain(found) if isinstance(found, dict) else {"_object": name, "_body": body[:200]}


def objects(s3: Any, bucket: str, prefix: str) -> list[dict[str, Any]]:
    """Every effect object of a bucket under `prefix`, as rows."""
    pages = s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
    return [object_row(s3, bucket, item["Key"]) for page in pages
            for item in page.get("Contents", [])]


_DESERIALIZER = TypeDeserializer()


def _plain_value(value: Any) -> Any:
    """A deserialised DynamoDB value as JSON: a number as an int when it is whole (else a
    float), a set as a sorted list, binary as base64 text."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, Binary | bytes | bytearray):
        return base64.b64encode(bytes(value)).decode()
    if isinstance(value, set | frozenset):
        return sorted((_plain_value(v) for v in value), key=str)
    if isinstance(value, list):
        return [_plain_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain_value(v) for k, v in value.items()}
    return value


def item_row(item: dict[str, Any]) -> dict[str, Any]:
    """A DynamoDB item (DynamoDB JSON: `{"amount": {"N": "5"}}`) as a row of plain values."""
    return {name: _plain_value(_DESERIALIZER.deserialize(value))
            for name, value in item.items()}


def items(dynamodb: Any, table: str) -> list[dict[str, Any]]:
    """Every item of a DynamoDB table, as rows (a consistent scan, every page); none when
    DynamoDB answers that there is no such table to read (not created yet, deleted by the
    solution, or a name its output gives that DynamoDB refuses: no effects, the solution's).
    An answer of the emulator's own failure (5xx) is raised: the kit's."""
    pages = dynamodb.get_paginator("scan").paginate(TableName=table, ConsistentRead=True)
    try:
        return [item_row(item) for page in pages for item in page.get("Items", [])]
    except ClientError as exc:
        status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
        if 400 <= status < 500:
            return []
        raise


def effects(rows: list[dict[str, Any]], key: str) -> list[Effect]:
    """The effect rows of a table, keyed by the message key column."""
    return [Effect(key=None if row.get(key) is None else str(row[key]), fields=row)
            for row in rows]


def drain(sqs: Any, queue_url: str, describe: Callable[[str], Any]) -> list[QueueMessage]:
    """Every message left in a queue, with the receive count the workload gave it and what
    the scenario's `describe` says of its body.

    Each batch read is deleted: a FIFO queue hands out nothing more of a message group
    while part of it is in flight, and the run is over, so nothing else reads the queue.
    """
    out: dict[str, QueueMessage] = {}
    while True:
        got = sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=0,
                                  VisibilityTimeout=DRAIN_VISIBILITY,
                                  MessageSystemAttributeNames=["ApproximateReceiveCount"]
                                  ).get("Messages", [])
        if not got:
            return list(out.values())
        for msg in got:
            # Our own read counts as a receive: do not blame the solution for it.
            count = int(msg.get("Attributes", {}).get("ApproximateReceiveCount", 1)) - 1
            facts = describe(unwrap(msg["Body"]))  # an SNS envelope: its message
            out[msg["MessageId"]] = QueueMessage(message_id=msg["MessageId"], body=msg["Body"],
                                                 receive_count=count, key=facts.key,
                                                 valid=facts.valid)
        sqs.delete_message_batch(QueueUrl=queue_url, Entries=[
            {"Id": str(n), "ReceiptHandle": m["ReceiptHandle"]} for n, m in enumerate(got)])


def queue_attributes(sqs: Any, queue_url: str) -> dict[str, str] | None:
    """Every attribute of a queue (GetQueueAttributes All), or None if it no longer exists."""
    try:
        return sqs.get_queue_attributes(QueueUrl=queue_url,
                                        AttributeNames=["All"]).get("Attributes", {})
    except ClientError as exc:
        code = exc.response.get("Error", {}).get("Code", "")
        if code in ("AWS.SimpleQueueService.NonExistentQueue", "QueueDoesNotExist"):
            return None
        raise


def db_instance(rds: Any, identifier: str) -> dict[str, Any] | None:
    """The DescribeDBInstances entry of `identifier` (JSON-safe), or None if absent."""
    try:
        found = rds.describe_db_instances(DBInstanceIdentifier=identifier)["DBInstances"]
    except rds.exceptions.DBInstanceNotFoundFault:
        return None
    return json.loads(json.dumps(found[0], default=str)) if found else None
