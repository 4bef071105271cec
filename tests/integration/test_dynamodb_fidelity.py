"""DynamoDB conditional writes in the kit's moto, as the DynamoDB developer guide documents
them. The effect checkers trust these: an idempotent worker's conditional write must be
refused when it should, and a counter's `ADD` must not lose an increment.

Sources: DynamoDB Developer Guide, "Condition expressions" and "Conditional writes"
(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.ConditionExpressions.html,
.../WorkingWithItems.html#WorkingWithItems.ConditionalUpdate), the DynamoDB API Reference
for PutItem, UpdateItem and TransactWriteItems.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from botocore.exceptions import ClientError

from kit import aws
from kit.run.sandbox import Sandbox
from kit.workload import final

THREADS, EACH = 8, 25


@pytest.fixture(scope="module")
def ddb():  # noqa: ANN201
    with Sandbox(postgres=False) as sb:
        client = aws.client("dynamodb", sb.moto.url)
        for name, key in (("effects", "order_id"), ("balances", "customer_id")):
            client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                                AttributeDefinitions=[{"AttributeName": key,
                                                       "AttributeType": "S"}],
                                KeySchema=[{"AttributeName": key, "KeyType": "HASH"}])
        yield client


def _code(exc: ClientError) -> str:
    return exc.response["Error"]["Code"]


def _in_threads(work: Callable[[int], None]) -> list[BaseException]:
    """Run work(n) in THREADS threads at once; the exceptions they raised."""
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def run(n: int) -> None:
        start.wait()
        try:
            work(n)
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return errors


def test_put_if_absent_refuses_an_existing_item(ddb) -> None:  # noqa: ANN001
    """Developer guide, "Condition expressions" (preventing overwrites): a PutItem with
    `attribute_not_exists(pk)` fails with ConditionalCheckFailedException when an item
    with that key exists, and leaves the item as it was."""
    put = {"TableName": "effects", "ConditionExpression": "attribute_not_exists(order_id)"}
    ddb.put_item(Item={"order_id": {"S": "o-1"}, "amount": {"N": "5"}}, **put)
    with pytest.raises(ClientError) as refused:
        ddb.put_item(Item={"order_id": {"S": "o-1"}, "amount": {"N": "7"}}, **put)
    assert _code(refused.value) == "ConditionalCheckFailedException"
    item = ddb.get_item(TableName="effects", Key={"order_id": {"S": "o-1"}})["Item"]
    assert item["amount"] == {"N": "5"}


def test_concurrent_puts_if_absent_let_exactly_one_through(ddb) -> None:  # noqa: ANN001
    """Developer guide, "Conditional writes": a conditional write succeeds only if the item
    meets the condition when the write is applied; of several writers racing on a new key,
    one creates it and every other is refused."""
    def put(n: int) -> None:
        ddb.put_item(TableName="effects", Item={"order_id": {"S": "race"}, "by": {"N": str(n)}},
                     ConditionExpression="attribute_not_exists(order_id)")
    errors = _in_threads(put)
    assert len(errors) == THREADS - 1
    assert all(isinstance(e, ClientError) and _code(e) == "ConditionalCheckFailedException"
               for e in errors)


def test_add_is_atomic_across_concurrent_callers(ddb) -> None:  # noqa: ANN001
    """Developer guide, "Atomic counters" and UpdateItem API reference (ADD): each UpdateItem
    `ADD n :one` increments the stored value, unconditionally and without interfering with
    the other writers: THREADS x EACH increments make THREADS x EACH."""
    def add(_: int) -> None:
        for _ in range(EACH):
            ddb.update_item(TableName="balances", Key={"customer_id": {"S": "c-1"}},
                            UpdateExpression="ADD balance :one",
                            ExpressionAttributeValues={":one": {"N": "1"}})
    assert _in_threads(add) == []
    item = ddb.get_item(TableName="balances", Key={"customer_id": {"S": "c-1"}},
                        ConsistentRead=True)["Item"]
    assert item["balance"] == {"N": str(THREADS * EACH)}


def test_a_version_condition_refuses_a_stale_writer(ddb) -> None:  # noqa: ANN001
    """Developer guide, "Conditional writes" (optimistic locking with a version number):
    an UpdateItem with `version = :expected` applies only while the stored version is the
    expected one; a writer holding an older version is refused."""
    key = {"customer_id": {"S": "c-v"}}
    ddb.put_item(TableName="balances", Item={**key, "version": {"N": "1"}})
    bump = {"TableName": "balances", "Key": key,
            "UpdateExpression": "SET version = :next",
            "ConditionExpression": "version = :expected"}
    ddb.update_item(ExpressionAttributeValues={":next": {"N": "2"}, ":expected": {"N": "1"}},
                    **bump)
    with pytest.raises(ClientError) as stale:
        ddb.update_item(ExpressionAttributeValues={":next": {"N": "2"},
                                                   ":expected": {"N": "1"}}, **bump)
    assert _code(stale.value) == "ConditionalCheckFailedException"
    assert ddb.get_item(TableName="balances", Key=key)["Item"]["version"] == {"N": "2"}


def test_a_refused_write_returns_the_item_when_asked(ddb) -> None:  # noqa: ANN001
    """PutItem API reference, ReturnValuesOnConditionCheckFailure: with ALL_OLD, a write
    refused by its condition returns the item's attributes as they are in the error."""
    ddb.put_item(TableName="effects", Item={"order_id": {"S": "o-old"}, "n": {"N": "1"}})
    with pytest.raises(ClientError) as refused:
        ddb.put_item(TableName="effects", Item={"order_id": {"S": "o-old"}, "n": {"N": "2"}},
                     ConditionExpression="attribute_not_exists(order_id)",
                     ReturnValuesOnConditionCheckFailure="ALL_OLD")
    assert _code(refused.value) == "ConditionalCheckFailedException"
    assert refused.value.response.get("Item") == {"order_id": {"S": "o-old"}, "n": {"N": "1"}}


def test_a_transaction_with_a_failed_condition_applies_nothing(ddb) -> None:  # noqa: ANN001
    """TransactWriteItems API reference: the actions succeed or fail together; a failed
    condition cancels the whole transaction (TransactionCanceledException, with a
    ConditionalCheckFailed reason for the item), and no item is changed."""
    ddb.put_item(TableName="effects", Item={"order_id": {"S": "o-t"}})
    with pytest.raises(ClientError) as cancelled:
        ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": "effects", "Item": {"order_id": {"S": "o-t"}},
                     "ConditionExpression": "attribute_not_exists(order_id)"}},
            {"Update": {"TableName": "balances", "Key": {"customer_id": {"S": "c-t"}},
                        "UpdateExpression": "ADD balance :a",
                        "ExpressionAttributeValues": {":a": {"N": "5"}}}}])
    assert _code(cancelled.value) == "TransactionCanceledException"
    reasons = [r.get("Code") for r in cancelled.value.response.get("CancellationReasons", [])]
    assert reasons[0] == "ConditionalCheckFailed"
    assert "Item" not in ddb.get_item(TableName="balances",
                                      Key={"customer_id": {"S": "c-t"}})


def test_the_kit_reads_every_item_back_and_none_of_a_missing_table(ddb) -> None:  # noqa: ANN001
    """Scan API reference: a scan returns at most 1 MB a page, LastEvaluatedKey says
    there is more; a table that does not exist is ResourceNotFoundException. The kit's
    reader follows every page and reads a missing table as no effects."""
    ddb.create_table(TableName="wide", BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "k", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}])
    blob = "x" * 300_000
    for n in range(8):  # 2.4 MB: three pages or more
        ddb.put_item(TableName="wide", Item={"k": {"S": f"k-{n}"}, "blob": {"S": blob},
                                              "n": {"N": str(n)}})
    rows = final.items(ddb, "wide")
    assert sorted(r["n"] for r in rows) == list(range(8))
    assert final.items(ddb, "missing") == []
    assert final.items(ddb, "not a table name!") == []  # ValidationException: no effects
