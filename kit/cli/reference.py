"""The reference pages generated from the code, so that they cannot drift from it:
docs/commands.md (each command's `--help`, from the parser), docs/invariants.md (each
invariant's pass rule, severity, stage and parameters, from the invariant table) and
docs/workload-api.md (what a scenario's workload.py and checks.py define, from
kit/workload/api.py). `python -m kit.cli.reference` writes them;
tests/unit/cli/test_reference.py fails when a committed page differs."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import inspect
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from kit.checks.invariants import INVARIANTS
from kit.cli.parser import build_parser
from kit.workload import api

WIDTH = "100"  # columns argparse wraps the help at, whatever the terminal
DOCS = Path(__file__).resolve().parents[2] / "docs"
REGENERATE = "Generated from the code (`python -m kit.cli.reference`); do not edit.\n"


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Each subcommand's parser by name, in the order the parser lists them."""
    [action] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


@contextlib.contextmanager
def _columns(width: str) -> Iterator[None]:
    """argparse sizes its help from the terminal (COLUMNS): `width` while formatting, then
    whatever the caller's process had."""
    given = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = width
    try:
        yield
    finally:
        if given is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = given


def commands() -> str:
    """docs/commands.md: the top-level usage, then each command's help as argparse prints
    it."""
    parser = build_parser()
    with _columns(WIDTH):
        parts = ["# Command reference\n", REGENERATE, "docs/cli.md explains the commands.\n",
                 "```", parser.format_help().rstrip(), "```"]
        for name, sub in subcommands(parser).items():
            parts += [f"\n## kit {name}\n", "```", sub.format_help().rstrip(), "```"]
    return "\n".join(parts) + "\n"


def _first_line(obj: object) -> str:
    doc = inspect.getdoc(obj) or ""
    return " ".join(doc.split("\n\n")[0].split())


def invariants() -> str:
    """docs/invariants.md: each invariant of the table, with its pass rule (its checker's
    docstring), severity, stage, when it is judged unlisted, and its parameters' defaults
    (scenario.yaml's `invariants.<id>` overrides them)."""
    parts = ["# Invariants\n", REGENERATE,
             "A scenario lists the invariants it judges under `invariants:`, each with its "
             "parameters\n(the defaults below apply to any it leaves out). Severity: "
             "`gate` scores a run 0 when it\nfails, `major` caps the reward; stage: what "
             "the verdict needs (the source, the deploy,\nthe deployed configuration, or "
             "the workload's history).\n"]
    for row in INVARIANTS.values():
        parts += [f"## {row.id}\n", _first_line(row.check) + "\n",
                  f"- severity: `{row.severity}`; stage: `{row.stage}`; category: "
                  f"`{row.category}`"
                  + (f"; judged in every {', '.join(row.always)} run, listed or not"
                     if row.always else "")]
        if row.relied_on:
            parts.append("- rests on the emulator behaviours "
                         + ", ".join(f"`{b}`" for b in row.relied_on))
        for name, value in row.params().items():
            parts.append(f"- `{name}`: `{json.dumps(value)}`")
        parts.append("")
    return "\n".join(parts)


def workload_api() -> str:
    """docs/workload-api.md: kit/workload/api.py's account of workload.py and checks.py,
    then each type they use, with its fields."""
    parts = ["# The workload module\n", REGENERATE, inspect.getdoc(api) + "\n"]
    for cls in (api.Send, api.Described, api.Check):
        parts += [f"## {cls.__name__}\n", _first_line(cls) + "\n"]
        for f in dataclasses.fields(cls):
            parts.append(f"- `{f.name}`: `{f.type}`")
        parts.append("")
    parts += ["## run_tag\n", f"`run_tag{inspect.signature(api.run_tag, eval_str=True)}`: "
              + _first_line(api.run_tag) + "\n"]
    return "\n".join(parts)


PAGES = {"commands.md": commands, "invariants.md": invariants, "workload-api.md": workload_api}


def write() -> None:
    """Write every page into the repository's docs/."""
    for page, make in PAGES.items():
        (DOCS / page).write_text(make())
    sys.stdout.write(f"wrote {', '.join(PAGES)} in {DOCS}\n")


if __name__ == "__main__":
    write()
