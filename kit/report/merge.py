"""`kit report merge`: the reports of several `kit eval` commands of one solution (its
faults run in parallel CI jobs) as one document, its outcome, reward and comparison with
the base computed again over all the runs. Reports of different scenarios, solutions,
commits, seeds or bases are refused, naming the file and the field."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kit.errors import InputError
from kit.report import compare, document

# What must agree across the merged reports: (field, how to read it off a document).
SAME = (
    ("scenario", lambda d: d["scenario"]),
    ("solution", lambda d: (d.get("source") or {}).get("path", d["solution"])),
    ("source.commit", lambda d: (d.get("source") or {}).get("commit")),
    ("seeds", lambda d: d.get("seeds") or sorted({r["seed"] for r in d["runs"]})),
    ("trust", lambda d: d.get("trust")),
    ("fail_on", lambda d: d.get("fail_on")),
    ("baseline.commit", lambda d: (d.get("baseline") or {}).get("commit")),
    ("baseline", lambda d: "baseline" in d),
)


def reports(dirs: Sequence[Path]) -> list[Path]:
    """Every report.json under the directories, in order; InputError for one with none."""
    found: list[Path] = []
    for directory in dirs:
        if directory.is_file() and directory.name == "report.json":
            found.append(directory)
            continue
        if not directory.is_dir():
            raise InputError(f"{directory}: no such directory (pass the --out of kit eval)")
        inside = sorted(directory.rglob("report.json"))
        if not inside:
            raise InputError(f"{directory}: no report.json in it")
        found += [p for p in inside if p not in found]
    return found


def _check(docs: list[tuple[Path, dict[str, Any]]]) -> None:
    first_path, first = docs[0]
    for path, doc in docs[1:]:
        for name, read in SAME:
            if read(doc) != read(first):
                raise InputError(f"{path}: field {name} is {read(doc)!r}, but {first_path} "
                                 f"has {read(first)!r}: only reports of one solution at one "
                                 "commit, with the same seeds and base, merge")


def _runs(docs: list[tuple[Path, dict[str, Any]]], side: str) -> list[dict[str, Any]]:
    """Every run of the documents (the head's, or the base's), each (fault, seed) once."""
    runs: list[dict[str, Any]] = []
    seen: dict[tuple[str, int], Path] = {}
    for path, doc in docs:
        for run in (doc.get("baseline") or {}).get("runs", []) if side == "base" \
                else doc["runs"]:
            key = (run["fault"], run["seed"])
            if key in seen:
                raise InputError(f"{path}: field runs: fault {key[0]} seed {key[1]} of the "
                                 f"{side} is also in {seen[key]}: merge each run once")
            seen[key] = path
            runs.append(run)
    return runs


def merge(paths: Sequence[Path]) -> dict[str, Any]:
    """One report document of all the reports at `paths` (report.json files)."""
    docs = [(path, document.load(path)) for path in paths]
    if not docs:
        raise InputError("kit report merge: no report given")
    _check(docs)
    first = docs[0][1]
    findings = [f for _, d in docs for f in d.get("fidelity_findings", {}).get("findings", [])]
    head = document.recompute(first | {
        "runs": _runs(docs, "head"),
        "fidelity_findings": {"count": len(findings), "findings": findings},
        "reproduce": _without_fault(first.get("reproduce") or first["command"]),
        "command": _without_fault(first["command"]),
        "merged_from": [str(path) for path, _ in docs]})
    if "baseline" not in first:
        return compare.attach(head, None, first.get("fail_on") or "any")
    side = first["baseline"]
    base = document.recompute({"runs": _runs(docs, "base"), "reward_spec":
                               first.get("reward_spec"), "solution": side["solution"]})
    return compare.attach(head, base, first["fail_on"], side.get("given"), side.get("ref"),
                          side.get("commit"), _decisions(docs))


def _decisions(docs: list[tuple[Path, dict[str, Any]]]) -> dict[tuple[str, str], Any]:
    """The reruns' decisions on new failures, as each report made them (a report runs a
    fault's reruns itself, so a (fault, invariant) has its decision in one report)."""
    return {(e["fault"], e["invariant"]): e["confirm"] for _, doc in docs
            for e in doc.get("comparison", []) if e.get("confirm")}


def _without_fault(command: str) -> str:
    """The command of every fault: one report's, without its `--fault NAME`."""
    return re.sub(r" --fault \S+", "", command)
