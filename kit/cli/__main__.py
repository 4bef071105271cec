"""`python -m kit.cli`: the `kit` command."""

import sys

from kit.cli.parser import main

sys.exit(main())
