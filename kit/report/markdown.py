"""A Markdown summary fit for a pull-request comment."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kit.iam.usage import summary

ICON = {"pass": "pass", "fail": "**FAIL**", "error": "error"}


def render(document: dict[str, Any]) -> str:
    """The report document as Markdown: verdict table, then each failure with evidence."""
    runs = document["runs"]
    ids: list[str] = []
    for run in runs:
        ids += [i for i in run["invariants"] if i not in ids]
    lines = [
        f"## kit: `{document['scenario']}`: {ICON[document['outcome']]}",
        "",
        f"Solution `{document['solution']}`; {reward_line(document)}. "
        f"Reproduce: `{document['command']}`",
        "",
        "| invariant | " + " | ".join(f"{r['fault']} (seed {r['seed']})" for r in runs) + " |",
        "| --- | " + " | ".join("---" for _ in runs) + " |",
    ]
    for inv in ids:
        cells = [ICON[r["invariants"][inv]["verdict"]] if inv in r["invariants"] else "-"
                 for r in runs]
        lines.append(f"| `{inv}` | " + " | ".join(cells) + " |")
    details = []
    for run in runs:
        if run["error"]:
            details.append(f"- **{run['fault']}**: the kit could not judge this run: "
                           f"{run['error'].splitlines()[0]}")
        for inv_id, inv in run["invariants"].items():
            if inv["verdict"] != "pass":
                example = json.dumps(inv["evidence"], default=str)[:600]
                details.append(f"- **{run['fault']}** `{inv_id}` {inv['verdict']}: "
                               f"{inv['summary']}\n  <details><summary>evidence</summary>\n\n"
                               f"  ```json\n  {example}\n  ```\n  </details>")
    if details:
        lines += ["", "### What failed", "", *details]
    lines += _findings_section(document)
    lines += _usage_section(runs)
    lines += _confinement_section(runs)
    return "\n".join(lines) + "\n"


def _findings_section(document: dict[str, Any]) -> list[str]:
    """A cross-check's disagreements: both verdicts and evidences side by side, and which
    emulator behaves as AWS documents (not the solution's failures: out of the reward)."""
    found = (document.get("fidelity_findings") or {}).get("findings", [])
    if not found:
        return []
    lines = ["", f"### Fidelity findings ({len(found)}): the emulators disagree", "",
             "Not the solution's failures: these verdicts are left out of the reward.", ""]
    for f in found:
        names = list(f["verdicts"])
        lines += [f"- **{f['fault']}** (seed {f['seed']}) `{f['invariant']}`: "
                  + ", ".join(f"{n}: {f['verdicts'][n]}" for n in names), "",
                  "  | " + " | ".join(names) + " |", "  | " + " | ".join("---" for _ in names)
                  + " |", "  | " + " | ".join(_cell(f["evidence"][n]) for n in names) + " |"]
        for behaviour, seen in f["behaviours"].items():
            lines.append(f"  - `{behaviour}` ({seen['aws']}): {seen['verdict']}; "
                         + "; ".join(f"{n}: {o['detail']}" for n, o in seen["by_emulator"].items()))
        if not f["behaviours"]:
            lines.append("  - no documented behaviour the kit probes tells which one is right")
    return lines


def _cell(side: dict[str, Any]) -> str:
    text = f"{side['summary']} {json.dumps(side['evidence'], default=str)[:300]}"
    return text.replace("|", "\\|").replace("\n", " ")


def _confinement_section(runs: list[dict[str, Any]]) -> list[str]:
    """What this machine could not confine (nothing when every axis was confined)."""
    lacking = sorted({line for run in runs for line in
                      (run.get("confinement") or {}).get("missing", [])})
    return ["", "### Not confined", "", *(f"- {line}" for line in lacking)] if lacking else []


def _usage_section(runs: list[dict[str, Any]]) -> list[str]:
    """Per role and run: what the run used of what it was granted (short)."""
    rows = [f"- `{role}` under {run['fault']} (seed {run['seed']}): {summary(entry)}"
            for run in runs for role, entry in (run.get("used_vs_granted") or {}).items()]
    return ["", "### Used vs granted", "", *rows] if rows else []


def reward_line(document: dict[str, Any]) -> str:
    """The reward in one line: the value, why it is capped, and what was left out."""
    detail = document["reward_detail"]
    value = detail["reward"]
    text = f"reward {'n/a' if value is None else f'{value:.2f}'}"
    if detail["capped"]:
        first = detail["capped_by"][0]
        text += (f" (capped at {detail['ceiling']} x {detail['base']:.2f}: "
                 f"`{first['invariant']}` failed under {first['fault']}")
        more = len({c["invariant"] for c in detail["capped_by"]}) - 1
        text += f" and {more} more)" if more > 0 else ")"
    if detail["excluded_runs"]:
        causes = ", ".join(f"{n} {cause}" for cause, n in
                           sorted(detail.get("excluded_by_cause", {}).items()))
        text += (f"; {len(detail['excluded_runs'])} run(s) the kit could not judge left out"
                 + (f" ({causes})" if causes else ""))
    if detail.get("unjudged"):
        text += (f"; {len(detail['unjudged'])} invariant(s) of judged runs the kit could not "
                 "judge left out of their scores")
    return text


def write(document: dict[str, Any], path: Path) -> Path:
    """Write the Markdown file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(document))
    return path
