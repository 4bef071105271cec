"""The `kit` command's parser and entry point."""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from typing import TYPE_CHECKING

from kit import interrupt
from kit.cli import mutate as mutate_command
from kit.cli.agents import add_agents, cmd_serve, cmd_tasks
from kit.cli.ci import add_ci, cmd_check, cmd_comment
from kit.cli.common import (
    EXIT_ERROR,
    EXIT_FAIL,
    EXIT_USAGE,
    console,
    emulator_options,
    executor_options,
    graded_options,
    roots_options,
    scenario_roots,
)
from kit.cli.drill import cmd_drill
from kit.cli.eval import add_eval, cmd_eval
from kit.cli.report import add_report, cmd_report
from kit.cli.scenarios import add_scenarios, cmd_list, cmd_modules, cmd_new_scenario
from kit.cli.setup import cmd_doctor, cmd_setup, cmd_toolchain_key
from kit.cli.validate import add_validate, cmd_validate
from kit.errors import InputError, KitError, SolutionError, describe_os_error
from kit.report.escape import terminal as t
from kit.sandbox import limits

if TYPE_CHECKING:
    pass



DESCRIPTION = ("The `kit` command: doctor, setup, list, eval, validate, drill, mutate; for CI: "
               "check, comment, report, toolchain-key; for agents: tasks, serve.")

def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(prog="kit", description=DESCRIPTION)
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="log each run's stages to stderr as they begin")
    roots, emulators, graded = roots_options(), emulator_options(), graded_options()
    executors = executor_options()
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("doctor", help="report the toolchain and how to fix what is missing")
    setup = sub.add_parser("setup", help="install the toolchain into the cache (idempotent)")
    setup.add_argument("--localstack", action="store_true",
                       help="also install LocalStack (the optional second emulator) into "
                       "<cache>/localstack/venv")
    add_scenarios(sub, roots)
    add_eval(sub, [roots, emulators, graded, executors])
    sub.add_parser("drill", parents=[roots, emulators, graded],
                   help="run a recovery drill by hand: a live view, then its timeline")
    add_validate(sub.add_parser("validate", parents=[roots, emulators, executors],
                                 help="run the kill matrix of a scenario"))
    add_ci(sub, roots)
    add_report(sub)
    add_agents(sub)
    mutate_command.register(sub, [roots, emulators, executors])
    return parser


COMMANDS = {"doctor": cmd_doctor, "setup": cmd_setup, "list": cmd_list, "eval": cmd_eval,
            "validate": cmd_validate, "new-scenario": cmd_new_scenario, "drill": cmd_drill,
            "modules": cmd_modules, "comment": cmd_comment, "check": cmd_check,
            "toolchain-key": cmd_toolchain_key, "report": cmd_report, "tasks": cmd_tasks,
            "serve": cmd_serve, "mutate": mutate_command.main}


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    args = build_parser().parse_args(argv)
    if args.verbose:
        logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                            format="%(asctime)s %(message)s")
    # Ctrl-C and SIGTERM (a CI timeout, `kill`) stop every run cleanly, even mid-stage.
    interrupt.install()
    limits.raise_own_open_files()
    try:
        with scenario_roots(getattr(args, "scenarios", [])):
            return COMMANDS[args.command](args)
    except KeyboardInterrupt:
        console.print("[yellow]interrupted[/]: every service and temp dir was cleaned up")
        return 130
    except SolutionError as exc:
        console.print(f"[red]fail[/]: {t(exc)}")
        return EXIT_FAIL
    except InputError as exc:
        console.print(f"[red]error[/]: {t(exc)}")
        return EXIT_USAGE
    except KitError as exc:
        console.print(f"[red]error[/]: {t(exc)}")
        return EXIT_ERROR
    except OSError as exc:
        places = " or ".join([*([f"--out {args.out}"] if hasattr(args, "out") else []),
                              f"TMPDIR {tempfile.gettempdir()}"])
        console.print(f"[red]error[/]: {t(describe_os_error(exc, places))}")
        return EXIT_ERROR

