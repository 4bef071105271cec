"""Binding a declared resource by its Terraform address: read from the state after apply.

`resources: {queue.notifications: {address: aws_sqs_queue.notifications}}` binds the
resource's declared attribute (kit/bindings.py) to an attribute of the managed resource
instance at that address in the run's state (module addresses too:
`module.events.aws_sns_topic.this`, instance keys as Terraform writes them: `x[0]`,
`x["a"]`). Only managed resources: a data source reads what someone else made, and the
contract's resources are the ones this Terraform creates. An address that is not in the
state is the solution's: the message lists the state's addresses most like it.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping
from typing import Any

from kit.errors import SolutionError

# kind -> the state attribute(s) its declared attribute is read from (first one present).
STATE_ATTRIBUTE: dict[str, tuple[str, ...]] = {
    "queue": ("url", "id"),
    "role": ("arn",),
    "topic": ("arn",),
    "table": ("name",),
    "function": ("arn",),
    "bucket": ("bucket",),
    "key": ("arn",),
    "secret": ("arn",),
    "database": ("identifier",),
    "policy": ("arn",),
}
_NAME = r"[A-Za-z_][A-Za-z0-9_-]*"
_TYPE = r"[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+"  # <provider>_<type>, as every resource type
_INDEX = r'(?:\[(?:[0-9]+|"[^"\\]*")\])?'
ADDRESS = re.compile(rf"^(?:module\.{_NAME}{_INDEX}\.)*{_TYPE}\.{_NAME}{_INDEX}$")


class Unaddressed(SolutionError):
    """A resource bound by address is not in the state (or lacks the attribute)."""


def check_address(kind: str, address: object) -> str | None:
    """Why an `address` field is malformed (None: it is fine)."""
    if kind not in STATE_ATTRIBUTE:
        return (f"a {kind} cannot be bound by address; kinds that can: "
                f"{', '.join(STATE_ATTRIBUTE)}")
    # A data source (`data.<type>.<name>`) does not match: only managed resources bind.
    if not isinstance(address, str) or not ADDRESS.match(address):
        return (f"{address!r} is not the address of a managed resource (e.g. "
                "aws_sqs_queue.orders, module.events.aws_sns_topic.this, aws_sqs_queue.q[0])")
    return None


def instances(state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Every managed resource instance of a state, by its full address."""
    found: dict[str, dict[str, Any]] = {}
    for resource in state.get("resources", []):
        if resource.get("mode") != "managed":
            continue
        module = resource.get("module")
        base = f"{module + '.' if module else ''}{resource.get('type')}.{resource.get('name')}"
        for instance in resource.get("instances", []):
            key = instance.get("index_key")
            suffix = "" if key is None else f"[{json.dumps(key)}]"
            found[base + suffix] = instance.get("attributes") or {}
    return found


def lookup(state: Mapping[str, Any], name: str, kind: str, address: str) -> Any:
    """The declared attribute of resource `name` (of `kind`) from the instance at
    `address`; Unaddressed, listing similar addresses, when the state has none there."""
    known = instances(state)
    attributes = known.get(address)
    if attributes is None:
        similar = difflib.get_close_matches(address, list(known), n=5, cutoff=0.4)
        listed = ", ".join(similar) if similar else ", ".join(sorted(known)[:10]) or "none"
        raise Unaddressed(f"{name}: address {address!r} is not a managed resource instance "
                          f"in the state after apply; the state has: {listed}")
    for attribute in STATE_ATTRIBUTE[kind]:
        value = attributes.get(attribute)
        if isinstance(value, str) and value:
            return value
    raise Unaddressed(f"{name}: {address} has no {' or '.join(STATE_ATTRIBUTE[kind])} in "
                      f"the state (a {kind} is bound by it)")
