"""Entry point: ``python -m runbook``."""

import sys

from .procedures import main

if __name__ == "__main__":
    sys.exit(main())
