"""A moto server process with moto already imported, forked once per sandbox's moto server.

Importing moto, the kit's fidelity fixes and the models of the services every shipped
scenario reaches (SQS; RDS, which imports EC2's) costs a moto server about 2.5 CPU-seconds
before it has answered anything, in every sandbox. The zygote pays it once per kit
process: it imports them (applying each service's fidelity fixes first, as moto_main's
first request to that service would), then waits for requests and forks one moto server
per sandbox, which does the rest of what `python -m kit.sandbox.moto_main` does.

Why this cannot change a verdict: the zygote only imports code and never creates a
backend, holds no AWS resource and serves no request, so every child starts in the same
state as a fresh moto_main process that had imported those modules on its first
request; after the fork a child shares nothing with the zygote or its siblings (its own
memory, port, journal, log, session, working directory and sys.path[0]); every fidelity
fix is in place before its service answers, as fidelity/__init__.py requires. The
environment is the kit's at the zygote's start: a kit whose environment changed since
gets a new zygote (kit/sandbox/moto.py).

moto internals touched: moto.backends.get_backend, moto.sqs.urls, moto.rds.urls (imported
ahead), moto.server.main.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import sys
from pathlib import Path

# moto's module for each service imported ahead (moto.backends names them so).
PRELOAD = ("sqs", "rds")


def preload() -> None:
    """Import moto's server, the fidelity fixes and the PRELOAD services' models."""
    from moto import backends

    from kit.sandbox import fidelity

    fidelity.install()
    for service in PRELOAD:
        for fix in fidelity.BY_SERVICE.get(service, ()):
            fix()  # before its models are imported, as on moto_main's first request
        backends.get_backend(service)  # type: ignore[arg-type]
        importlib.import_module(f"moto.{service}.urls")


def _child(request: dict[str, str]) -> None:
    """In the forked child: become the sandbox's moto server (never returns)."""
    from kit.sandbox.fidelity import errors
    from kit.sandbox.process import die_with_parent

    code = 1
    try:
        os.setsid()  # its own session and process group, as ManagedProcess gives
        die_with_parent()  # the zygote's death (it dies with the kit) ends it
        for sig in (signal.SIGCHLD, signal.SIGTERM):
            signal.signal(sig, signal.SIG_DFL)
        # As Python's start-up sets it (a fresh moto_main has it so): a write to a socket
        # its client closed (a deploy killed at its time limit) raises BrokenPipeError in
        # that request's thread; SIG_DFL here killed the whole server.
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.close(null)
        os.chdir(request["cwd"])
        sys.path[0] = request["cwd"]  # as `python -m` started there would have it
        sys.argv = ["moto_main", request["port"], request["journal"]]
        errors.answers_are_journaled(Path(request["journal"]))
        from moto import server

        server.main(["-H", "127.0.0.1", "-p", request["port"]])
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001 - into its log, as a crashed moto_main would
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def main() -> None:
    """Preload, then fork a moto server per request line (JSON), answering its pid."""
    preload()
    # Its children are reaped by the kernel: the kit watches each through a pidfd.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(request)
        sys.stdout.write(f"{pid}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
