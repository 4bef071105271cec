"""`kit tasks` and `kit serve`: the tasks for agents and the RL environment's server."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass



def add_agents(sub: Any) -> None:
    """`kit tasks` and `kit serve` (kit/tasks, kit/rl: their code lives there)."""
    from kit.rl import cli as rl_cli
    from kit.tasks import cli as tasks_cli

    tasks_cli.add_parser(sub)
    rl_cli.add_parser(sub)


def cmd_tasks(args: argparse.Namespace) -> int:
    """`kit tasks list|export|grade` (kit/tasks/cli.py)."""
    from kit.tasks import cli as tasks_cli

    return tasks_cli.run(args)


def cmd_serve(args: argparse.Namespace) -> int:
    """`kit serve`: the OpenEnv environment over HTTP (kit/rl/cli.py; extra kit[rl])."""
    from kit.rl import cli as rl_cli

    return rl_cli.run(args)
