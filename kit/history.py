"""The run's history: every observed event as a small frozen record, plus the final state.

Jepsen's shape: the run appends ops in the order it learns of them; checkers are pure
functions over the saved history and never talk to a service. A history saved with
`History.save` can be re-checked offline with `History.load`.

An op is `Op(index, time, process, kind, value)`. `index` is the position in the history
(strictly increasing: the total order checkers use), `time` is seconds since the run
started on a monotonic clock, `process` names who did it, `value` carries the fields below.
Worker process names are per session ("worker-0", and a restarted worker gets a new name
such as "worker-0#1"), so calls are attributed to the process that made them.

| kind              | process       | value fields                                              |
|-------------------|---------------|-----------------------------------------------------------|
| phase             | kit           | name: "deploy" / "workload" / "recover" / "observe"      |
| deploy            | kit           | ok: bool, stage: str, diagnostics: list,                  |
|                   |               | kit_error: str|None (optional; set when the kit, not the |
|                   |               | solution, broke the deploy, e.g. a provider mirror gap)   |
| send              | producer      | message_id, body (raw str), order_id|None,                |
|                   |               | customer_id|None, amount_cents|None, valid: bool,         |
|                   |               | duplicate_of: message_id|None (a deliberate second send) |
|                   |               | (order fields and `valid` come from `describe_body`)     |
| receive           | worker-N      | message_id, order_id|None, receive_count: int,            |
|                   |               | injected: bool (optional; the nemesis fabricated this     |
|                   |               | delivery, e.g. duplicate_delivery)                        |
| delete            | worker-N      | message_id                                                |
| change_visibility | worker-N      | message_id, timeout: number (seconds; 0 releases it)      |
| recorded          | observer      | order_id, customer_id|None, amount_cents|None: the DB     |
|                   |               | poller first saw this order row (time = first seen); the  |
|                   |               | final read emits one for every row not seen before        |
| worker_start      | kit           | worker (session name), pid: int                           |
| worker_exit       | kit           | worker, pid: int, code: int|None, signal: str|None        |
| fault_start       | nemesis       | fault: str, detail: any                                   |
| fault_end         | nemesis       | fault: str, detail: any                                   |

Ops of other kinds are allowed (checkers ignore them); ops of the kinds above are checked
for their fields when a history is built, so a ledger bug surfaces as a clear error naming
the op instead of a KeyError inside a checker.

`FinalState` is what the kit read after quiescence. A field left as None means "not
collected" (a checker that needs it returns verdict `error`), which is not the same as
collected-and-empty.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from kit.errors import KitError

FORMAT = "kit.history/1"


class HistoryError(KitError):
    """A history is malformed (the ledger or the saved file is wrong, not the solution)."""


# Field name -> allowed types, per op kind. `int` excludes bool (see `_type_ok`).
_STR = (str,)
_OPT_STR = (str, type(None))
_INT = (int,)
_OPT_INT = (int, type(None))
_NUM = (int, float)
_BOOL = (bool,)
_ANY = (object,)

REQUIRED: dict[str, dict[str, tuple[type, ...]]] = {
    "phase": {"name": _STR},
    "deploy": {"ok": _BOOL, "stage": _STR, "diagnostics": (list,)},
    "send": {
        "message_id": _STR,
        "body": _STR,
        "order_id": _OPT_STR,
        "customer_id": _OPT_STR,
        "amount_cents": _OPT_INT,
        "valid": _BOOL,
        "duplicate_of": _OPT_STR,
    },
    "receive": {"message_id": _STR, "order_id": _OPT_STR, "receive_count": _INT},
    "delete": {"message_id": _STR},
    "change_visibility": {"message_id": _STR, "timeout": _NUM},
    "recorded": {"order_id": _STR, "customer_id": _OPT_STR, "amount_cents": _OPT_INT},
    "worker_start": {"worker": _STR, "pid": _INT},
    "worker_exit": {"worker": _STR, "pid": _INT},
    "fault_start": {"fault": _STR, "detail": _ANY},
    "fault_end": {"fault": _STR, "detail": _ANY},
}
OPTIONAL: dict[str, dict[str, tuple[type, ...]]] = {
    "deploy": {"kit_error": _OPT_STR},
    "receive": {"injected": _BOOL},
    "worker_exit": {"code": _OPT_INT, "signal": _OPT_STR},
}
KINDS = tuple(REQUIRED)


def _type_ok(value: Any, types: tuple[type, ...]) -> bool:
    # bool is a subclass of int: True must not pass as an amount or a pid.
    if isinstance(value, bool) and bool not in types and object not in types:
        return False
    return isinstance(value, types)


def _order_fields(value: Mapping[str, Any]) -> dict[str, Any]:
    return {k: value.get(k) for k in ("order_id", "customer_id", "amount_cents")}


def _is_valid_order(value: Mapping[str, Any]) -> bool:
    amount = value.get("amount_cents")
    return (isinstance(value.get("order_id"), str) and isinstance(value.get("customer_id"), str)
            and _type_ok(amount, _INT) and amount > 0)


def _type_names(types: tuple[type, ...]) -> str:
    return " or ".join("null" if t is type(None) else t.__name__ for t in types)


class Op(BaseModel):
    """One event of the run: who did what, when, with which fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    index: int
    time: float
    process: str
    kind: str
    value: dict[str, Any]

    @model_validator(mode="after")
    def _check_fields(self) -> Op:
        where = f"op {self.index} ({self.kind} by {self.process})"
        for name, types in REQUIRED.get(self.kind, {}).items():
            if name not in self.value:
                raise ValueError(f"{where}: missing field {name!r}; the table in kit/history.py "
                                 f"lists the fields of {self.kind!r}")
            if not _type_ok(self.value[name], types):
                raise ValueError(f"{where}: field {name!r} is {self.value[name]!r}, "
                                 f"expected {_type_names(types)}")
        for name, types in OPTIONAL.get(self.kind, {}).items():
            if name in self.value and not _type_ok(self.value[name], types):
                raise ValueError(f"{where}: field {name!r} is {self.value[name]!r}, "
                                 f"expected {_type_names(types)}")
        if self.kind == "send" and self.value["valid"] and not _is_valid_order(self.value):
            raise ValueError(f"{where}: marked valid but its order fields are "
                             f"{_order_fields(self.value)}; use describe_body(body)")
        return self


class OrderRow(BaseModel):
    """One row of the `orders` table as read at the end (extra columns kept)."""

    model_config = ConfigDict(frozen=True, extra="allow")

    order_id: str | None
    customer_id: str | None = None
    amount_cents: int | None = None


class QueueMessage(BaseModel):
    """A message left in a queue at the end; receive_count excludes the kit's own read."""

    model_config = ConfigDict(frozen=True)

    message_id: str
    body: str
    receive_count: int


class RdsConfig(BaseModel):
    """Facts about the database from the Terraform plan JSON (extra facts kept)."""

    model_config = ConfigDict(frozen=True, extra="allow")

    password_literal: bool
    where: str | None = None  # "file:line" or the variable name holding the literal


class FinalState(BaseModel):
    """What the kit read after quiescence; None means not collected."""

    model_config = ConfigDict(frozen=True)

    orders: list[OrderRow] | None = None  # every row, duplicates kept if the table has no PK
    balances: dict[str, int | None] | None = None  # customer_id -> balance_cents
    queue_messages: list[QueueMessage] | None = None
    dlq_messages: list[QueueMessage] | None = None
    db_instance: dict[str, Any] | None = None  # one DBInstances entry of DescribeDBInstances
    rds_config: RdsConfig | None = None
    iam: dict[str, Any] | None = None  # reserved for the IAM checkers


class History(BaseModel):
    """The ops of one run in index order, and the final state."""

    model_config = ConfigDict(frozen=True)

    ops: tuple[Op, ...] = ()
    final: FinalState | None = None

    @model_validator(mode="after")
    def _check_order(self) -> History:
        # Checkers order events by index; an out-of-order ledger would silently mislead them.
        for before, after in zip(self.ops, self.ops[1:], strict=False):
            if after.index <= before.index:
                raise ValueError(f"op indexes must strictly increase: op {after.index} "
                                 f"follows op {before.index}")
        return self

    def of_kind(self, *kinds: str) -> list[Op]:
        """The ops of the given kinds, in index order."""
        return [op for op in self.ops if op.kind in kinds]

    def to_json(self) -> str:
        """This history as a JSON document (tagged with its format version)."""
        return json.dumps({"format": FORMAT, **self.model_dump(mode="json")}, indent=None)

    @classmethod
    def from_json(cls, text: str | bytes) -> History:
        """A history from `to_json` output; HistoryError says what is wrong with it."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise HistoryError(f"history is not JSON: {e}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            found = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise HistoryError(f"history format is {found!r}, expected {FORMAT!r}; "
                               f"write it with History.save")
        data.pop("format")
        try:
            return cls.model_validate(data)
        except ValidationError as e:
            raise HistoryError(f"history is malformed: {e}") from None

    def save(self, path: str | Path) -> Path:
        """Write this history to `path` as JSON and return the path."""
        path = Path(path)
        path.write_text(self.to_json(), encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: str | Path) -> History:
        """Read a history written by `save`."""
        path = Path(path)
        try:
            return cls.from_json(path.read_bytes())
        except HistoryError as e:
            raise HistoryError(f"{path}: {e}") from None


def make_history(ops: Iterable[Op | Mapping[str, Any]], final: FinalState | None = None
                 ) -> History:
    """A History from ops (records or plain dicts); HistoryError names the bad op."""
    try:
        return History(ops=tuple(ops), final=final)
    except ValidationError as e:
        raise HistoryError(f"history is malformed: {e}") from None


def describe_body(body: str) -> dict[str, Any]:
    """The order fields of a message body and whether it is a valid order (the poison rule).

    Poison: not a JSON object, a missing or mistyped field (order_id and customer_id are
    strings, amount_cents an integer, not a bool), or amount_cents <= 0. Fields that parse
    are returned even for poison, so a recorded poison order can be recognised.
    """
    try:
        obj = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError, TypeError):
        obj = None
    if not isinstance(obj, dict):
        return {"order_id": None, "customer_id": None, "amount_cents": None, "valid": False}
    order_id, customer_id, amount = (obj.get("order_id"), obj.get("customer_id"),
                                     obj.get("amount_cents"))
    facts = {
        "order_id": order_id if isinstance(order_id, str) else None,
        "customer_id": customer_id if isinstance(customer_id, str) else None,
        "amount_cents": amount if _type_ok(amount, _INT) else None,
    }
    return {**facts, "valid": _is_valid_order(facts)}
