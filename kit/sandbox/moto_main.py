"""Entry point of the sandbox's moto server: apply the fidelity fixes, then serve."""

from __future__ import annotations

import sys

from kit.sandbox import fidelity


def main() -> None:
    """Serve moto on 127.0.0.1:<port> with the kit's fidelity fixes applied."""
    fidelity.install()
    from moto import server

    server.main(["-H", "127.0.0.1", "-p", sys.argv[1]])


if __name__ == "__main__":
    main()
