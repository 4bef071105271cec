"""Read-back, part of the fidelity score: what a plan right after the apply still changes.

An example counts as applied only if that plan changes nothing, or every change it still
makes is a known read-back divergence of the emulator (kit/deploy/divergences.py
`READ_BACK`). The plan is read as JSON (`terraform show -json`), which says for each
resource what it would do and which attributes differ; data sources read again and outputs
are not changes of what the apply made.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kit.deploy import divergences
from kit.deploy.terraform import Terraform

PLAN = "kit-readback.tfplan"


@dataclass(frozen=True)
class Change:
    """One pending change of a resource the apply made."""

    address: str
    type: str
    action: str  # update | replace | create | delete
    attributes: tuple[str, ...]  # the top-level attributes that differ
    divergence: str | None  # the known read-back divergence that explains it
    # Every differing attribute is only unknown until the apply (no new value): it follows
    # from another pending change (a policy document built from a topic being updated).
    derived: bool = False

    def __str__(self) -> str:
        shown = ", ".join(self.attributes[:4]) + (" …" if len(self.attributes) > 4 else "")
        known = f" = {self.divergence}" if self.divergence else ""
        return f"{self.address}: {self.action} ({shown}){known}"


def _action(actions: list[str]) -> str | None:
    if actions in (["no-op"], ["read"]):
        return None
    if "create" in actions and "delete" in actions:
        return "replace"
    return actions[0]


def _differing(change: dict[str, Any]) -> tuple[str, ...]:
    # A replacement names the attributes that force it; the rest (arn, id, ...) is only
    # unknown until the new one exists.
    forcing = {str(path[0]) for path in change.get("replace_paths") or [] if path}
    if forcing:
        return tuple(sorted(forcing))
    before, after = change.get("before") or {}, change.get("after") or {}
    unknown = change.get("after_unknown") or {}
    keys = set(before) | set(after) | {k for k, v in unknown.items() if v}
    return tuple(sorted(k for k in keys
                        if before.get(k) != after.get(k) or unknown.get(k) is True))


def changes_of(shown: dict[str, Any]) -> list[Change]:
    """The pending changes of a plan as `terraform show -json` gives it."""
    found: list[Change] = []
    for resource in shown.get("resource_changes", []):
        if resource.get("mode") != "managed":
            continue
        change = resource.get("change", {})
        action = _action(change.get("actions", []))
        if action is None:
            continue
        attributes = _differing(change)
        known = divergences.read_back_gap(resource["type"], action, list(attributes),
                                          change.get("after") or {})
        unknown = change.get("after_unknown") or {}
        derived = action == "update" and bool(attributes) and \
            all(unknown.get(a) is True for a in attributes)
        found.append(Change(resource["address"], resource["type"], action, attributes, known,
                            derived))
    return found


def pending(tf: Terraform, keep: Path | None = None) -> list[Change]:
    """What a plan right after the apply would still change (`keep`: a file to write each
    pending change's differing values to, to classify it)."""
    # Through the deploy stage's own command path (confinement, classification of a plan
    # that fails), as Terraform.pending_changes plans.
    tf._cli("plan", "plan", "-input=false", "-no-color", f"-out={PLAN}")
    shown = json.loads(tf._cli("plan", "show", "-json", PLAN).stdout)
    found = changes_of(shown)
    if keep is not None and found:
        keep.write_text(json.dumps(differences(shown), indent=1, default=str))
    return found


def differences(shown: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each pending change's differing attributes, before and after."""
    out: dict[str, dict[str, Any]] = {}
    for resource in shown.get("resource_changes", []):
        change = resource.get("change", {})
        if resource.get("mode") != "managed" or _action(change.get("actions", [])) is None:
            continue
        before, after = change.get("before") or {}, change.get("after") or {}
        out[resource["address"]] = {k: {"before": before.get(k), "after": after.get(k)}
                                    for k in _differing(change)}
    return out


def unexplained(changes: list[Change]) -> list[Change]:
    """The changes no known read-back divergence explains: a derived change (its values
    only unknown until the apply) is explained when every change it could follow from is."""
    roots = [c for c in changes if not c.derived]
    if roots and all(c.divergence for c in roots):
        return []
    return [c for c in changes if c.divergence is None]
