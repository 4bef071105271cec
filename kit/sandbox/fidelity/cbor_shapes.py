"""Values of one AWS operation between Smithy RPC v2 CBOR and the AWS JSON protocol.

The two protocols carry the same data model and differ in how a few types are written
(Smithy, "RPC v2 CBOR protocol", Shape serialization; "AWS JSON 1.0 protocol", Shape
serialization):

| shape     | RPC v2 CBOR                                  | AWS JSON 1.0                  |
| --------- | -------------------------------------------- | ----------------------------- |
| timestamp | tag 1 (epoch seconds), an integer or a float | epoch seconds, a JSON number  |
| blob      | a byte string (major type 2)                 | a base64 string               |
| float, double | a float (an integer is accepted)         | a JSON number                 |
| integer, long | an integer (major type 0 or 1)           | a JSON number                 |

Everything else (strings, booleans, lists, maps, structures by member name) is the same.
Which member is which type only the operation's model says: botocore's service model,
the one moto itself serves from, is walked alongside the value.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import cbor2

EPOCH_TAG = 1  # RFC 8949 3.4.2: epoch-based date/time
Leaf = Callable[[str, Any], Any]


def walk(value: Any, shape: Any, leaf: Leaf) -> Any:
    """`value` with every scalar replaced by `leaf(type name, scalar)`, following `shape`
    (a botocore Shape; None: no model for it, kept as it is)."""
    if shape is None or value is None:
        return value
    kind = shape.type_name
    if kind == "structure" and isinstance(value, dict):
        members = shape.members
        return {k: walk(v, members.get(k), leaf) for k, v in value.items() if v is not None}
    if kind == "list" and isinstance(value, list):
        return [walk(v, shape.member, leaf) for v in value]
    if kind == "map" and isinstance(value, dict):
        return {walk(k, shape.key, leaf): walk(v, shape.value, leaf) for k, v in value.items()}
    if kind in ("structure", "list", "map"):
        return value  # not of its shape: left for the service to refuse, as AWS would
    return leaf(kind, value)


def _json_leaf(kind: str, value: Any) -> Any:
    if kind == "timestamp":
        if isinstance(value, datetime):
            return _aware(value).timestamp()
        if isinstance(value, cbor2.CBORTag) and value.tag == EPOCH_TAG:
            return value.value
        return value
    if kind == "blob" and isinstance(value, bytes | bytearray):
        return base64.b64encode(value).decode()
    return value


def _cbor_leaf(kind: str, value: Any) -> Any:
    if kind == "timestamp":
        seconds = _seconds(value)
        return value if seconds is None else cbor2.CBORTag(EPOCH_TAG, seconds)
    if kind == "blob" and isinstance(value, str):
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            return value.encode()
    if kind in ("float", "double") and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if kind in ("integer", "long") and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _seconds(value: Any) -> float | None:
    """Epoch seconds of a JSON timestamp: a number, or the ISO 8601 text some answers use."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return _aware(datetime.fromisoformat(value.replace("Z", "+00:00"))).timestamp()
        except ValueError:
            return None
    return None


def to_json(value: Any, shape: Any) -> Any:
    """A decoded CBOR input (`shape`: the operation's input shape) as AWS JSON values."""
    return walk(value, shape, _json_leaf)


def to_cbor(value: Any, shape: Any) -> Any:
    """A decoded AWS JSON output (`shape`: the operation's output or error shape) as the
    values RPC v2 CBOR writes (tagged timestamps, byte strings, floats for doubles)."""
    return walk(value, shape, _cbor_leaf)
