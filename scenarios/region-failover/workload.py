"""region-failover's workload: the ledger transactions the kit's application writes, seeded.

Each body is one transaction (kit/workload/app.py): a ledger row (txn_id, account, amount)
and its account's running totals.
"""

from __future__ import annotations

import json
import random

from pydantic import BaseModel, ConfigDict, Field

from kit.workload.api import Described, Send, run_tag


class Params(BaseModel):
    """workload.params of scenario.yaml."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    accounts: int = Field(ge=1, le=1000)
    transactions: int = Field(ge=1, le=100_000)  # the most a run can write


def describe(body: str) -> Described:
    """A ledger transaction's key (txn_id) and fields."""
    try:
        obj = json.loads(body)
    except (json.JSONDecodeError, TypeError):
        return Described(None)
    if not isinstance(obj, dict) or not isinstance(obj.get("txn_id"), str):
        return Described(None)
    return Described(obj["txn_id"], {k: obj.get(k) for k in ("txn_id", "account", "amount")},
                     isinstance(obj.get("account"), str) and isinstance(obj.get("amount"), int))


def plan(seed: int, params: Params) -> list[Send]:
    """The transactions, in order, for `seed`: accounts and amounts drawn from it."""
    rng = random.Random(seed)
    tag = run_tag(seed, "region-failover")
    return [Send(json.dumps({"txn_id": f"t{tag}-{i:05d}",
                             "account": f"acct-{rng.randrange(params.accounts)}",
                             "amount": rng.randint(1, 10_000)}))
            for i in range(params.transactions)]
