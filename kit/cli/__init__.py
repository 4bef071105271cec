"""The `kit` command, a module per command (eval, validate, drill, mutate, ...): parser.py
builds the parser and is the entry point, common.py is what the commands share."""

from kit.cli.common import EXIT_ERROR, EXIT_FAIL, EXIT_OK, EXIT_USAGE, console
from kit.cli.parser import COMMANDS, build_parser, main

__all__ = ["COMMANDS", "EXIT_ERROR", "EXIT_FAIL", "EXIT_OK", "EXIT_USAGE", "build_parser",
           "console", "main"]
