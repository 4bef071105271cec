"""The posting message format and the poison rule."""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Posting:
    posting_id: str
    account_id: str
    amount_cents: int


def parse(body: str) -> Posting | None:
    """The posting in a message body, or None if the body is poison.

    Poison: not a JSON object, a missing or mistyped field, or amount_cents == 0. A bool is
    not an integer here, although Python's bool is a subclass of int.
    """
    try:
        obj = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(obj, dict):
        return None
    posting_id, account_id, amount = (obj.get("posting_id"), obj.get("account_id"),
                                      obj.get("amount_cents"))
    if not isinstance(posting_id, str) or not isinstance(account_id, str):
        return None
    if type(amount) is not int or amount == 0:
        return None
    return Posting(posting_id, account_id, amount)
