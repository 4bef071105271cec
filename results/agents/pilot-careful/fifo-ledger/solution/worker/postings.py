"""Message bodies: valid postings and poison."""

from __future__ import annotations

import dataclasses
import json


@dataclasses.dataclass(frozen=True)
class Posting:
    posting_id: str
    account_id: str
    amount_cents: int


def parse_posting(body: str) -> Posting | None:
    """Return the posting in ``body``, or None if the message is poison.

    Poison: not a JSON object; posting_id or account_id missing or not a
    string; amount_cents missing, not an integer (booleans are not) or 0.
    """
    try:
        data = json.loads(body)
    except (TypeError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    posting_id = data.get("posting_id")
    account_id = data.get("account_id")
    amount = data.get("amount_cents")
    if not isinstance(posting_id, str) or not isinstance(account_id, str):
        return None
    if type(amount) is not int or amount == 0:
        return None
    return Posting(posting_id, account_id, amount)
