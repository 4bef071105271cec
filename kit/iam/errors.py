"""Errors of the IAM evaluator: one branch of the kit's error tree.

A policy that cannot be read is reported with the policy label, the statement index (and
Sid) and the field, so that whoever wrote it can find the line to fix.
"""

from __future__ import annotations

from kit.errors import KitError


class IamError(KitError):
    """Base of every error raised by `kit.iam`."""


class PolicyError(IamError, ValueError):
    """A policy document is not valid IAM policy grammar."""

    def __init__(
        self,
        message: str,
        *,
        policy: str | None = None,
        statement: int | None = None,
        sid: str | None = None,
        field: str | None = None,
    ) -> None:
        self.policy = policy
        self.statement = statement
        self.sid = sid
        self.field = field
        where = []
        if policy:
            where.append(f"policy {policy!r}")
        if statement is not None:
            where.append(f"Statement[{statement}]" + (f" (Sid {sid!r})" if sid else ""))
        if field:
            where.append(f"field {field!r}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


class RequestError(IamError, ValueError):
    """A request to evaluate is malformed (for example an action without a service prefix)."""


class CatalogueError(IamError, LookupError):
    """The action catalogue has no such service or action."""
