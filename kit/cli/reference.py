"""The commands' reference (docs/commands.md), generated from the parser itself so that it
cannot drift from the options the command takes: `python -m kit.cli.reference >
docs/commands.md` writes it, and tests/unit/cli/test_reference.py fails when the committed
page differs."""

from __future__ import annotations

import argparse
import os
import sys

from kit.cli.parser import build_parser

WIDTH = "100"  # columns argparse wraps the help at, whatever the terminal


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Each subcommand's parser by name, in the order the parser lists them."""
    [action] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def render() -> str:
    """The reference page: the top-level usage, then each command's help as argparse
    prints it."""
    os.environ["COLUMNS"] = WIDTH  # argparse sizes its help from the terminal
    parser = build_parser()
    parts = ["# Command reference\n",
             "Generated from the parser (`python -m kit.cli.reference > docs/commands.md`);",
             "docs/cli.md explains the commands.\n", "```", parser.format_help().rstrip(), "```"]
    for name, sub in subcommands(parser).items():
        parts += [f"\n## kit {name}\n", "```", sub.format_help().rstrip(), "```"]
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    sys.stdout.write(render())
