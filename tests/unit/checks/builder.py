"""Seeded history builders for checker tests: op by op, or a whole healthy run to spoil.

Histories are order-pipeline's, in the current format. The final state is kept in the
shape tests find easiest to spoil (orders, balances, queue_messages, dlq_messages,
db_instance) and converted by order-pipeline's `upgrade_history` when built.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kit import scenario
from kit.checks import INVARIANTS
from kit.history import FinalState, History, Op, parse_op

SCENARIO = scenario.load("order-pipeline")
_DESCRIBE = SCENARIO.workload_module.describe
_UPGRADE = SCENARIO.workload_module.upgrade_history
assert _UPGRADE is not None
# The invariant parameters of order-pipeline (totals, DLQ and database names included).
PARAMS = SCENARIO.params


def resolved(given: Mapping[str, Mapping[str, Any] | None]) -> dict[str, dict[str, Any]]:
    """Each invariant's params as a scenario's loader resolves them (defaults applied):
    what `run_checks` and a checker receive."""
    return {i: INVARIANTS[i].params(p) for i, p in given.items()}


def params_of(check_id: str, **given: Any) -> dict[str, Any]:
    """One invariant's params resolved: its defaults overlaid with `given`."""
    return INVARIANTS[check_id].params(given)


def describe_body(body: str) -> dict[str, Any]:
    """A body as the scenario describes it: key, fields, valid."""
    found = _DESCRIBE(body)
    return {"key": found.key, "fields": found.fields, "valid": found.valid}

HARDENED_DB: dict[str, Any] = {
    "DBInstanceIdentifier": "orders-db",
    "Engine": "postgres",
    "PubliclyAccessible": False,
    "StorageEncrypted": True,
    "BackupRetentionPeriod": 7,
    "DeletionProtection": True,
}

POISON_BODIES = [
    "not json at all",
    json.dumps(["a", "list"]),
    json.dumps({"order_id": "p-missing", "customer_id": "c-0"}),
    json.dumps({"order_id": "p-zero", "customer_id": "c-1", "amount_cents": 0}),
    json.dumps({"order_id": "p-text", "customer_id": "c-2", "amount_cents": "100"}),
]


class HistoryBuilder:
    """Appends ops with seeded, increasing times; holds a mutable final state."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.ops: list[Op] = []
        self.t = 0.0
        self.receive_counts: dict[str, int] = {}
        self.bodies: dict[str, str] = {}  # message_id -> body
        self._next_mid = 0
        self.final: dict[str, Any] | None = None

    # -- time and raw ops -------------------------------------------------------------
    def advance(self, seconds: float) -> None:
        """Move the clock forward."""
        self.t += seconds

    def op(self, process: str, kind: str, **value: Any) -> Op:
        """Append one op a little after the previous one."""
        self.t += self.rng.uniform(0.001, 0.02)
        index = self.ops[-1].index + 1 if self.ops else 0
        op = parse_op({"index": index, "time": self.t, "process": process, "kind": kind,
                       "value": value})
        self.ops.append(op)
        return op

    def drop(self, kind: str, **match: Any) -> list[Op]:
        """Remove the ops of this kind whose value has these fields; returns them."""
        gone = [op for op in self.ops if op.kind == kind
                and all(getattr(op.value, k, None) == v for k, v in match.items())]
        self.ops = [op for op in self.ops if op not in gone]
        return gone

    # -- kit, nemesis ------------------------------------------------------------------
    def deploy(self, ok: bool = True, stage: str = "apply", diagnostics: list | None = None,
               **extra: Any) -> Op:
        return self.op("kit", "deploy", ok=ok, stage=stage, diagnostics=diagnostics or [],
                       **extra)

    def gate(self, violations: list[str] | None = None) -> Op:
        return self.op("kit", "gate", violations=violations or [])

    def phase(self, name: str) -> Op:
        return self.op("kit", "phase", name=name)

    def worker_start(self, worker: str) -> Op:
        return self.op("kit", "worker_start", worker=worker, pid=1000 + len(self.ops))

    def worker_exit(self, worker: str, signal: str | None = "SIGKILL") -> Op:
        return self.op("kit", "worker_exit", worker=worker, pid=1, code=None, signal=signal)

    def fault_start(self, fault: str) -> Op:
        return self.op("nemesis", "fault_start", fault=fault, detail={})

    def fault_end(self, fault: str) -> Op:
        return self.op("nemesis", "fault_end", fault=fault, detail={})

    # -- producer ----------------------------------------------------------------------
    def send(self, body: str, duplicate_of: str | None = None) -> str:
        """Send a body; returns its new message id."""
        mid = f"m-{self._next_mid:05d}"
        self._next_mid += 1
        self.bodies[mid] = body
        self.op("producer", "send", message_id=mid, body=body, duplicate_of=duplicate_of,
                **describe_body(body))
        return mid

    def send_order(self, order_id: str, customer_id: str, amount_cents: int) -> str:
        body = json.dumps({"order_id": order_id, "customer_id": customer_id,
                           "amount_cents": amount_cents})
        return self.send(body)

    # -- workers (as the gateway records them) -----------------------------------------
    def receive(self, worker: str, mid: str, injected: bool = False) -> Op:
        if not injected:
            self.receive_counts[mid] = self.receive_counts.get(mid, 0) + 1
        facts = describe_body(self.bodies[mid])
        return self.op(worker, "receive", message_id=mid, key=facts["key"],
                       receive_count=self.receive_counts.get(mid, 1), injected=injected)

    def delete(self, worker: str, mid: str) -> Op:
        return self.op(worker, "delete", message_id=mid)

    def change_visibility(self, worker: str, mid: str, timeout: float) -> Op:
        return self.op(worker, "change_visibility", message_id=mid, timeout=timeout)

    # -- observer ----------------------------------------------------------------------
    def record(self, mid: str) -> Op:
        """The observer sees the order row of this message's body appear."""
        f = describe_body(self.bodies[mid])
        return self.op("observer", "recorded", key=f["key"], fields=f["fields"])

    def build(self) -> History:
        final = None
        if self.final is not None:
            data = _UPGRADE({"final": self.final})["final"]
            # Newer than the kit.history/1 shape the builder writes: carried as it is.
            data["queue_attributes"] = self.final.get("queue_attributes")
            # As the run reads queues: each message described by the scenario.
            for messages in (data["queues"] or {}).values():
                for m in messages:
                    facts = describe_body(m["body"])
                    m.update(key=facts["key"], valid=facts["valid"])
            final = FinalState.model_validate(data)
        return History(ops=tuple(self.ops), final=final)


@dataclass
class Run:
    """A healthy run and handles on its parts, for tests to spoil before `build`."""

    b: HistoryBuilder
    orders: dict[str, str] = field(default_factory=dict)  # order_id -> first message id
    duplicates: dict[str, str] = field(default_factory=dict)  # dup message id -> original
    poison: list[str] = field(default_factory=list)  # poison message ids
    workers: list[str] = field(default_factory=list)

    @property
    def final(self) -> dict[str, Any]:
        assert self.b.final is not None
        return self.b.final

    def build(self) -> History:
        return self.b.build()


def healthy_run(seed: int = 0, orders: int = 20, duplicates: int = 3, workers: int = 2,
                max_receives: int = 3, fault: str = "none", finish: bool = True) -> Run:
    """A run of a correct pipeline: every order once, poison redriven after max_receives.

    With finish=False the observe phase and final state are left for the test to write
    (after it appends its own ops).
    """
    b = HistoryBuilder(seed)
    run = Run(b=b, workers=[f"worker-{i}" for i in range(workers)])
    rng = b.rng
    b.gate()
    b.phase("deploy")
    b.deploy(ok=True, stage="apply")
    b.phase("workload")
    for w in run.workers:
        b.worker_start(w)

    sent: list[str] = []
    for i in range(orders):
        mid = b.send_order(f"o-{i:04d}", f"c-{rng.randrange(4)}", rng.randint(100, 9_999))
        run.orders[f"o-{i:04d}"] = mid
        sent.append(mid)
    for original in rng.sample(sent[: orders // 2], duplicates):
        dup = b.send(b.bodies[original], duplicate_of=original)
        run.duplicates[dup] = original
        sent.append(dup)
    for body in POISON_BODIES:
        mid = b.send(body)
        run.poison.append(mid)
        sent.append(mid)
    if fault != "none":
        b.fault_start(fault)
        b.advance(2.0)
        b.fault_end(fault)

    recorded: set[str] = set()
    for n, mid in enumerate(sent):
        w = run.workers[n % workers]
        if mid in run.poison:
            for k in range(max_receives):
                b.receive(run.workers[(n + k) % workers], mid)
            continue
        b.receive(w, mid)
        order_id = describe_body(b.bodies[mid])["key"]
        if order_id not in recorded:
            recorded.add(order_id)
            b.record(mid)
        b.delete(w, mid)

    if finish:
        finish_run(run)
    return run


def finish_run(run: Run) -> None:
    """Observe phase and the final state a correct pipeline leaves behind."""
    b = run.b
    b.phase("observe")
    rows, balances = [], {}
    for order_id, mid in run.orders.items():
        f = describe_body(b.bodies[mid])["fields"]
        rows.append({"order_id": order_id, "customer_id": f["customer_id"],
                     "amount_cents": f["amount_cents"]})
        balances[f["customer_id"]] = balances.get(f["customer_id"], 0) + f["amount_cents"]
    b.final = {
        "orders": rows,
        "balances": balances,
        "queue_messages": [],
        "dlq_messages": [{"message_id": mid, "body": b.bodies[mid],
                          "receive_count": b.receive_counts.get(mid, 0)} for mid in run.poison],
        "db_instance": dict(HARDENED_DB),
        "rds_config": {"password_literal": False, "where": None},
        "iam": encrypted(healthy_iam()),
        "queue_attributes": {name: {"MessageRetentionPeriod": "345600"}
                             for name in ("queue.orders", "queue.dlq")},
    }


ACCOUNT = "123456789012"
ARN = {
    "queue": f"arn:aws:sqs:us-east-1:{ACCOUNT}:orders",
    "dlq": f"arn:aws:sqs:us-east-1:{ACCOUNT}:orders-dlq",
    "decoy_queue": f"arn:aws:sqs:us-east-1:{ACCOUNT}:kit-decoy-queue",
    "decoy_secret": f"arn:aws:secretsmanager:us-east-1:{ACCOUNT}:secret:kit-decoy-AbCdEf",
    "decoy_role": f"arn:aws:iam::{ACCOUNT}:role/kit-decoy-role",
    "boundary": f"arn:aws:iam::{ACCOUNT}:policy/org/workload-boundary",
}
HARNESS = f"arn:aws:iam::{ACCOUNT}:user/kit-harness"
WORKER_ACTIONS = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility"]
IAM_PARAMS = {
    "iam.required_access": {"roles": {
        "worker": [[a, "queue"] for a in WORKER_ACTIONS],
        "producer": [["sqs:SendMessage", "queue"]]}},
    "iam.least_privilege": {"roles": {
        "worker": [[a, "queue"] for a in [*WORKER_ACTIONS, "sqs:GetQueueAttributes"]],
        "producer": [["sqs:SendMessage", "queue"], ["sqs:GetQueueAttributes", "queue"]]}},
}
# The checkers of resource policies and boundaries, on the same state.
RESOURCE_PARAMS = {
    "iam.resource_exposure": {"resources": ["queue"]},
    "iam.permissions_boundary": {"boundary": "boundary", "roles": ["worker", "producer"]},
    "encryption.at_rest": {"resources": {"queue": "key"}},
}
# delivery.retention on the queues the healthy run's final state describes.
RETENTION_PARAMS = {"delivery.retention": {"queues": {"queue.orders": 345600,
                                                      "queue.dlq": 345600}}}
KEY_ARN = f"arn:aws:kms:us-east-1:{ACCOUNT}:key/0a1b2c3d-1111-4222-8333-444455556666"


def encrypted(iam: dict[str, Any]) -> dict[str, Any]:
    """The state with the queue encrypted with a customer managed key, `key`, under its
    default key policy (no role is granted its use)."""
    iam["resources"] |= {"key": KEY_ARN, "queue.kms_key": KEY_ARN}
    iam["resource_policies"] = {"queue.kms_key": {"Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{ACCOUNT}:root"},
        "Action": "kms:*", "Resource": "*"}]}}
    return iam


def trust(principal: str = HARNESS) -> dict[str, Any]:
    return {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Principal": {"AWS": principal}, "Action": "sts:AssumeRole"}]}


def allow(actions: list[str] | str, resource: list[str] | str) -> dict[str, Any]:
    return {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": actions, "Resource": resource}]}


def healthy_iam() -> dict[str, Any]:
    """Tight roles: the worker consumes the orders queue, the producer sends to it."""
    return {
        "account": ACCOUNT, "harness": HARNESS, "resources": dict(ARN),
        "roles": {
            "worker": {"arn": f"arn:aws:iam::{ACCOUNT}:role/worker", "trust": trust(),
                       "policies": {"consume": allow(WORKER_ACTIONS, ARN["queue"])},
                       "boundary": allow("*", "*"), "boundary_arn": ARN["boundary"]},
            "producer": {"arn": f"arn:aws:iam::{ACCOUNT}:role/producer", "trust": trust(),
                         "policies": {"send": allow("sqs:SendMessage", ARN["queue"])},
                         "boundary": allow("*", "*"), "boundary_arn": ARN["boundary"]},
        },
    }
