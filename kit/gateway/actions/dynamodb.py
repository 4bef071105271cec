"""DynamoDB (JSON protocol, X-Amz-Target `DynamoDB_20120810.<Op>`): calls act on the tables
they name.

The action is `dynamodb:<Op>` on the table's ARN (`TableName`, which may itself be an ARN),
or on the index's (`table/<t>/index/<i>`) for a Query or Scan with an `IndexName`. Calls that
name several tables are authorized on each (Service Authorization Reference, "Actions,
resources, and condition keys for Amazon DynamoDB"; DynamoDB developer guide, "Using IAM with
DynamoDB transactions"):
- BatchWriteItem and BatchGetItem: their own action on every table of `RequestItems`;
- TransactWriteItems: each item's single action on its table (PutItem, UpdateItem,
  DeleteItem, ConditionCheckItem), TransactGetItems: GetItem on each, with
  `dynamodb:EnclosingOperation` set to the transaction's operation.

Condition keys the request itself carries (developer guide, "Using IAM policy conditions
for fine-grained access control"): `dynamodb:LeadingKeys` (the partition key values of the
items a call reads or writes; the partition key's name is the table's, or the index's for
a Query of an index, from the emulator through `Names.partition_key`),
`dynamodb:Attributes` (the top-level attribute names a call names, where the request lists
them all), `dynamodb:Select`, `dynamodb:ReturnValues`, `dynamodb:ReturnConsumedCapacity`.
PartiQL calls (ExecuteStatement, ...) are not mapped: the gateway refuses them, naming why.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping
from typing import Any

from kit.gateway.actions.base import Call, Check, Scope, known, unknown
from kit.iam.context import ContextValue

TARGET_PREFIX = "DynamoDB_20120810"
STREAMS_PREFIX = "DynamoDBStreams_20120810"  # DynamoDB Streams, signed as dynamodb
_PARTIQL = ("ExecuteStatement", "BatchExecuteStatement", "ExecuteTransaction")
# Calls after which a cached resource policy, tag or key schema may be stale.
_POLICY_CHANGES = {"CreateTable", "DeleteTable", "UpdateTable", "PutResourcePolicy",
                   "DeleteResourcePolicy", "TagResource", "UntagResource"}
# Transaction item kind -> the action IAM authorizes it as.
_TRANSACT = {"Put": "PutItem", "Update": "UpdateItem", "Delete": "DeleteItem",
             "ConditionCheck": "ConditionCheckItem", "Get": "GetItem"}
# Request parameters that are condition keys of the same name.
_REQUEST_KEYS = {"Select": "dynamodb:Select", "ReturnValues": "dynamodb:ReturnValues",
                 "ReturnConsumedCapacity": "dynamodb:ReturnConsumedCapacity"}
_NAME = re.compile(r"#[A-Za-z0-9_]+|[A-Za-z_][A-Za-z0-9_]*")


def table_arn(scope: Scope, table: str) -> str:
    """The ARN of `table` (a name, or already an ARN) in the caller's account and region."""
    if table.startswith("arn:"):
        return table
    return f"arn:aws:dynamodb:{scope.region}:{scope.account}:table/{table}"


def describe(operation: str, params: Mapping[str, Any], scope: Scope) -> Call:
    """The checks of one DynamoDB call."""
    if operation in _PARTIQL:
        return Call("dynamodb", operation, "json", params=params,
                    problem=f"PartiQL ({operation}) is not mapped by the kit's gateway: its "
                    "IAM actions (dynamodb:PartiQL*) depend on the statement; use the item "
                    "API (GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan)")
    if operation in ("BatchWriteItem", "BatchGetItem", "TransactWriteItems",
                     "TransactGetItems"):
        checks = _multi_table(operation, params, scope)
        if isinstance(checks, str):
            return Call("dynamodb", operation, "json", params=params, problem=checks)
        return Call("dynamodb", operation, "json", checks, params, _request_keys(params))
    found = known("dynamodb", operation)
    if found is None:
        return unknown("dynamodb", operation, "json", params)
    action, types = found
    table = params.get("TableName")
    if isinstance(table, str) and table and types:
        resource = table_arn(scope, table)
        index = params.get("IndexName")
        if operation in ("Query", "Scan") and isinstance(index, str) and index:
            resource = f"{resource}/index/{index}"
    elif isinstance(params.get("ResourceArn") or params.get("StreamArn"), str) and types:
        resource = params.get("ResourceArn") or params["StreamArn"]
    else:
        resource = "*"
    context = _request_keys(params)
    context.update(_item_keys(operation, params, scope, resource))
    return Call("dynamodb", operation, "json", (Check(action, resource),), params, context,
                changes_policy=operation in _POLICY_CHANGES)


def _request_keys(params: Mapping[str, Any]) -> dict[str, ContextValue]:
    """The condition keys spelled like request parameters (Select, ReturnValues, ...)."""
    return {key: value for name, key in _REQUEST_KEYS.items()
            if isinstance(value := params.get(name), str)}


def _item_keys(operation: str, params: Mapping[str, Any], scope: Scope,
               resource: str) -> dict[str, ContextValue]:
    """dynamodb:LeadingKeys and dynamodb:Attributes of a single-table call."""
    out: dict[str, ContextValue] = {}
    names = params.get("ExpressionAttributeNames") or {}
    names = names if isinstance(names, dict) else {}
    items: list[Any] = [params.get("Item") if operation == "PutItem" else params.get("Key")]
    # On an index, the index's partition key (a Query's key condition names it).
    pk = _partition_key(scope, resource, [i for i in items if isinstance(i, dict)])
    if operation == "Query":
        leading = _query_leading(params, pk, names)
    else:
        leading = [v for i in items if (v := _scalar(i, pk)) is not None]
    if leading:
        out["dynamodb:LeadingKeys"] = tuple(dict.fromkeys(leading))
    attributes = _attributes(operation, params, names)
    if attributes is not None:
        out["dynamodb:Attributes"] = tuple(attributes)
    return out


def _multi_table(operation: str, params: Mapping[str, Any], scope: Scope
                 ) -> tuple[Check, ...] | str:
    """One check per table (batches) or per item (transactions); a problem text when the
    request names no table."""
    out: list[Check] = []
    if operation.startswith("Batch"):
        requests = params.get("RequestItems")
        if not isinstance(requests, dict) or not requests:
            return f"{operation} names no table (RequestItems)"
        for table, entries in requests.items():
            arn = table_arn(scope, str(table))
            keys = _batch_keys(operation, entries)
            pk = _partition_key(scope, arn, keys)
            leading = [v for k in keys if (v := _scalar(k, pk)) is not None]
            context = (("dynamodb:LeadingKeys", tuple(dict.fromkeys(leading))),) \
                if leading else ()
            out.append(Check(f"dynamodb:{operation}", arn, context))
        return tuple(dict.fromkeys(out))
    entries = params.get("TransactItems")
    if not isinstance(entries, list) or not entries:
        return f"{operation} names no item (TransactItems)"
    for entry in entries:
        kind, body = next(iter(entry.items()), ("", None)) if isinstance(entry, dict) \
            else ("", None)
        if kind not in _TRANSACT or not isinstance(body, dict) or \
                not isinstance(body.get("TableName"), str):
            return f"{operation}: an item is not one of {', '.join(_TRANSACT)} with a TableName"
        arn = table_arn(scope, body["TableName"])
        item = body.get("Item") if kind == "Put" else body.get("Key")
        pk = _partition_key(scope, arn, [item] if isinstance(item, dict) else [])
        context: list[tuple[str, ContextValue]] = [("dynamodb:EnclosingOperation", operation)]
        if (value := _scalar(item, pk)) is not None:
            context.append(("dynamodb:LeadingKeys", (value,)))
        out.append(Check(f"dynamodb:{_TRANSACT[kind]}", arn, tuple(context)))
    return tuple(dict.fromkeys(out))


def _batch_keys(operation: str, entries: Any) -> list[dict[str, Any]]:
    """The items (BatchWriteItem) or keys (BatchGetItem) one table's entries name."""
    if operation == "BatchGetItem":
        keys = entries.get("Keys") if isinstance(entries, dict) else None
        return [k for k in keys if isinstance(k, dict)] if isinstance(keys, list) else []
    found = []
    for entry in entries if isinstance(entries, list) else []:
        put = entry.get("PutRequest") if isinstance(entry, dict) else None
        delete = entry.get("DeleteRequest") if isinstance(entry, dict) else None
        item = (put or {}).get("Item") if isinstance(put, dict) else \
            (delete or {}).get("Key") if isinstance(delete, dict) else None
        if isinstance(item, dict):
            found.append(item)
    return found


def _partition_key(scope: Scope, arn: str, items: list[dict[str, Any]]) -> str | None:
    """The table's partition key attribute: from the emulator, else the only attribute of
    a one-attribute key."""
    resolve = getattr(scope.names, "partition_key", None)
    found = resolve(arn) if resolve is not None else None
    if found:
        return found
    shapes = {tuple(item) for item in items}
    return shapes.pop()[0] if len(shapes) == 1 and len(next(iter(items))) == 1 else None


def _scalar(item: Any, attribute: str | None) -> str | None:
    """The value of a scalar attribute (S, N or B) of a DynamoDB JSON item, as text."""
    if not isinstance(item, dict) or attribute is None:
        return None
    value = item.get(attribute)
    if not isinstance(value, dict) or len(value) != 1:
        return None
    kind, raw = next(iter(value.items()))
    if kind in ("S", "N") and isinstance(raw, str):
        return raw
    if kind == "B" and isinstance(raw, str):  # already base64 on the wire
        return raw
    if kind == "B" and isinstance(raw, bytes):
        return base64.b64encode(raw).decode()
    return None


def _query_leading(params: Mapping[str, Any], pk: str | None,
                   names: Mapping[str, Any]) -> list[str]:
    """The partition key value a Query's key condition names (`pk = :v`, or the legacy
    KeyConditions)."""
    if pk is None:
        return []
    legacy = params.get("KeyConditions")
    if isinstance(legacy, dict) and isinstance(legacy.get(pk), dict):
        listed = legacy[pk].get("AttributeValueList")
        found = _scalar({pk: listed[0]}, pk) if isinstance(listed, list) and listed else None
        return [found] if found is not None else []
    expression = params.get("KeyConditionExpression")
    values = params.get("ExpressionAttributeValues") or {}
    if not isinstance(expression, str) or not isinstance(values, dict):
        return []
    for left, right in re.findall(r"([#\w]+)\s*=\s*(:\w+)", expression[:4096]):
        if names.get(left, left) == pk:
            found = _scalar({pk: values.get(right)}, pk)
            return [found] if found is not None else []
    return []


def _attributes(operation: str, params: Mapping[str, Any],
                names: Mapping[str, Any]) -> list[str] | None:
    """The top-level attribute names a call names, where the request lists all it reads or
    writes (None: it does not, e.g. a GetItem without a projection reads every attribute)."""
    if operation == "PutItem" and isinstance(params.get("Item"), dict):
        return sorted(params["Item"])
    listed: set[str] = set()
    if isinstance(params.get("AttributesToGet"), list):
        listed.update(str(a) for a in params["AttributesToGet"])
    elif isinstance(params.get("ProjectionExpression"), str):
        listed.update(_top_names(params["ProjectionExpression"], names))
    elif operation == "UpdateItem" and isinstance(params.get("UpdateExpression"), str):
        listed.update(_updated_names(params["UpdateExpression"], names))
    else:
        return None
    if isinstance(params.get("Key"), dict):
        listed.update(params["Key"])
    return sorted(listed)


def _top_names(expression: str, names: Mapping[str, Any]) -> list[str]:
    """The top-level attribute of each comma-separated document path."""
    out = []
    for path in expression.split(","):
        found = _NAME.match(path.strip())
        if found:
            out.append(str(names.get(found.group(), found.group())))
    return out


def _updated_names(expression: str, names: Mapping[str, Any]) -> list[str]:
    """The top-level attributes an UpdateExpression writes or reads (operands included:
    `SET a = b + :v` names a and b; functions and values are not attributes)."""
    out = []
    for token in re.finditer(r"[:#]?\w[\w#.\[\]]*", expression):
        text = token.group()
        if text.startswith(":") or text[0].isdigit() or \
                text.upper() in ("SET", "REMOVE", "ADD", "DELETE") or \
                expression[token.end():].lstrip().startswith("("):
            continue  # a value placeholder, a clause keyword, or a function name
        top = re.split(r"[.\[]", text, maxsplit=1)[0]
        out.append(str(names.get(top, top)))
    return out
