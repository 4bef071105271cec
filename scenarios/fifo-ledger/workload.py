"""fifo-ledger's workload: per-account postings in a seeded order, resends, poison.

Every posting is sent with MessageGroupId = its account and MessageDeduplicationId = its
posting id. A resend is the same posting sent again later with a new deduplication id, as
a producer that retries after SQS's 5-minute deduplication interval would: SQS delivers it
again, and only the worker can keep it from taking effect twice.

The poison rule (prompt.md, "Messages"): a body is poison if it is not a JSON object, a
field is missing or has the wrong type (a boolean is not an integer), or amount_cents = 0.
"""

from __future__ import annotations

import json
import random
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kit.workload.api import Described, Send, run_tag


class Params(BaseModel):
    """workload.params of scenario.yaml."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    accounts: int = Field(ge=1, le=100)
    postings: int = Field(ge=1, le=10_000)
    resends: int = Field(ge=0)
    poison: int = Field(ge=0)
    work_seconds: float = Field(ge=0)  # the worker sleeps this long per valid posting


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def describe(body: str) -> Described:
    """The posting in a body (fields kept even for poison) and whether it is valid."""
    try:
        obj = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError, TypeError):
        obj = None
    if not isinstance(obj, dict):
        return Described(None, {}, False)
    posting_id, account_id, amount = (obj.get("posting_id"), obj.get("account_id"),
                                      obj.get("amount_cents"))
    fields = {"posting_id": posting_id if isinstance(posting_id, str) else None,
              "account_id": account_id if isinstance(account_id, str) else None,
              "amount_cents": amount if _is_int(amount) else None}
    valid = None not in fields.values() and fields["amount_cents"] != 0
    return Described(fields["posting_id"], fields, valid)


def _amounts(rng: random.Random, count: int) -> list[int]:
    """An account's postings: a first credit, then credits and debits of similar size, so
    that some debits are refused and the refusals depend on the order."""
    out = [rng.randint(1_000, 5_000)]
    for _ in range(count - 1):
        out.append(rng.randint(100, 5_000) if rng.random() < 0.55 else -rng.randint(100, 6_000))
    return out


def _poison(rng: random.Random, n: int, account: str) -> str:
    """The n-th poison message: each clause of the poison rule in turn (n mod 3), so that
    every run sends a body that is not JSON, one whose field is missing or mistyped (the
    seed picks which), and one whose amount is 0, whatever the seed."""
    # Drawn for every poison message, used or not: one draw each keeps the later draws of
    # the plan the same whichever clause this one is.
    wrong = rng.choice([{}, {"amount_cents": "100"}, {"amount_cents": True}])
    fields = {"posting_id": f"bad-{n}", "account_id": account}
    if n % 3 == 0:
        return "not json at all"
    return json.dumps(fields | wrong if n % 3 == 1 else fields | {"amount_cents": 0})


def plan(seed: int, params: Params) -> list[Send]:
    """A deterministic send plan for `seed`: each account's postings in its own order,
    interleaved; resends after their originals; poison in some account's group, after the
    first quarter of the sends."""
    rng = random.Random(seed)
    tag = run_tag(seed, "fifo-ledger")
    accounts = [f"acct-{i}" for i in range(params.accounts)]
    queues: dict[str, list[str]] = {}
    for n, account in enumerate(accounts):
        count = params.postings // params.accounts + (n < params.postings % params.accounts)
        queues[account] = [json.dumps({"posting_id": f"p-{tag}-{account}-{k:03d}",
                                       "account_id": account, "amount_cents": amount})
                           for k, amount in enumerate(_amounts(rng, count))]
    sends: list[Send] = []
    while any(queues.values()):
        account = rng.choice([a for a in accounts if queues[a]])
        body = queues[account].pop(0)
        sends.append(Send(body, group=account, dedup_id=json.loads(body)["posting_id"]))
    for first in rng.sample(list(sends), min(params.resends, len(sends))):
        at = rng.randint(sends.index(first) + 1, len(sends))
        sends.insert(at, Send(first.body, group=first.group, dedup_id=f"{first.dedup_id}#resend",
                              duplicate_of=-1))  # pointed at its original below
    for n in range(params.poison):
        # Not among the first quarter: poison arrives once the workload is under way.
        account = rng.choice(accounts)
        sends.insert(rng.randint(len(sends) // 4, len(sends)),
                     Send(_poison(rng, n, account), group=account, dedup_id=f"poison-{n}"))
    return _renumber(sends)


def _renumber(sends: list[Send]) -> list[Send]:
    """Point each resend at its original's final index (later inserts moved both)."""
    index = {(s.body, s.dedup_id): i for i, s in enumerate(sends) if s.duplicate_of is None}
    return [s if s.duplicate_of is None else Send(
        s.body, s.group, s.dedup_id, index[(s.body, s.dedup_id.removesuffix("#resend"))])
        for s in sends]
