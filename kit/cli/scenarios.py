"""`kit list`, `kit new-scenario` and `kit modules`: the scenarios and what they need."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

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


def add_scenarios(sub: Any, roots: argparse.ArgumentParser) -> None:
    """Add `kit list`, `kit new-scenario` and `kit modules` to the subcommands."""
    ls = sub.add_parser("list", parents=[roots],
                        help="list the scenarios, their faults and invariants")
    ls.add_argument("--names", action="store_true", help="only the names, one per line")
    new = sub.add_parser("new-scenario", help="write a scenario skeleton to fill in")
    new.add_argument("name")
    new.add_argument("--root", default=".", help="where scenarios/, golden/, variants/ go "
                     "(with --team: the repository, whose .kit/ gets scenarios/ and variants/)")
    new.add_argument("--team", action="store_true",
                     help="a team's scenario of its own repository (trust: team), in .kit/")
    mods = sub.add_parser("modules", help="a team repository's registry-module cache")
    vendor = mods.add_subparsers(dest="action", required=True).add_parser(
        "vendor", help="copy the registry modules of your own `terraform init` into the "
        "cache that the scenario's terraform.modules names")
    vendor.add_argument("--from", dest="source", required=True, metavar="DIR",
                        help="the .terraform/modules directory terraform init filled")
    vendor.add_argument("--to", dest="target", required=True, metavar="CACHE",
                        help="the module cache (e.g. .kit/modules)")
