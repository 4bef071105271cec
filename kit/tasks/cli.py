"""`kit tasks list|export|grade`: the tasks made from the scenarios."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from kit.errors import InputError
from kit.tasks import bundle, catalog
from kit.tasks.model import KINDS
from kit.tasks.modes import MODES


def add_parser(sub: Any) -> None:
    """Register `kit tasks` and its actions on the CLI's subparsers."""
    tasks = sub.add_parser("tasks", help="tasks for agents made from the scenarios (build, "
                           "repair, diagnose, harden): list, export bundles, grade")
    actions = tasks.add_subparsers(dest="action", required=True)
    ls = actions.add_parser("list", help="every task: id, kind, scenario; then the counts")
    ls.add_argument("--kind", choices=KINDS, help="only tasks of this kind")
    ex = actions.add_parser("export", help="write one bundle per task into DIR")
    ex.add_argument("--out", required=True, metavar="DIR")
    ex.add_argument("--kind", choices=KINDS, help="only tasks of this kind")
    gr = actions.add_parser("grade", help="grade a workspace for a task (JSON on stdout)")
    gr.add_argument("task")
    gr.add_argument("--workspace", required=True, metavar="DIR")
    gr.add_argument("--mode", choices=MODES, default="sampled",
                    help="full: every fault; sampled: static checks + one fault the seed "
                    "draws (default)")
    gr.add_argument("--seed", type=int, default=1)
    gr.add_argument("--out", metavar="DIR", help="where the runs and reports go")


def run(args: argparse.Namespace) -> int:
    """Run `kit tasks <action>`; the exit code."""
    tasks = [t for t in catalog.all_tasks() if not getattr(args, "kind", None)
             or t.kind == args.kind]
    if args.action == "list":
        for t in tasks:
            print(f"{t.id}\t{t.kind}\t{t.scenario}")
        _print_counts(tasks)
        return 0
    if args.action == "export":
        out = Path(args.out)
        for t in tasks:
            bundle.write(t, out)
        _print_counts(tasks)
        print(f"{len(tasks)} bundles in {out}")
        return 0
    return _grade(args)


def _grade(args: argparse.Namespace) -> int:
    """`kit tasks grade`: the Grade as JSON; exit 0 pass, 1 fail, 3 error."""
    from kit.tasks.grade import grade

    workspace = Path(args.workspace)
    if not workspace.is_dir():
        raise InputError(f"--workspace {workspace}: no such directory")
    result = grade(catalog.get(args.task), workspace, args.seed, args.mode,
                   Path(args.out) if args.out else None)
    print(json.dumps(result.to_dict(), indent=2))
    return {"pass": 0, "fail": 1}.get(result.outcome, 3)


def _print_counts(tasks: list[Any]) -> None:
    """The count per scenario and kind, and the total."""
    for name, by_kind in catalog.counts(tasks).items():
        print(f"{name}: " + ", ".join(f"{k} {n}" for k, n in by_kind.items())
              + f" (total {sum(by_kind.values())})")
    print(f"total: {len(tasks)} tasks")
