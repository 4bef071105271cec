"""Read the final state after quiescence: database rows, queue contents, the DB instance."""

from __future__ import annotations

import json
from typing import Any

import psycopg
from psycopg import errors
from psycopg.rows import dict_row

from kit.history import OrderRow, QueueMessage

DRAIN_VISIBILITY = 600


def orders_and_balances(dsn: str) -> tuple[list[OrderRow], dict[str, int | None]]:
    """Every row of `orders` (all columns) and the balances by customer."""
    with psycopg.connect(dsn, autocommit=True, row_factory=dict_row) as conn:
        try:
            orders = [OrderRow.model_validate(_plain(row))
                      for row in conn.execute("select * from orders").fetchall()]
        except errors.UndefinedTable:
            orders = []
        try:
            balances = {row["customer_id"]: row["balance_cents"] for row in conn.execute(
                "select customer_id, balance_cents from customer_balances").fetchall()}
        except errors.UndefinedTable:
            balances = {}
    return orders, balances


def drain(sqs: Any, queue_url: str) -> list[QueueMessage]:
    """Every message left in a queue, with the receive count the workload gave it."""
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
            out[msg["MessageId"]] = QueueMessage(message_id=msg["MessageId"], body=msg["Body"],
                                                 receive_count=count)


def db_instance(rds: Any, identifier: str) -> dict[str, Any] | None:
    """The DescribeDBInstances entry of `identifier` (JSON-safe), or None if absent."""
    try:
        found = rds.describe_db_instances(DBInstanceIdentifier=identifier)["DBInstances"]
    except rds.exceptions.DBInstanceNotFoundFault:
        return None
    return json.loads(json.dumps(found[0], default=str)) if found else None


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(row, default=str))
