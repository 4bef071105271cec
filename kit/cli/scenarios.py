"""`kit list`, `kit new-scenario` and `kit modules`: the scenarios and what they need."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from kit.cli.common import EXIT_OK, console

if TYPE_CHECKING:
    pass



def cmd_new_scenario(args: argparse.Namespace) -> int:
    """Write a scenario skeleton (which cannot pass until filled in)."""
    from kit import skeleton

    root = Path(args.root).resolve()
    for path in skeleton.create(args.name, root, team=args.team):
        print(path)
    if args.team:
        print(f"next: fill in every TODO, write a one-defect variant in .kit/variants/"
              f"{args.name}/, then `kit validate {args.name} --scenarios {root / '.kit'}`")
    else:
        print(f"next: fill in every TODO, write golden/{args.name} and variants, then "
              f"`kit validate {args.name} --scenarios {root}`")
    return EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    """List the scenarios with their faults and invariants."""
    from kit import scenario

    for name in scenario.known():
        if args.names:
            print(name)
            continue
        sc = scenario.load(name)
        print(f"{name}: {sc.summary.strip()}")
        print(f"  faults: {', '.join(sc.faults)}")
        print(f"  invariants: {', '.join(sc.invariants)}")
    return EXIT_OK


def cmd_modules(args: argparse.Namespace) -> int:
    """Fill a team repository's registry-module cache from its own `terraform init`."""
    from kit.deploy import modules

    added = modules.vendor(Path(args.source), Path(args.target))
    for record in added:
        console.print(f"{record.key}: {record.source} {record.version or ''} -> "
                      f"{Path(args.target) / record.dir}")
    console.print(f"{len(added)} registry module(s) in {args.target}"
                  + ("" if added else f" (the init in {args.source} installed none)"))
    return EXIT_OK
