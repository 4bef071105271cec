"""The run's history: every observed event as a small frozen record, plus the final state.

Jepsen's shape: the run appends ops in the order it learns of them; checkers are pure
functions over the saved history and never talk to a service. A history saved with
`History.save` can be re-checked offline with `History.load`.

An op is `Op(index, time, process, type, kind, value)`. `index` is the position in the
history (strictly increasing: the total order checkers use), `time` is seconds since the
run started on a monotonic clock, `process` names who did it, `type` is Jepsen's
invoke / ok / fail / info (the operation was asked for / happened / certainly did not
happen / may or may not have happened; the kit records most events once they are known,
as `ok`), `kind` is the function (Jepsen's `f`) and `value` carries the fields below.
Worker process names are per session ("worker-0", and a restarted worker gets a new name
such as "worker-0#1"), so calls are attributed to the process that made them.

Messages are the scenario's: each scenario declares (scenario.yaml `messages`) the field
that keys a message (`order_id`, `posting_id`) and the fields of its body; the scenario's
workload module turns a body into `key` (None when the body has none), `fields` and
`valid` (poison is not valid). The checkers only ever see `key` and `fields`.

| kind              | process       | value fields                                              |
|-------------------|---------------|-----------------------------------------------------------|
| phase             | kit           | name: "deploy" / "workload" / "recover" / "observe"      |
| deploy            | kit           | ok: bool, stage: str, diagnostics: list,                  |
|                   |               | kit_error: str|None (optional; set when the kit, not the |
|                   |               | solution, broke the deploy, e.g. a provider mirror gap)   |
| send              | producer      | message_id, body (raw str), key: str|None, fields: dict,  |
|                   |               | valid: bool, duplicate_of: message_id|None (a deliberate |
|                   |               | second send); optional queue, group, dedup_id.            |
|                   |               | type fail: no message_id; error: str (e.g. AccessDenied) |
| receive           | worker-N      | message_id, key: str|None, receive_count: int,            |
|                   |               | injected: bool (optional; the nemesis fabricated this     |
|                   |               | delivery), group (optional)                               |
| delete            | worker-N      | message_id                                                |
| change_visibility | worker-N      | message_id, timeout: number (seconds; 0 releases it)      |
| recorded          | observer      | key: str, fields: dict: the DB poller first saw this      |
|                   |               | effect row (time = first seen); the final read emits one  |
|                   |               | for every row not seen before                             |
| worker_start      | kit           | worker (session name), pid: int                           |
| worker_exit       | kit           | worker, pid: int, code: int|None, signal: str|None,       |
|                   |               | refused: str (optional; its sandbox could not start on a  |
|                   |               | limit the solution's own processes filled)                |
| fault_start       | nemesis       | fault: str, detail: any                                   |
| fault_end         | nemesis       | fault: str, detail: any                                   |
| fault_not_injected| nemesis       | fault: str, reason: str: the workload never reached the   |
|                   |               | state the fault needs (judged: workload.fault_injected)   |
| write             | app           | (drills) key: str, fields: dict, endpoint: "host:port".   |
|                   |               | invoke before the transaction; ok: COMMIT acknowledged;   |
|                   |               | fail (error: str): certainly not committed; info: the     |
|                   |               | connection broke during COMMIT (committed or not)         |
| incident          | kit           | fault: str, detail: dict: the incident as the runbook got |
|                   |               | it (time = when it was reported)                          |
| runbook_exit      | kit           | code: int|None (None: killed at its timeout), timed_out,  |
|                   |               | output: list (its last lines)                             |
| rds_event         | rds           | instance: str, event: str (status, failover_completed,    |
|                   |               | ...), detail fields: what the data plane did              |
| request_refused   | worker-N /    | code: str (the AWS error answered), reason: str, service, |
|                   | unknown       | occurrence: int: the gateway refused a request over a     |
|                   |               | size limit (kit/gateway/limits.py), a malformed one or a  |
|                   |               | connection over its cap (sampled: see below)              |
| connection_refused| worker-N /    | port: int, limit: int, refused: int (the run's total so   |
|                   | pid N         | far): the workers' relay refused a connection over the    |
|                   |               | run's cap (kit/sandbox/netns.py; the first 20, then every |
|                   |               | power of two)                                             |

Refusals a worker can repeat at will (`authn`, `request_refused`) are sampled: each of
the first 20 of a process, then every power of two, with `occurrence` (the count so far;
kit/recorder.py `record_sampled`).
Every string a worker can choose (an access key id, an action, a resource, an error text)
is recorded through `bounded`: cut to `MAX_TEXT` characters (an access key id to
`MAX_KEY_ID`) with a marker saying how much was cut, lists to `MAX_ITEMS`, so a history
stays small whatever a worker sends.

Ops of other kinds are allowed (checkers ignore them); `ok` ops of the kinds above are
checked for their fields when a history is built, so a ledger bug surfaces as a clear error
naming the op instead of a KeyError inside a checker.

`FinalState` is what the kit read after quiescence. A field left as None means "not
collected" (a checker that needs it returns verdict `error`), which is not the same as
collected-and-empty.

Format `kit.history/2`; `/1` histories (order fields instead of key and fields) are read
and converted by `History.from_json`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from kit.errors import KitError

FORMAT = "kit.history/2"
OLD_FORMAT = "kit.history/1"


class HistoryError(KitError):
    """A history is malformed (the ledger or the saved file is wrong, not the solution)."""


# Field name -> allowed types, per op kind. `int` excludes bool (see `_type_ok`).
_STR = (str,)
_OPT_STR = (str, type(None))
_INT = (int,)
_OPT_INT = (int, type(None))
_NUM = (int, float)
_BOOL = (bool,)
_DICT = (dict,)
_ANY = (object,)

REQUIRED: dict[str, dict[str, tuple[type, ...]]] = {
    "phase": {"name": _STR},
    "deploy": {"ok": _BOOL, "stage": _STR, "diagnostics": (list,)},
    "send": {"message_id": _STR, "body": _STR, "key": _OPT_STR, "fields": _DICT,
             "valid": _BOOL, "duplicate_of": _OPT_STR},
    "receive": {"message_id": _STR, "key": _OPT_STR, "receive_count": _INT},
    "delete": {"message_id": _STR},
    "change_visibility": {"message_id": _STR, "timeout": _NUM},
    "recorded": {"key": _STR, "fields": _DICT},
    "worker_start": {"worker": _STR, "pid": _INT},
    "worker_exit": {"worker": _STR, "pid": _INT},
    "fault_start": {"fault": _STR, "detail": _ANY},
    "fault_end": {"fault": _STR, "detail": _ANY},
    "fault_not_injected": {"fault": _STR, "reason": _STR},
    "write": {"key": _STR, "fields": _DICT, "endpoint": _STR},
    "incident": {"fault": _STR, "detail": _DICT},
    "runbook_exit": {"code": _OPT_INT, "timed_out": _BOOL, "output": (list,)},
    "rds_event": {"instance": _STR, "event": _STR},
    "request_refused": {"code": _STR, "reason": _STR},
    "connection_refused": {"port": _INT, "limit": _INT, "refused": _INT},
    "interference": {"target": _STR, "cause": _STR},  # kit/workload/harm.py
}
OPTIONAL: dict[str, dict[str, tuple[type, ...]]] = {
    "deploy": {"kit_error": _OPT_STR},
    "send": {"queue": _STR, "group": _OPT_STR, "dedup_id": _OPT_STR},
    "receive": {"injected": _BOOL, "group": _OPT_STR},
    "worker_exit": {"code": _OPT_INT, "signal": _OPT_STR, "refused": _STR},
}
# A failed operation says why instead of what it produced.
FAILED: dict[str, dict[str, tuple[type, ...]]] = {
    "send": {"body": _STR, "error": _STR},
    "write": {"key": _STR, "error": _STR},
}
KINDS = tuple(REQUIRED)
OpType = Literal["invoke", "ok", "fail", "info"]


# Bounds of recorded fields a worker controls. 1024 characters hold any ARN, action or
# AWS error text a real call produces; an access key id is 16 to 128 characters (IAM API
# Reference, AccessKey: "Length Constraints: Minimum length of 16. Maximum length of 128").
MAX_TEXT = 1024
MAX_KEY_ID = 128
MAX_ITEMS = 64


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """`text` cut to `limit` characters, with a marker saying how many were cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}...[kit: {len(text) - limit} more characters cut]"


def bounded(value: Any, limit: int = MAX_TEXT) -> Any:
    """`value` with every string clipped and every list cut to MAX_ITEMS (recursively)."""
    if isinstance(value, str):
        return clip(value, limit)
    if isinstance(value, dict):
        return {clip(str(k), limit): bounded(v, limit) for k, v in value.items()}
    if isinstance(value, list | tuple):
        items = [bounded(v, limit) for v in value[:MAX_ITEMS]]
        if len(value) > MAX_ITEMS:
            items.append(f"...[kit: {len(value) - MAX_ITEMS} more items cut]")
        return items
    return value


def _type_ok(value: Any, types: tuple[type, ...]) -> bool:
    # bool is a subclass of int: True must not pass as an amount or a pid.
    if isinstance(value, bool) and bool not in types and object not in types:
        return False
    return isinstance(value, types)


def _type_names(types: tuple[type, ...]) -> str:
    return " or ".join("null" if t is type(None) else t.__name__ for t in types)


class Op(BaseModel):
    """One event of the run: who did what, when, with which fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    index: int
    time: float
    process: str
    type: OpType = "ok"
    kind: str
    value: dict[str, Any]

    @property
    def ok(self) -> bool:
        """Say whether the operation happened (type ok)."""
        return self.type == "ok"

    @model_validator(mode="after")
    def _check_fields(self) -> Op:
        where = f"op {self.index} ({self.type} {self.kind} by {self.process})"
        required = REQUIRED if self.ok else FAILED if self.type == "fail" else {}
        for name, types in required.get(self.kind, {}).items():
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
        if self.ok and self.kind == "send" and self.value["valid"] and self.value["key"] is None:
            raise ValueError(f"{where}: marked valid but has no key; a valid message always "
                             "has one (the scenario's describe() decides both)")
        return self


class Effect(BaseModel):
    """One row of the scenario's effects table as read at the end: its key and the rest."""

    model_config = ConfigDict(frozen=True)

    key: str | None
    fields: dict[str, Any] = {}


class QueueMessage(BaseModel):
    """A message left in a queue at the end; receive_count excludes the kit's own read;
    key and valid are what the scenario's describe() says of its body (None: not asked)."""

    model_config = ConfigDict(frozen=True)

    message_id: str
    body: str
    receive_count: int
    key: str | None = None
    valid: bool | None = None


class RdsConfig(BaseModel):
    """Facts about the database from the Terraform configuration (extra facts kept)."""

    model_config = ConfigDict(frozen=True, extra="allow")

    password_literal: bool
    where: str | None = None  # "file:line" or the variable name holding the literal


class FinalState(BaseModel):
    """What the kit read after quiescence; None means not collected."""

    model_config = ConfigDict(frozen=True)

    # Every row of the effects table, duplicates kept if the table has no primary key.
    effects: list[Effect] | None = None
    # Every table of the workload's database: table name -> rows (JSON-safe values).
    tables: dict[str, list[dict[str, Any]]] | None = None
    # Messages left in each queue of the scenario, by resource name ("queue.dlq").
    queues: dict[str, list[QueueMessage]] | None = None
    # DescribeDBInstances entry per database resource (None: the instance is gone).
    db_instances: dict[str, dict[str, Any] | None] | None = None
    rds_config: RdsConfig | None = None
    iam: dict[str, Any] | None = None  # see kit/checks/least_privilege.py
    # Drills: the database the application uses at the end (what its endpoint secret names):
    # {"endpoint": "host:port" | None, "instance": identifier | None, "description":
    # DescribeDBInstances entry | None}; `tables` then holds that database's tables.
    in_use: dict[str, Any] | None = None


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
        """The `ok` ops of the given kinds, in index order."""
        return [op for op in self.ops if op.kind in kinds and op.ok]

    def to_json(self) -> str:
        """This history as a JSON document (tagged with its format version)."""
        return json.dumps({"format": FORMAT, **self.model_dump(mode="json")}, indent=None)

    @classmethod
    def from_json(cls, text: str | bytes) -> History:
        """A history from `to_json` output (or a `/1` one); HistoryError says what is wrong."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise HistoryError(f"history is not JSON: {e}") from None
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        if found == OLD_FORMAT:
            data = upgrade(data)
        elif found != FORMAT:
            raise HistoryError(f"history format is {found!r}, expected {FORMAT!r} (or "
                               f"{OLD_FORMAT!r}); write it with History.save")
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


_ORDER_FIELDS = ("customer_id", "amount_cents")


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """A `kit.history/1` document (order-pipeline's order fields) in the `/2` shape."""
    ops = []
    for op in data.get("ops", []):
        value = dict(op["value"])
        if op["kind"] in ("send", "receive", "recorded"):
            value["key"] = value.pop("order_id", None)
            moved = {k: value.pop(k) for k in _ORDER_FIELDS if k in value}
            if op["kind"] != "receive":
                value["fields"] = {"order_id": value["key"], **moved}
        ops.append({**op, "value": value})
    final = data.get("final")
    if final is not None:
        final = {
            "effects": None if final.get("orders") is None else [
                {"key": row.get("order_id"), "fields": row} for row in final["orders"]],
            "tables": None if final.get("balances") is None else {"customer_balances": [
                {"customer_id": c, "balance_cents": b} for c, b in final["balances"].items()]},
            "queues": None if final.get("dlq_messages") is None else {
                "queue.orders": final.get("queue_messages") or [],
                "queue.dlq": final["dlq_messages"]},
            "db_instances": None if final.get("db_instance") is None else {
                "database.main": final["db_instance"]},
            "rds_config": final.get("rds_config"), "iam": final.get("iam"),
        }
    return {**data, "format": FORMAT, "ops": ops, "final": final}
