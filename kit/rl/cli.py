"""`kit serve`: the OpenEnv environment over HTTP on a free loopback port."""

from __future__ import annotations

import argparse
from typing import Any

from kit.errors import InputError
from kit.tasks.modes import MODES


def add_parser(sub: Any) -> None:
    """Register `kit serve` on the CLI's subparsers."""
    srv = sub.add_parser("serve", help="serve the tasks as an OpenEnv environment over HTTP "
                         "(needs the extra: pip install 'kit[rl]')")
    srv.add_argument("--port", type=int, default=0,
                     help="the loopback port (default: a free one, printed)")
    srv.add_argument("--mode", choices=MODES, default="sampled",
                     help="the reward mode of every submit (default: sampled)")
    srv.add_argument("--executor", choices=("local", "ray"), default="local",
                     help="where a submit's runs execute: here, or as Ray tasks (kit[ray])")
    srv.add_argument("--address", help="with --executor ray: an existing Ray cluster "
                     "(default: a local one of this machine's cores, for the server's life)")


def run(args: argparse.Namespace) -> int:
    """Start the server; returns when it stops."""
    try:
        from kit.rl import server
    except ImportError as exc:
        raise InputError(f"kit serve needs OpenEnv ({exc.name} is missing): install the "
                         "extra, pip install 'kit[rl]' (in the kit's checkout, from the lock: "
                         "make extras)") from None
    from kit.sandbox.ports import free_port

    port = args.port or free_port()
    print(f"kit serve: http://127.0.0.1:{port} (mode {args.mode}, executor {args.executor})",
          flush=True)
    server.serve(port, args.mode, args.executor, args.address)
    return 0
