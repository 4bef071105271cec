"""statement_removed: the statements of a role's inline policies that grant `actions` are
deleted for a window (as a hand edit or a bad merge would delete them), then put back.

An inline policy left with no statement is deleted for the window. A role whose inline
policies grant none of `actions` (its grants are in managed policies) is left alone, and
the history says so: the solution is not exposed to this fault.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kit.faults.base import FaultContext, FaultKind
from kit.faults.iam.documents import NOTHING, parse, statements, without_statements


class StatementParams(BaseModel):
    """Which statements go: those granting any of `actions` (in `policy` only, if given)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    actions: list[str] = Field(min_length=1)
    policy: str | None = None


class StatementRemoved(FaultKind):
    """The target role's inline statements granting `actions` are gone for the window."""

    Params = StatementParams
    targets = ("role",)
    timed = True

    def __init__(self, ctx: FaultContext) -> None:
        super().__init__(ctx)
        self.originals: dict[str, dict[str, Any]] = {}  # inline policy name -> document

    def start(self) -> dict[str, Any]:
        iam = self.ctx.gateway.admin_client("iam")
        role = self.role_name()
        names = iam.list_role_policies(RoleName=role)["PolicyNames"]
        removed: dict[str, list[dict[str, Any]]] = {}
        for name in (n for n in names if self.params.policy in (None, n)):
            original = parse(iam.get_role_policy(RoleName=role, PolicyName=name)[
                "PolicyDocument"])
            kept, gone = without_statements(original, self.params.actions)
            if not gone:
                continue
            self.originals[name] = original
            removed[name] = gone
            if statements(kept) == [NOTHING]:
                iam.delete_role_policy(RoleName=role, PolicyName=name)
            else:
                iam.put_role_policy(RoleName=role, PolicyName=name,
                                    PolicyDocument=json.dumps(kept))
        self.ctx.gateway.invalidate()
        what = ", ".join(self.params.actions)
        return {"target": self.ctx.roles[self.ctx.target], "removed": removed,
                "effect": f"inline statements granting {what} removed" if removed else
                f"nothing removed: no inline policy of {self.ctx.target} grants {what}"}

    def heal(self) -> dict[str, Any]:
        iam = self.ctx.gateway.admin_client("iam")
        for name, original in self.originals.items():
            with contextlib.suppress(iam.exceptions.NoSuchEntityException):
                iam.put_role_policy(RoleName=self.role_name(), PolicyName=name,
                                    PolicyDocument=json.dumps(original))
        self.ctx.gateway.invalidate()
        restored = sorted(self.originals)
        return {"target": self.ctx.roles[self.ctx.target], "restored": restored}
