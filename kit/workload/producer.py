"""The seeded producer: valid orders, deliberate duplicate sends, and poison messages."""

from __future__ import annotations

import json
import random
import threading
from dataclasses import dataclass
from typing import Any

from kit.history import describe_body
from kit.workload.recorder import Recorder

POISON_BODIES = (
    "not json at all",
    json.dumps(["an", "array"]),
    json.dumps({"order_id": "p-missing", "customer_id": "c-x"}),
    json.dumps({"order_id": "p-zero", "customer_id": "c-x", "amount_cents": 0}),
    json.dumps({"order_id": "p-negative", "customer_id": "c-x", "amount_cents": -500}),
    json.dumps({"order_id": "p-bool", "customer_id": "c-x", "amount_cents": True}),
    json.dumps({"order_id": "p-string", "customer_id": "c-x", "amount_cents": "100"}),
    json.dumps({"order_id": 7, "customer_id": "c-x", "amount_cents": 100}),
)


@dataclass(frozen=True)
class Plan:
    """What the producer will send, in order: (body, duplicate_of_index or None)."""

    bodies: tuple[tuple[str, int | None], ...]

    @property
    def valid_order_ids(self) -> set[str]:
        return {describe_body(b)["order_id"] for b, _ in self.bodies if describe_body(b)["valid"]}

    @property
    def single_send_orders(self) -> frozenset[str]:
        """Valid orders sent exactly once."""
        twice = {describe_body(self.bodies[i][0])["order_id"] for _, i in self.bodies
                 if i is not None}
        return frozenset(self.valid_order_ids - twice)


def plan(seed: int, orders: int, customers: int, duplicate_sends: int, poison: int) -> Plan:
    """A deterministic send plan for `seed`."""
    rng = random.Random(seed)
    valid = [json.dumps({"order_id": f"o-{seed}-{i:04d}",
                         "customer_id": f"c-{rng.randrange(customers)}",
                         "amount_cents": rng.randint(100, 99_999)}) for i in range(orders)]
    rng.shuffle(valid)
    sends = list(valid)
    for body in rng.sample(valid, min(duplicate_sends, len(valid))):
        # A duplicate goes somewhere after its original, as a retried send would.
        sends.insert(rng.randint(sends.index(body) + 1, len(sends)), body)
    for i in range(poison):
        sends.insert(rng.randint(0, len(sends)), POISON_BODIES[i % len(POISON_BODIES)])
    first: dict[str, int] = {}
    bodies = []
    for index, body in enumerate(sends):
        is_duplicate = body in first and describe_body(body)["valid"]
        bodies.append((body, first[body] if is_duplicate else None))
        first.setdefault(body, index)
    return Plan(tuple(bodies))


class Producer(threading.Thread):
    """Sends the plan at a steady pace as the producer role; records every send."""

    def __init__(self, sqs: Any, queue_url: str, the_plan: Plan, interval: float,
                 recorder: Recorder) -> None:
        super().__init__(name="producer", daemon=True)
        self.sqs, self.queue_url, self.plan = sqs, queue_url, the_plan
        self.interval, self.recorder = interval, recorder
        self.stopping = threading.Event()
        self.error: Exception | None = None
        self.message_ids: list[str] = []

    def run(self) -> None:
        try:
            for body, duplicate_of in self.plan.bodies:
                if self.stopping.wait(self.interval):
                    return
                message_id = self.sqs.send_message(QueueUrl=self.queue_url,
                                                   MessageBody=body)["MessageId"]
                facts = describe_body(body)
                self.recorder.record(
                    "producer", "send", message_id=message_id, body=body,
                    duplicate_of=self.message_ids[duplicate_of] if duplicate_of is not None
                    else None, **facts)
                self.message_ids.append(message_id)
        except Exception as exc:  # noqa: BLE001 - reported as a run error, never blamed
            self.error = exc
