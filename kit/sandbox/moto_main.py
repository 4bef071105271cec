"""Entry point of the sandbox's moto server: apply the fidelity fixes, then serve.

argv: the port, then (optional) the path of the journal of its answers
(kit/sandbox/journal.py).

moto internals touched: moto.server.main.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kit.sandbox import fidelity, localstack_split
from kit.sandbox.fidelity import errors


def main() -> None:
    """Serve moto on 127.0.0.1:<port> with the kit's fidelity fixes applied."""
    if len(sys.argv) > 2:
        errors.answers_are_journaled(Path(sys.argv[2]))
    fidelity.install()
    localstack_split.install()  # beside LocalStack only: RDS's references resolve there
    from moto import server

    server.main(["-H", "127.0.0.1", "-p", sys.argv[1]])


if __name__ == "__main__":
    main()
