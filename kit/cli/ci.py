"""`kit check` and `kit comment`: a pull request's static check and its sticky comment."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit.cli.common import EXIT_FAIL, EXIT_OK, console
from kit.errors import InputError
from kit.report.escape import terminal as t

if TYPE_CHECKING:
    pass



def cmd_comment(args: argparse.Namespace) -> int:
    """Create or update the PR's one sticky comment from the reports (GitHub Actions)."""
    from kit.ci import comment

    if args.dry_run:
        # The body is the kit's own Markdown (every solution value in it was escaped when
        # summary.md was written), printed raw so it can be piped or diffed; no GitHub.
        sys.stdout.write(comment.body(Path(args.report), args.name,
                                      comment.run_link(dict(os.environ))))
        return EXIT_OK
    posted = comment.post(Path(args.report), args.name)
    console.print(f"comment {posted.action}" + (f": {posted.url}" if posted.url else "")
                  + (f" ({posted.note})" if posted.note else ""))
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    """The static checks of Terraform (gate, policy lint), no emulator: exit 1 on a finding."""
    from kit.ci import static
    from kit.intake import snapshot
    from kit.scenario import MODULES, Toolchain, load

    sc = load(args.scenario) if args.scenario else None
    team = sc is not None and sc.repository is not None
    # A team scenario judges its repository (local modules anywhere in it), as a run does.
    root = sc.repository if team and sc else Path(args.root)
    if not root.is_dir():
        raise InputError(f"--root {root}: no such directory (the Terraform root module)")
    with snapshot.taken(root) as taken:  # nothing reads the given tree after this
        findings = static.check(taken, (sc.toolchain if sc else Toolchain()).allowed_providers,
                                sc.modules_dir if sc else MODULES, team=team,
                                root_module=Path(sc.terraform.dir) if team and sc
                                else Path("."))
    for finding in findings:
        print(finding)
    verdict = f"[red]{len(findings)} finding(s)[/]" if findings else "[green]no finding[/]"
    console.print(f"kit check --static {t(root)}: {verdict}")
    return EXIT_FAIL if findings else EXIT_OK


def add_ci(sub: Any, roots: argparse.ArgumentParser) -> None:
    """The commands of a pull-request check (action.yml)."""
    com = sub.add_parser("comment", help="create or update the PR's sticky comment from the "
                         "reports (in GitHub Actions: GITHUB_TOKEN, GITHUB_EVENT_PATH, ...)")
    com.add_argument("--report", required=True, metavar="DIR",
                     help="the --out of the kit eval commands: every summary.md under it")
    com.add_argument("--name", default="kit",
                     help="the check's name: one comment per name (hidden marker)")
    com.add_argument("--dry-run", action="store_true",
                     help="print the comment's body to stdout and post nothing (offline: "
                     "no GitHub environment needed)")
    chk = sub.add_parser("check", parents=[roots], help="the static checks of Terraform in "
                         "seconds, no emulator run (the pre-commit hook)")
    chk.add_argument("--static", action="store_true", required=True,
                     help="the static gate and the policy lint (the only mode so far)")
    chk.add_argument("--root", default=".", help="the Terraform root module (default: .)")
    chk.add_argument("--scenario", help="judge by this scenario's rules (its providers, "
                     "modules; a team scenario: its repository, --root ignored); default: "
                     "the kit's own")
    chk.add_argument("files", nargs="*", help="ignored (pre-commit passes the changed files; "
                     "the whole root module is judged)")
    key = sub.add_parser("toolchain-key",
                         help="print the toolchain's cache key (changes with what setup builds)")
    key.add_argument("--path", action="store_true", help="print the cache directory instead")
