import sys

from runbook.failover import main

sys.exit(main())
