"""Evidence cut to fit a comment: valid JSON always, cut only between the members of an
object or the items of a list, and saying how many more there were (never mid-token)."""

from __future__ import annotations

import json
from typing import Any

STRING = 200  # characters of one string shown before it is cut (at a space if one is near)
NOTE = 28  # room kept for the "N more members" note
ROOM = 40  # below this, an object or a list is left out whole rather than cut inside


def _scalar(value: Any) -> str:
    if isinstance(value, str) and len(value) > STRING:
        head = value[:STRING]
        head = head.rsplit(" ", 1)[0] if " " in head[STRING // 2:] else head
        return json.dumps(f"{head}... ({len(value) - len(head)} more characters)")
    return json.dumps(value, default=str)


def _parts(value: dict[str, Any] | list[Any]) -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        return [(json.dumps(str(k)) + ": ", v) for k, v in value.items()]
    return [("", v) for v in value]


def render(value: Any, limit: int) -> str:
    """`value` as compact JSON of at most about `limit` characters: a member (or item)
    that does not fit is cut inside if it is an object or a list and room is left, else it
    and the rest are replaced by one saying how many more."""
    if not isinstance(value, (dict, list)) or not value:
        return _scalar(value)
    is_dict = isinstance(value, dict)
    parts = _parts(value)
    shown: list[str] = []
    used = 2  # the brackets
    for index, (key, item) in enumerate(parts):
        last = index == len(parts) - 1
        room = limit - used - len(key) - 2 - (0 if last else NOTE)
        container = isinstance(item, (dict, list)) and bool(item)
        text = _scalar(item) if not container else json.dumps(item, default=str)
        if len(text) > room and container and room >= ROOM:
            text = render(item, room)
        if len(text) > room and (shown or room < ROOM):
            shown.append(_more(len(parts) - index, is_dict))
            break
        shown.append(key + text)
        used += len(key) + len(text) + 2
    return ("{" if is_dict else "[") + ", ".join(shown) + ("}" if is_dict else "]")


def _more(left: int, is_dict: bool) -> str:
    noun = ("member" if is_dict else "item") + ("s" if left > 1 else "")
    return f'"...": "{left} more {noun}"' if is_dict else json.dumps(f"... {left} more {noun}")
