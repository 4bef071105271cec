"""Views of a drill's history that several checkers share: what the application wrote, what
the database it uses at the end holds, and when the incident was reported."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kit.history import History, Op


@dataclass(frozen=True)
class Writes:
    """The application's writes, in the order it made them (one at a time)."""

    acked: list[Op] = field(default_factory=list)  # ok: COMMIT acknowledged
    in_doubt: set[str] = field(default_factory=set)  # info: committed or not, unknown
    written: dict[str, dict[str, Any]] = field(default_factory=dict)  # key -> fields sent


def writes(history: History) -> Writes:
    """Index the application's writes."""
    out = Writes()
    for op in history.ops:
        if op.kind != "write":
            continue
        if op.type == "invoke":
            out.written[op.value.key] = op.value.fields
        elif op.type == "ok":
            out.acked.append(op)
        elif op.type == "info":
            out.in_doubt.add(op.value.key)
    return out


def incident(history: History) -> Op | None:
    """The incident the runbook was told about (its time starts the RTO clock)."""
    found = history.of_kind("incident")
    return found[0] if found else None


def stored(history: History, table: str, key: str) -> dict[str, dict[str, Any]] | None:
    """Rows of `table` by `key` in the database the application uses at the end (None:
    nothing was read: no such database, or it could not be read)."""
    final = history.final
    if final is None or final.tables is None:
        return None
    return {str(row[key]): row for row in final.tables.get(table, []) if row.get(key) is not None}


def unread(history: History, check_id: str) -> tuple[bool, str]:
    """Why the final database was not read: (the solution's doing, explanation)."""
    in_use = history.final.in_use if history.final else None
    if not in_use:
        return False, f"{check_id}: the run did not read the database in use"
    if in_use.get("instance") is None:
        return True, (f"the endpoint secret names no database of the run "
                      f"({in_use.get('endpoint') or 'no readable endpoint'})")
    return False, f"the database of instance {in_use['instance']} could not be read"
