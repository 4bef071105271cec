"""A Markdown summary fit for a pull-request comment."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kit.report import compare, cut, fold
from kit.report.escape import code, fence, md

ICON = {"pass": "pass", "fail": "**FAIL**", "error": "error"}
EVIDENCE = 600  # characters of a failure's evidence in the comment (the rest: report.json)
SECTIONS = ((compare.NEW, "New failures (this PR)"),
            (compare.FLAKY, "Flaky: did not reproduce in every rerun"),
            (compare.UNKNOWN, "Unknown: the kit could not judge one side"),
            (compare.NOT_REACHED, "Not reached: the PR's runs stopped before these"),
            (compare.STILL, "Still failing (already on the base)"),
            (compare.FIXED, "Fixed by this PR"))


def render(document: dict[str, Any]) -> str:
    """The report document as Markdown, for a reviewer: the verdict and what changed
    against the base (new failures first, with evidence), then the table and the rest."""
    verdict = document.get("verdict", document["outcome"])
    lines = [f"## kit: {code(document['scenario'])}: {ICON[verdict]}", ""]
    if "comparison" in document:
        lines += _changes(document)
    else:
        lines += _failures(document)
    lines += ["", _solution_line(document), "", *_table(document)]
    lines += _findings_section(document)
    lines += _usage_section(document["runs"])
    lines += _confinement_section(document["runs"])
    return "\n".join(lines) + "\n"


def _solution_line(document: dict[str, Any]) -> str:
    """Which solution at which commit, the reward (an agent task's only), how to rerun."""
    src = document.get("source")
    where = (f"{code(src['path'])} at commit {code(src['commit'][:12])}"
             + {True: " with uncommitted changes", None: " (uncommitted changes not judged)"}
             .get(src["dirty"], "")) if src \
        else code(document["solution"])
    reward = f"; {reward_line(document)}" if shows_reward(document) else ""
    rerun = document.get("reproduce") or document["command"]
    return f"Solution {where}{reward}. Reproduce: {code(rerun)}"


def _table(document: dict[str, Any]) -> list[str]:
    """Invariants down, runs across; with a base, each cell says what changed."""
    runs = document["runs"]
    status = {(e["fault"], e["invariant"]): e["status"] for e in document.get("comparison", [])}
    ids: list[str] = []
    for run in runs:
        ids += [i for i in run["invariants"] if i not in ids]
    lines = ["| invariant | " + " | ".join(f"{md(r['fault'])} (seed {r['seed']})" for r in runs)
             + " |", "| --- | " + " | ".join("---" for _ in runs) + " |"]
    for inv in ids:
        cells = []
        for run in runs:
            cell = ICON[run["invariants"][inv]["verdict"]] if inv in run["invariants"] else "-"
            change = status.get((run["fault"], inv))
            cells.append(cell if change in (None, compare.PASS) else f"{cell} ({change})")
        lines.append(f"| {code(inv)} | " + " | ".join(cells) + " |")
    return lines


def _evidence(document: dict[str, Any], fault: str, seed: int, invariant: str) -> str:
    """A failure's evidence, cut at a member, folded away."""
    for run in document["runs"]:
        if (run["fault"], run["seed"]) == (fault, seed) and invariant in run["invariants"]:
            example = cut.render(run["invariants"][invariant]["evidence"], EVIDENCE)
            block = fence(example, "json").replace("\n", "\n  ")
            return f"\n  <details><summary>evidence</summary>\n\n  {block}\n  </details>"
    return ""


def _failures(document: dict[str, Any]) -> list[str]:
    """Without a base: each run the kit could not judge and each failure, with evidence."""
    details = []
    for run in document["runs"]:
        if run["error"]:
            details.append(f"- **{md(run['fault'])}**: the kit could not judge this run: "
                           f"{md(run['error'].splitlines()[0])}")
        for inv_id, inv in run["invariants"].items():
            if inv["verdict"] != "pass":
                details.append(f"- **{md(run['fault'])}** (seed {run['seed']}) {code(inv_id)} "
                               f"{inv['verdict']}: {md(inv['summary'])}"
                               + _evidence(document, run["fault"], run["seed"], inv_id))
    return ["### What failed", "", *details] if details else ["Every invariant passed."]


def _changes(document: dict[str, Any]) -> list[str]:
    """With a base: how many of each class, then the new failures with their evidence,
    then what the kit could not judge, what still fails and what the PR fixed."""
    base = document["baseline"]
    found = compare.counts(document["comparison"])
    name = code(base["ref"] or base["given"]) + (f" (commit {code(base['commit'][:12])})"
                                                 if base.get("commit") else "")
    shown = [f"{n} {kind}" for kind, n in found.items() if n and kind != compare.PASS]
    lines = [f"Against the base {name}: " + (", ".join(shown) or "nothing changed")
             + f"; {found[compare.PASS]} passing on both.",
             *_fail_on_line(document.get("fail_on"))]
    for kind, title in SECTIONS:
        entries = [e for e in document["comparison"] if e["status"] == kind]
        if entries:
            lines += ["", f"### {title}", "", *(_entry(document, e) for e in entries)]
    return lines


def _fail_on_line(fail_on: str | None) -> list[str]:
    """What the verdict fails on, when it is not every failure."""
    if fail_on == "new":
        return ["", "Fails only on new failures, not on flaky ones (`--fail-on flaky`: on "
                "those too; `--fail-on any`: on every failure)."]
    if fail_on == "flaky":
        return ["", "Fails on new failures and on flaky ones (`--fail-on any`: on every "
                "failure)."]
    return []


def _reruns(entry: dict[str, Any]) -> str:
    """How often a new failure failed in its reruns, on both sides, and at which seeds."""
    found = entry.get("confirm")
    if not found:
        return ""
    where = ", ".join(str(r["seed"]) for r in found["runs"][1:])
    return f"; reruns: {md(found['summary'])} (the first run, then seeds {md(where)})"


def _entry(document: dict[str, Any], entry: dict[str, Any]) -> str:
    why = entry["why"] or {}
    seed = f" (seed {why['seed']})" if "seed" in why else ""
    said = md(why.get("summary") or f"base {entry['base']}, head {entry['head']}")
    text = f"- **{md(entry['fault'])}**{seed} {code(entry['invariant'])}: {said}" \
        + _reruns(entry)
    if entry["status"] == compare.NEW and "seed" in why:
        text += _evidence(document, entry["fault"], why["seed"], entry["invariant"])
    return text


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
        lines += [f"- **{md(f['fault'])}** (seed {f['seed']}) {code(f['invariant'])}: "
                  + ", ".join(f"{md(n)}: {md(f['verdicts'][n])}" for n in names), "",
                  "  | " + " | ".join(map(md, names)) + " |",
                  "  | " + " | ".join("---" for _ in names) + " |",
                  "  | " + " | ".join(_cell(f["evidence"][n]) for n in names) + " |"]
        for behaviour, seen in f["behaviours"].items():
            lines.append(f"  - {code(behaviour)} ({md(seen['aws'])}): {md(seen['verdict'])}; "
                         + "; ".join(f"{md(n)}: {md(o['detail'])}"
                                     for n, o in seen["by_emulator"].items()))
        if not f["behaviours"]:
            lines.append("  - no documented behaviour the kit probes tells which one is right")
    return lines


def _cell(side: dict[str, Any]) -> str:
    return md(f"{side['summary']} {cut.render(side['evidence'], 300)}")


def _confinement_section(runs: list[dict[str, Any]]) -> list[str]:
    """What this machine could not confine (nothing when every axis was confined)."""
    lacking = sorted({line for run in runs for line in
                      (run.get("confinement") or {}).get("missing", [])})
    return ["", "### Not confined", "", *(f"- {md(line)}" for line in lacking)] if lacking else []


def _usage_section(runs: list[dict[str, Any]]) -> list[str]:
    """Per role, over every run: granted, used, never used (one line each)."""
    rows = fold.lines(runs)
    return ["", "### Used vs granted", "", *rows] if rows else []


def shows_reward(document: dict[str, Any]) -> bool:
    """Whether a report shows the reward: an agent task's only, never a team's check (its
    scenario's weights were not written to grade a team's PR)."""
    return document.get("trust") != "team"


def reward_line(document: dict[str, Any]) -> str:
    """The reward in one line: the value, why it is capped, and what was left out."""
    detail = document["reward_detail"]
    value = detail["reward"]
    text = f"reward {'n/a' if value is None else f'{value:.2f}'}"
    if detail["capped"]:
        first = detail["capped_by"][0]
        text += (f" (capped at {detail['ceiling']} x {detail['base']:.2f}: "
                 f"{code(first['invariant'])} failed under {md(first['fault'])}")
        more = len({c["invariant"] for c in detail["capped_by"]}) - 1
        text += f" and {more} more)" if more > 0 else ")"
    if detail["excluded_runs"]:
        causes = ", ".join(f"{n} {md(cause)}" for cause, n in
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
