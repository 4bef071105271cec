"""`kit report`: reports of runs, merged or re-rendered."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit.cli.common import console
from kit.cli.eval import write_reports

if TYPE_CHECKING:
    pass



def add_report(sub: Any) -> None:
    """`kit report merge`: the reports of parallel CI jobs as one."""
    rep = sub.add_parser("report", help="work with the reports of kit eval")
    merge = rep.add_subparsers(dest="action", required=True).add_parser(
        "merge", help="combine the reports of several kit eval commands of one solution "
        "(e.g. one fault per CI job) into one report.json, summary.md and junit.xml")
    merge.add_argument("reports", nargs="+", metavar="DIR",
                       help="a --out of kit eval (every report.json under it), or a file")
    merge.add_argument("--out", required=True, metavar="DIR", help="where the merged "
                       "report.json, summary.md and junit.xml go")


def cmd_report(args: argparse.Namespace) -> int:
    """Merge the reports of several kit eval commands; exit code per the merged verdict."""
    from kit.report import merge

    paths = merge.reports([Path(d) for d in args.reports])
    doc = merge.merge(paths)
    console.print(f"merged {len(paths)} report(s): {len(doc['runs'])} run(s)")
    return write_reports(doc, Path(args.out))
