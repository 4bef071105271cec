"""The run's history: every observed event as a small frozen record, plus the final state.

Jepsen's shape: the run appends ops in the order it learns of them; checkers are pure
functions over the saved history and never talk to a service. A history saved with
`History.save` can be re-checked offline with `History.load`.

An op (`parse_op`) has index, time, process, type, kind and value. `index` is the
position in the history (strictly increasing: the total order checkers use), `time` is
seconds since the run started on a monotonic clock, `process` names who did it, `type`
is Jepsen's invoke / ok / fail / info (the operation was asked for / happened / certainly
did not happen / may or may not have happened; the kit records most events once they are
known, as `ok`), `kind` is the function (Jepsen's `f`) and `value` carries the fields below.
Worker process names are per session ("worker-0", and a restarted worker gets a new name
such as "worker-0#1"), so calls are attributed to the process that made them.

Messages are the scenario's: each scenario declares (scenario.yaml `messages`) the field
that keys a message (an order's id, a posting's) and the fields of its body; the scenario's
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
|                   |               | second send); optional queue (or topic: an SNS publish),  |
|                   |               | group, dedup_id.                                          |
|                   |               | type fail: no message_id; error: str (e.g. AccessDenied) |
| delivery          | sns / events  | message_id (SNS / event id), topic (or rule), subscription|
|                   |               | (or the rule's target), endpoint (queue                   |
|                   |               | ARN), outcome: delivered / filtered / refused / failed /  |
|                   |               | skipped, reason: str, queue_message_id: str|None, key:    |
|                   |               | the kit's SNS fan-out, one per subscription of a publish  |
| receive           | worker-N      | message_id, key: str|None, receive_count: int,            |
|                   |               | injected: bool (optional; the nemesis fabricated this     |
|                   |               | delivery), group (optional)                               |
| delete            | worker-N      | message_id                                                |
| change_visibility | worker-N      | message_id, timeout: number (seconds; 0 releases it)      |
| recorded          | observer      | key: str, fields: dict: the DB poller first saw this      |
|                   |               | effect row (time = first seen); the final read emits one  |
|                   |               | for every row not seen before                             |
| worker_start      | kit           | worker (session name), pid: int (0: a slot of the kit's   |
|                   |               | Lambda service, kit/lambdas/, whose invocations each get |
|                   |               | a sandbox of their own)                                   |
| worker_exit       | kit           | worker, pid: int, code: int|None, signal: str|None,       |
|                   |               | refused: str (optional; its sandbox could not start on a  |
|                   |               | limit the solution's own processes filled), by: "stop" /  |
|                   |               | "fault" when the kit ended it (absent: it exited itself)  |
| lambda            | kit           | function, handler, timeout, reserved, code, mapping: what |
|                   |               | the kit's Lambda service read of the deployed function   |
| invocation        | worker-N      | (Lambda consumers) invoke: function, request_id,          |
|                   |               | batch_size, message_ids; ok/fail: function, batch_size,   |
|                   |               | outcome (success / partial / failed), reason, deleted,    |
|                   |               | seconds; fail with outcome throttled: never invoked       |
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
|                   |               | ...), detail fields: what the data plane did; `overrun`   |
|                   |               | (transition, seconds): its real work outlasted the model  |
| rotation_step     | kit           | rotation: int, step: str, token: str, error: str: one     |
|                   |               | invocation of a rotation function (ok / fail)            |
| rotation          | kit           | rotation: int, token, before / after: {version: labels},  |
|                   |               | error: str: one rotation of a secret (ok / fail)          |
| first_credentials_| kit           | version: str, error: str: a login with the credentials    |
| login             |               | current before the first rotation (ok: accepted)         |
| request_refused   | worker-N /    | code: str (the AWS error answered), reason: str, service, |
|                   | unknown       | occurrence: int: the gateway refused a request over a     |
|                   |               | size limit (kit/gateway/limits.py), a malformed one or a  |
|                   |               | connection over its cap (sampled: see below)              |
| connection_refused| worker-N /    | port: int, limit: int, refused: int (the run's total so   |
|                   | pid N         | far): the workers' relay refused a connection over the    |
|                   |               | run's cap (kit/sandbox/netns.py; the first 20, then every |
|                   |               | power of two)                                             |
| connects_refused  | network       | port: int (closed by a network outage), refused: int: the |
|                   |               | workers' connection attempts the namespace refused since  |
|                   |               | it closed (sampled every 0.25 s, when it grows;          |
|                   |               | kit/sandbox/attempts.py)                                  |

Refusals a worker can repeat at will (`authn`, `request_refused`) are sampled: each of
the first 20 of a process, then every power of two, with `occurrence` (the count so far;
kit/recorder.py `record_sampled`).
Every string a worker can choose (an access key id, an action, a resource, an error text)
is recorded through `bounded`: cut to `MAX_TEXT` characters (an access key id to
`MAX_KEY_ID`) with a marker saying how much was cut, lists to `MAX_ITEMS`, so a history
stays small whatever a worker sends.

Each kind above has its model (`VALUES`; a failed send or write says why instead, `FAILED`),
and an op is the discriminated union of them picked by `kind` (and `type`): the recorder
builds the typed op when it records it and loading a saved history builds them again, so a
ledger bug surfaces at once as a clear error naming the op and its field instead of a
KeyError inside a checker, and checkers read attributes (`op.value.key`). Ops of other
kinds, and invoke / info ops, keep whatever fields they have (checkers ignore them).

`FinalState` is what the kit read after quiescence. A field left as None means "not
collected" (a checker that needs it returns verdict `error`), which is not the same as
collected-and-empty.

Format `kit.history/2`. A `/1` history (one scenario's own fields instead of key and
fields) is read through that scenario's `upgrade_history` (`History.load(path, upgrade=)`):
the kit itself knows no scenario's fields.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Tag,
    TypeAdapter,
    ValidationError,
    create_model,
    model_validator,
)

from kit.errors import KitError

FORMAT = "kit.history/2"
OLD_FORMAT = "kit.history/1"


class HistoryError(KitError):
    """A history is malformed (the ledger or the saved file is wrong, not the solution)."""


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


class Value(BaseModel):
    """The fields of one op. Strict (a bool is not an int, a number is not a str); fields
    beyond the declared ones are kept. Optional fields the recorder did not set are not
    written (ops are dumped `exclude_unset`), so a saved op holds exactly what was recorded."""

    model_config = ConfigDict(frozen=True, extra="allow", strict=True)

    def as_dict(self) -> dict[str, Any]:
        """The fields as recorded (unset optional ones left out), for evidence."""
        return self.model_dump(exclude_unset=True)


# One model per op kind. Fields are declared in the order the kit records them: a saved op
# writes its fields in that order (then any others, as recorded).
class Phase(Value):
    """The run entered a phase."""

    name: str  # "deploy" / "workload" / "recover" / "observe"


class Deploy(Value):
    """A deploy stage ended (ok or not; kit_error when the kit broke it)."""

    ok: bool
    stage: str
    diagnostics: list[Any]
    kit_error: str | None = None


class Gate(Value):
    """The static gate's verdict on the solution (no violations: admitted)."""

    violations: list[Any]


class Send(Value):
    """The producer's message, as the scenario's describe() sees its body."""

    message_id: str
    duplicate_of: str | None
    body: str
    key: str | None
    fields: dict[str, Any]
    valid: bool
    queue: str | None = None
    topic: str | None = None  # a publish to an SNS topic: message_id is the SNS one
    rule: str | None = None  # an event put on a bus for a rule: message_id is the event id
    group: str | None = None
    dedup_id: str | None = None

    @model_validator(mode="after")
    def _valid_has_key(self) -> Send:
        if self.valid and self.key is None:
            raise ValueError("marked valid but has no key; a valid message always has one "
                             "(the scenario's describe() decides both)")
        return self


class SendFailed(Value):
    """A send AWS refused: why, and the body it carried."""

    error: str
    body: str


class Delivery(Value):
    """SNS (the kit's fan-out, kit/gateway/sns.py) and one subscription of a published
    message, or EventBridge (kit/gateway/events.py) and one target of a matching rule:
    delivered, filtered, refused, failed or skipped, and why."""

    message_id: str  # the SNS message id or the event id (what the send recorded)
    topic: str | None = None  # SNS: the topic published to
    rule: str | None = None  # EventBridge: the rule whose target this is
    subscription: str
    endpoint: str
    outcome: Literal["delivered", "filtered", "refused", "failed", "skipped"]
    reason: str
    queue_message_id: str | None  # the SQS message id of a delivered message
    key: str | None


class Receive(Value):
    """A worker received a message (as the gateway saw the reply)."""

    message_id: str
    key: str | None
    receive_count: int
    group: str | None = None
    injected: bool = False  # the nemesis fabricated this delivery


class Delete(Value):
    """A worker's delete of a message succeeded."""

    message_id: str


class ChangeVisibility(Value):
    """A worker changed a message's visibility timeout (0 releases it)."""

    message_id: str
    timeout: int | float


class Recorded(Value):
    """The observer first saw this effect row."""

    key: str
    fields: dict[str, Any]


class WorkerStart(Value):
    """The kit started a worker session."""

    worker: str
    pid: int


class WorkerExit(Value):
    """A worker session ended (its code or signal)."""

    worker: str
    pid: int
    code: int | None = None
    signal: str | None = None
    refused: str | None = None
    by: str | None = None  # "stop" / "fault": the kit ended it; None: the worker exited itself


class SessionRefused(Value):
    """Team mode: the workers' role does not admit the service they run as, so the kit got
    no session for it and started no worker (kit/iam/service.py)."""

    role: str
    role_arn: str
    principal: str  # the service principal, e.g. ecs-tasks.amazonaws.com
    reason: str
    trust: Any  # the role's trust policy, as the emulator held it


class CrashLoop(Value):
    """The workers kept exiting early: the run stopped."""

    exits: list[Any]
    output: dict[str, Any]


class FaultStart(Value):
    """The nemesis injected the run's fault."""

    fault: str
    detail: Any


class FaultEnd(FaultStart):
    """The nemesis healed the run's fault."""


class FaultNotInjected(Value):
    """The workload never reached the state the fault needs."""

    fault: str
    reason: str


class Write(Value):
    """The drill application's write was acknowledged."""

    key: str
    fields: dict[str, Any]
    endpoint: str


class WriteFailed(Value):  # fields in the order the application records them
    """A write certainly not committed, and why."""

    key: str
    fields: dict[str, Any] | None = None
    endpoint: str | None = None
    error: str


class Incident(Value):
    """The incident as the runbook got it."""

    fault: str
    detail: dict[str, Any]


class RunbookExit(Value):
    """The runbook ended (code None: killed at its timeout)."""

    code: int | None
    timed_out: bool
    output: list[Any]


class RdsEvent(Value):
    """What the RDS data plane did (detail fields beyond these kept)."""

    instance: str
    event: str


class RotationStep(Value):
    """One step of a secret's rotation: the rotation function's invocation."""

    rotation: int
    step: str
    token: str
    error: str


class Rotation(Value):
    """One rotation of a secret: its token and the staging labels before and after."""

    rotation: int
    token: str
    before: dict[str, list[str]]
    after: dict[str, list[str]]
    error: str


class FirstLogin(Value):
    """A login with the credentials that were current before the first rotation."""

    version: str
    error: str


class RequestRefused(Value):
    """The gateway refused a request (sampled; occurrence counts them)."""

    occurrence: int | None = None
    code: str
    reason: str


class ConnectionRefused(Value):
    """The workers' relay refused a connection over the run's cap."""

    port: int
    refused: int
    limit: int


class ConnectsRefused(Value):
    """Connection attempts of the workers refused while a port was closed, so far."""

    port: int
    refused: int


class Interference(Value):  # kit/workload/harm.py
    """The solution harmed one of the kit's own sessions."""

    target: str
    cause: str


class Authz(Value):  # kit/gateway/guard.py: every field bounded
    """The gateway's authorization decision on one call."""

    action: str | None = None
    operation: str | None = None
    resource: str | None = None
    decision: str | None = None
    deciding: list[Any] | None = None
    reason: str | None = None


class Confinement(Value):
    """How one role's processes are confined (every axis kept)."""

    role: str | None = None


class _Op(BaseModel):
    """One event of the run: who did what, when, with which fields."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    index: int
    time: float
    process: str
    type: OpType = "ok"
    kind: str
    value: Value

    @property
    def ok(self) -> bool:
        """Say whether the operation happened (type ok)."""
        return self.type == "ok"


# The value of an `ok` op of each kind; a failed op of a kind here says why instead of
# what it produced. Other kinds, and invoke / info ops, keep whatever fields they have.
VALUES: dict[str, type[Value]] = {
    "phase": Phase, "deploy": Deploy, "gate": Gate, "send": Send, "receive": Receive,
    "delete": Delete, "change_visibility": ChangeVisibility, "recorded": Recorded,
    "worker_start": WorkerStart, "worker_exit": WorkerExit, "crash_loop": CrashLoop,
    "session_refused": SessionRefused,
    "fault_start": FaultStart, "fault_end": FaultEnd, "fault_not_injected": FaultNotInjected,
    "write": Write, "incident": Incident, "runbook_exit": RunbookExit, "rds_event": RdsEvent,
    "request_refused": RequestRefused, "connection_refused": ConnectionRefused,
    "connects_refused": ConnectsRefused,
    "interference": Interference, "authz": Authz, "confinement": Confinement,
    "delivery": Delivery,
}
# Kinds whose ok and failed ops have the same fields.
SAME_WHEN_FAILED: dict[str, type[Value]] = {"rotation_step": RotationStep, "rotation": Rotation,
                                            "first_credentials_login": FirstLogin}
VALUES.update(SAME_WHEN_FAILED)
FAILED: dict[str, type[Value]] = {"send": SendFailed, "write": WriteFailed, **SAME_WHEN_FAILED}


def _op_model(tag: str, value: type[Value], kind: str, type_: str) -> Any:
    model = create_model(f"{value.__name__}Op", __base__=_Op, __doc__=_Op.__doc__,
                         kind=(Literal[kind], ...), value=(value, ...),
                         type=(Literal[type_], type_))  # type: ignore[call-overload]
    return Annotated[model, Tag(tag)]


def _tag(data: Any) -> str:
    if isinstance(data, dict):
        kind, type_ = data.get("kind"), data.get("type", "ok")
    else:
        kind, type_ = getattr(data, "kind", None), getattr(data, "type", "ok")
    if type_ == "ok":
        return kind if kind in VALUES else "other"
    return f"{kind}/fail" if type_ == "fail" and kind in FAILED else "other"


# An op: a model per kind (and per failed shape), picked by its `kind` (and `type`).
Op = Annotated[Union[  # noqa: UP007 - a discriminated union needs the Union form
    tuple([_op_model(kind, value, kind, "ok") for kind, value in VALUES.items()]
          + [_op_model(f"{kind}/fail", value, kind, "fail") for kind, value in FAILED.items()]
          + [Annotated[_Op, Tag("other")]])], Discriminator(_tag)]
_OP: TypeAdapter[Any] = TypeAdapter(Op)
_OPS: TypeAdapter[tuple[Any, ...]] = TypeAdapter(tuple[Op, ...])


def _say(first: Any, ops: Any) -> str:
    """An error of validating `ops` (a list, or one op; pydantic's error dict, its `loc`
    from there) as a sentence naming the op and its field."""
    loc = list(first["loc"])
    op = ops
    if isinstance(ops, list | tuple) and loc and isinstance(loc[0], int):
        op = ops[loc.pop(0)]
    if not isinstance(op, dict):
        return f"an op is {op!r}, expected an object"
    where = (f"op {op.get('index')} ({op.get('type', 'ok')} {op.get('kind')} by "
             f"{op.get('process')})")
    if loc and isinstance(loc[0], str) and (loc[0] in VALUES or "/" in loc[0]
                                            or loc[0] == "other"):
        loc = loc[1:]  # the union's tag: the model the op was checked against
    in_value = loc[:1] == ["value"]
    name = ".".join(str(part) for part in (loc[1:] if in_value else loc))
    if first["type"] == "missing" and in_value:
        return (f"{where}: missing field {name!r}; the models in kit/history.py list the "
                f"fields of {op.get('kind')!r}")
    if first["type"] == "missing":
        return f"{where}: missing {name!r} (an op has index, time, process, kind, value)"
    if not name:
        return f"{where}: {first['msg'].removeprefix('Value error, ')}"
    return f"{where}: field {name!r} is {first['input']!r}: {first['msg']}"


def parse_op(data: Mapping[str, Any]) -> Any:
    """The typed op of `data` (index, time, process, type, kind, value); HistoryError
    names the op and the field that is wrong."""
    try:
        return _OP.validate_python(data)
    except ValidationError as e:
        raise HistoryError(f"history is malformed: {_say(e.errors()[0], data)}") from None



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
    # GetQueueAttributes (All) per queue resource (None: the queue is gone at the end).
    queue_attributes: dict[str, dict[str, str] | None] | None = None
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
        # exclude_unset: an op's optional fields are written only when recorded (the
        # recorder always sets `type`); the final state's unread parts are written as null.
        return json.dumps({"format": FORMAT,
                           "ops": _OPS.dump_python(self.ops, mode="json", exclude_unset=True),
                           "final": None if self.final is None
                           else self.final.model_dump(mode="json")}, indent=None)

    @classmethod
    def from_json(cls, text: str | bytes, upgrade: Upgrade | None = None) -> History:
        """A history from `to_json` output; HistoryError says what is wrong. A `/1` one is
        read through `upgrade` (its scenario's: only the scenario knows its old fields)."""
        if _PREFIX.match(text if isinstance(text, str) else text[:64].decode(errors="replace")):
            try:  # what save wrote: parsed and typed in one pass, without Python dicts
                return cls.model_validate_json(text)
            except ValidationError:
                pass  # read again below, for an error naming the op
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise HistoryError(f"history is not JSON: {e}") from None
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        if found == OLD_FORMAT and upgrade is not None:
            data = upgrade(data)
        elif found == OLD_FORMAT:
            raise HistoryError(f"history format is {OLD_FORMAT!r}: read it with its "
                               "scenario's upgrade_history (History.load(path, upgrade=...))")
        elif found != FORMAT:
            raise HistoryError(f"history format is {found!r}, expected {FORMAT!r} (or "
                               f"{OLD_FORMAT!r}); write it with History.save")
        ops = data.get("ops", [])
        if not isinstance(ops, list):
            raise HistoryError(f"history field 'ops' is {type(ops).__name__}, expected a list")
        try:  # one validation pass: the ops are typed as the history is built
            return cls.model_validate({"ops": ops, "final": data.get("final")})
        except ValidationError as e:
            raise HistoryError(f"history is malformed: {_say_history(e, ops)}") from None

    def save(self, path: str | Path) -> Path:
        """Write this history to `path` as JSON and return the path."""
        path = Path(path)
        path.write_text(self.to_json(), encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: str | Path, upgrade: Upgrade | None = None) -> History:
        """Read a history written by `save` (a `/1` one through `upgrade`)."""
        path = Path(path)
        try:
            return cls.from_json(path.read_bytes(), upgrade)
        except HistoryError as e:
            raise HistoryError(f"{path}: {e}") from None


# How to_json starts a document: such a one is validated straight from its JSON text.
_PREFIX = re.compile(r'\{"format": "' + re.escape(FORMAT) + '", "ops": ')
# Turns an older format's document into the current shape (a scenario's, see from_json).
Upgrade = Callable[[dict[str, Any]], dict[str, Any]]


def make_history(ops: Iterable[Any], final: FinalState | None = None) -> History:
    """A History from ops (typed ops or plain dicts); HistoryError names the bad op."""
    ops = list(ops)
    try:
        return History(ops=tuple(ops), final=final)
    except ValidationError as e:
        raise HistoryError(f"history is malformed: {_say_history(e, ops)}") from None


def _say_history(error: ValidationError, ops: list[Any]) -> str:
    """What is wrong with a history: its op and field, or the whole error (its final state
    or its order)."""
    first = error.errors(include_url=False)[0]
    loc = first["loc"]
    if len(loc) > 1 and loc[0] == "ops" and isinstance(loc[1], int):
        return _say({**first, "loc": loc[1:]}, ops)
    return str(error)
