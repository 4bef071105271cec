"""The fidelity bench's tables: the score per source and emulator, one row per example with
a column per emulator, the remaining failures, the known divergences.

Works on the outcomes as bench/fidelity.json holds them (dicts), so that the two emulators'
runs, made in parallel processes, are reported together.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from typing import Any

from kit.deploy import divergences

EMULATOR_NAMES = {"moto": "moto", "localstack": "LocalStack"}


def _get(o: Any, key: str) -> Any:
    return o[key] if isinstance(o, dict) else getattr(o, key)


def _escaped(text: str) -> str:
    return text.replace("|", "\\|")


def cell(o: Any) -> str:
    """One example's result on one emulator, for a table cell."""
    status = _get(o, "status")
    if status == "out of scope":
        text = _get(o, "cause")
    elif status == "failed":
        text = f"failed: {_get(o, 'blame')} at {_get(o, 'stage')}: {_get(o, 'cause')}"
    else:
        known = _get(o, "read_back")
        text = "passed" + (f" (read back with known divergences: {', '.join(known)})"
                           if known else "")
    return text.replace("|", "\\|").replace("\n", " ")


def row(o: Any) -> str:
    """One example on one emulator, as a line of the live output."""
    return f"| {_get(o, 'name')} | {cell(o)} | {_get(o, 'seconds')} |"


def score(outcomes: Iterable[Any]) -> tuple[int, int]:
    """(applied, read back and destroyed; in scope)."""
    in_scope = [o for o in outcomes if _get(o, "status") != "out of scope"]
    return sum(_get(o, "status") == "passed" for o in in_scope), len(in_scope)


def by_emulator(outcomes: list[Any]) -> dict[str, list[Any]]:
    """The outcomes of each emulator that ran, in the order of EMULATOR_NAMES."""
    found: dict[str, list[Any]] = {}
    for name in EMULATOR_NAMES:
        mine = [o for o in outcomes if _get(o, "emulator") == name]
        if mine:
            found[name] = mine
    return found


def _fraction(outcomes: list[Any]) -> str:
    passed, in_scope = score(outcomes)
    return f"{passed}/{in_scope}"


def scores(outcomes: list[Any], missing: list[str]) -> str:
    """The score per source and emulator, as a markdown table."""
    runs = by_emulator(outcomes)
    sources = sorted({_get(o, "source") for o in outcomes})
    lines = ["| source | examples | " + " | ".join(EMULATOR_NAMES[e] for e in runs) + " |",
             "| --- | --- | " + " | ".join("---" for _ in runs) + " |"]
    for source in sources:
        first = [o for o in next(iter(runs.values())) if _get(o, "source") == source]
        lines.append(f"| {source} | {len(first)} | " + " | ".join(
            _fraction([o for o in mine if _get(o, "source") == source])
            for mine in runs.values()) + " |")
    lines.append("| **all** | " + str(len(next(iter(runs.values())))) + " | " + " | ".join(
        f"**{_fraction(mine)}**" for mine in runs.values()) + " |")
    measured = _partial(runs)
    if measured:
        lines += ["", measured]
    if missing:
        lines += ["", "Not vendored on this checkout (run bench/fidelity_sources.py, see "
                  "fidelity/README.md): " + ", ".join(missing) + "."]
    return "\n".join(lines) + "\n"


def _partial(runs: dict[str, list[Any]]) -> str:
    """A note for each emulator that ran fewer examples than the first (a run cut short)."""
    first = {_get(o, "name") for o in next(iter(runs.values()))}
    notes = [f"{EMULATOR_NAMES[e]} ran {len(mine)} of the {len(first)} examples (its "
             "scores count those only; the others show `–` below)"
             for e, mine in runs.items() if len(mine) < len(first)]
    return ("Not measured everywhere: " + "; ".join(notes) + ".") if notes else ""


def summary(outcomes: list[Any], wall: float) -> str:
    """The paragraph above the tables."""
    parts = []
    for emulator, mine in by_emulator(outcomes).items():
        failed = [o for o in mine if _get(o, "status") == "failed"]
        blames = {b: sum(_get(o, "blame") == b for o in failed)
                  for b in ("error", "fail", "read-back")}
        passed, in_scope = score(mine)
        parts.append(f"{EMULATOR_NAMES[emulator]} **{passed}/{in_scope}** (of the "
                     f"{len(failed)} failed: {blames['error']} the kit's `error` naming an "
                     f"emulator gap, {blames['fail']} `fail`, {blames['read-back']} applied "
                     "but did not read back as declared)")
    how = (f"`make fidelity` ({wall:.0f} s wall time, {os.cpu_count()} cores, the emulators "
           "in parallel)") if wall else ("runs of `bench/fidelity.py` made apart and merged "
                                         "(FIDELITY_MERGE; no one wall time)")
    return (f"Measured {time.strftime('%Y-%m-%d')} with {how}. In-scope examples "
            "applied, read back (the plan right after the apply empty, or every change it "
            "still makes a known read-back divergence) and destroyed: "
            + "; ".join(parts) + ".\n")


def examples_table(outcomes: list[Any]) -> str:
    """One row per example, a column per emulator."""
    runs = by_emulator(outcomes)
    names = list(dict.fromkeys(_get(o, "name") for o in outcomes))
    index = {(e, _get(o, "name")): o for e, mine in runs.items() for o in mine}
    lines = ["| example | source | " + " | ".join(EMULATOR_NAMES[e] for e in runs)
             + " | seconds |", "| --- | --- | " + " | ".join("---" for _ in runs) + " | --- |"]
    for name in names:
        mine = [index.get((e, name)) for e in runs]
        present = [o for o in mine if o is not None]
        seconds = " / ".join(f"{_get(o, 'seconds'):.1f}" for o in present
                             if _get(o, "status") != "out of scope") or "–"
        lines.append(f"| {name} | {_get(present[0], 'source')} | " + " | ".join(
            cell(o) if o is not None else "–" for o in mine) + f" | {seconds} |")
    return "\n".join(lines) + "\n"


def remaining(outcomes: list[Any]) -> str:
    """One line per in-scope example and emulator that did not pass: blame and cause."""
    lines = [f"- `{_get(o, 'name')}` on {EMULATOR_NAMES[_get(o, 'emulator')]}: "
             f"`{_get(o, 'blame')}` at {_get(o, 'stage')}: "
             f"{_get(o, 'cause').replace('|', '/')[:220]}"
             for o in outcomes if _get(o, "status") == "failed"]
    return "\n".join(lines or ["- none"]) + "\n"


def divergences_markdown() -> str:
    """The known divergences (kit/deploy/divergences.py) as tables."""
    lines = ["| gap | what moto does, and AWS | AWS accepts it | seen in |",
             "| --- | --- | --- | --- |"]
    lines += [f"| `{d.name}` | {d.gap} | {'yes' if d.aws_accepts else 'no'} | {d.seen_in} |"
              for d in divergences.KNOWN]
    lines += ["", "Read-back divergences (a plan right after the apply still changes these; "
              "AWS reads them back as declared):", "",
              "| gap | resource | attributes | what moto does, and AWS | seen in |",
              "| --- | --- | --- | --- | --- |"]
    lines += [f"| `{d.name}` | `{_escaped(d.resource)}` | `{_escaped(d.attributes)}` | "
              f"{d.gap} | {d.seen_in} |" for d in divergences.READ_BACK]
    return "\n".join(lines) + "\n"
