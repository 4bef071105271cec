"""Used vs granted folded over every run of a report: one line per role (what it was
granted, what some run used, what no run used), instead of one per role per fault."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kit.report.escape import code, md

SHOWN = 5  # unused grants named in a line; the rest are counted


def _pair(grant: dict[str, Any]) -> str:
    return f"{grant['action']} on {grant['resource']}"


def fold(runs: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per role: {faults (that ran it), granted (pairs, the most any run saw), never_used
    (grants unused in every run that knew its grants), exempt (kept though unused), used
    (pairs called in some run), known (runs that knew its grants)}."""
    roles: dict[str, dict[str, Any]] = {}
    for run in runs:
        for role, entry in (run.get("used_vs_granted") or {}).items():
            into = roles.setdefault(role, {"faults": set(), "known": 0, "granted": 0,
                                           "never_used": None, "exempt": {}, "used": set()})
            into["faults"].add(run["fault"])
            into["used"] |= {(a, r) for a, r in entry.get("used") or []}
            if entry.get("granted_unused") is None:
                continue  # no IAM state in this run: its grants are unknown
            into["known"] += 1
            into["granted"] = max(into["granted"], entry["granted"])
            unused = {_pair(g) for g in entry["granted_unused"]}
            into["never_used"] = unused if into["never_used"] is None \
                else into["never_used"] & unused
            for grant in entry.get("granted_exempt") or []:
                into["exempt"][_pair(grant)] = grant.get("reason", "")
    return roles


def lines(runs: Sequence[dict[str, Any]]) -> list[str]:
    """One Markdown line per role over all the runs."""
    found = []
    for role, seen in fold(runs).items():
        faults = len(seen["faults"])
        over = f"over {faults} fault{'s' if faults != 1 else ''}"
        if not seen["known"]:
            found.append(f"- {code(role)}: used {len(seen['used'])} (action, resource) pairs "
                         f"{over}; granted unknown (no IAM state)")
            continue
        never = sorted(seen["never_used"] or ())
        used = seen["granted"] - len(never) - len(seen["exempt"])
        text = (f"- {code(role)}: granted {seen['granted']} (action, resource) pairs, used "
                f"{max(used, 0)} {over}, never used {len(never)}")
        if never:
            more = len(never) - SHOWN
            text += " (" + ", ".join(map(md, never[:SHOWN])) + (f" and {more} more" if more > 0
                                                        else "") + ")"
        if seen["exempt"]:
            text += f"; kept though unused: {len(seen['exempt'])}"
        found.append(text)
    return found
