"""Edits of policy documents that the IAM faults make: pure functions over JSON documents.

- `without_grants(doc, actions)`: the document as it would read before `actions` were
  granted: every Allow statement stops allowing them (a wildcard is expanded with the
  action catalogue and the revoked actions left out; `Action: "*"` becomes
  `NotAction: <revoked>`; a NotAction statement adds them to its NotAction). Nothing is
  denied: what the other policies allow still counts (an older version, not a deny).
- `without_statements(doc, actions)`: the document without the Allow statements that
  grant any of `actions` (the whole statement goes, as when someone deletes it).

A document left with no statement gets `NOTHING`, a statement that applies to no action,
because IAM refuses a policy without statements.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import unquote

from kit.iam import expand_action

VERSION = "2012-10-17"
# Applies to no action (NotAction "*"), so it denies nothing: a valid empty policy.
NOTHING = {"Sid": "KitNothingLeft", "Effect": "Deny", "NotAction": "*", "Resource": "*"}


def parse(document: Any) -> dict[str, Any]:
    """A policy document as a dict (boto3 returns dicts, or URL-encoded JSON text)."""
    if isinstance(document, str):
        document = json.loads(unquote(document) if document.startswith("%") else document)
    if not isinstance(document, dict):
        raise ValueError(f"a policy document is a JSON object, got {type(document).__name__}")
    return document


def statements(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The document's statements as a list (a single statement may stand alone)."""
    found = document.get("Statement", [])
    return [found] if isinstance(found, dict) else list(found)


def _listed(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value or [])


def _covers(pattern: str) -> set[str]:
    return {a.lower() for a in expand_action(pattern)}


def _revoked(actions: Iterable[str]) -> set[str]:
    return {a for action in actions for a in _covers(action)}


def grants_any(statement: dict[str, Any], actions: Sequence[str]) -> bool:
    """Say whether an Allow statement allows one of `actions` (on some resource)."""
    if statement.get("Effect") != "Allow":
        return False
    revoked = _revoked(actions)
    if "NotAction" in statement:
        excluded = _revoked(_listed(statement["NotAction"]))
        return bool(revoked - excluded)
    return any(_covers(p) & revoked for p in _listed(statement.get("Action")))


def _pruned(statement: dict[str, Any], actions: Sequence[str]) -> dict[str, Any] | None:
    """An Allow statement without `actions` (None when nothing of it is left)."""
    if not grants_any(statement, actions):
        return statement
    if "NotAction" in statement:
        kept = _listed(statement["NotAction"])
        return {**statement, "NotAction": kept + [a for a in actions if a not in kept]}
    patterns = _listed(statement.get("Action"))
    if "*" in patterns:
        rest = {k: v for k, v in statement.items() if k != "Action"}
        return {**rest, "NotAction": list(actions)}
    revoked = _revoked(actions)
    left: list[str] = []
    for pattern in patterns:
        covered = _covers(pattern)
        if not covered & revoked:
            left.append(pattern)
        else:  # a wildcard that covered a revoked action: its other actions, by name
            left += [a for a in expand_action(pattern) if a.lower() not in revoked]
    return {**statement, "Action": list(dict.fromkeys(left))} if left else None


def _document(original: dict[str, Any], kept: list[dict[str, Any]]) -> dict[str, Any]:
    return {**original, "Version": original.get("Version", VERSION),
            "Statement": kept or [NOTHING]}


def without_grants(document: dict[str, Any], actions: Sequence[str]) -> dict[str, Any]:
    """The document with no Allow statement allowing any of `actions`."""
    kept = [s for s in (_pruned(s, actions) for s in statements(document)) if s is not None]
    return _document(document, kept)


def without_statements(document: dict[str, Any], actions: Sequence[str]
                       ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The document without the statements granting any of `actions`, and those removed."""
    removed = [s for s in statements(document) if grants_any(s, actions)]
    kept = [s for s in statements(document) if not grants_any(s, actions)]
    return _document(document, kept), removed
