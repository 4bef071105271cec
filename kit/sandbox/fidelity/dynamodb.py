"""DynamoDB: item reads and writes are atomic, one item operation at a time.

moto internals touched: moto.dynamodb.models.DynamoDBBackend.put_item,
DynamoDBBackend.update_item, DynamoDBBackend.delete_item,
DynamoDBBackend.transact_write_items, DynamoDBBackend.get_item, DynamoDBBackend.query,
DynamoDBBackend.scan.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

# Item operations of moto's backend that read or change items; BatchWriteItem and
# BatchGetItem go through put_item/delete_item/get_item one item at a time, as on AWS
# (a batch is not atomic as a whole, each of its writes is).
_ITEM_OPERATIONS = ("put_item", "update_item", "delete_item", "transact_write_items",
                    "get_item", "query", "scan")


def item_operations_are_atomic() -> None:
    """An item write applies as one step: a condition is checked and the write applied with
    no other write in between, and `ADD` increments the value stored when it applies.

    AWS, DynamoDB Developer Guide, "Atomic counters": "You can use the UpdateItem operation
    to implement an atomic counter ... each UpdateItem request is applied in the order it
    was received"; "Conditional writes": a conditional write succeeds only if the item
    meets the condition when the write is applied. TransactWriteItems applies all its
    actions or none (API reference). moto's server is threaded and its backend reads,
    checks and writes items without a lock, so concurrent `ADD`s lose increments (measured:
    199 of 8 x 25) and a condition may be checked against an item another writer is about
    to change. Here each item operation of the backend runs under one lock (reentrant: a
    transaction's actions call the single-item operations). Proven by
    tests/integration/test_dynamodb_fidelity.py.
    """
    from moto.dynamodb.models import DynamoDBBackend

    if getattr(DynamoDBBackend.put_item, "_kit_fix", False):
        return
    lock = threading.RLock()
    for name in _ITEM_OPERATIONS:
        setattr(DynamoDBBackend, name, _locked(getattr(DynamoDBBackend, name), lock))


def _locked(method: Any, lock: threading.RLock) -> Any:
    @functools.wraps(method)
    def locked(*args: Any, **kwargs: Any) -> Any:
        with lock:
            return method(*args, **kwargs)

    locked._kit_fix = True  # type: ignore[attr-defined]
    return locked
