"""Entry point: read the incident, recover from it, exit 0 once the application can write
to a healthy database again (non-zero when recovery failed).

Configured by the environment: INCIDENT (JSON), DB_INSTANCE_IDENTIFIER, ENDPOINT_SECRET_ARN
and the operator role's session in the standard AWS_* variables.
"""

from __future__ import annotations

import json
import logging
import os
import sys

from runbook.recovery import Recovery

log = logging.getLogger("runbook")


def main() -> int:
    """Dispatch on the incident's kind."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    incident = json.loads(os.environ["INCIDENT"])
    log.info("incident: %s", incident)
    recovery = Recovery(incident.get("db_instance_identifier")
                        or os.environ["DB_INSTANCE_IDENTIFIER"], os.environ["ENDPOINT_SECRET_ARN"])
    kind = incident["kind"]
    if kind == "bad_migration":
        # Everything committed before the migration started, nothing of the migration.
        recovery.restore_to_time(incident["started_at"])
    elif kind == "deletion_attempt":
        if not recovery.exists():
            recovery.restore_snapshot(incident["final_snapshot_identifier"])
    elif kind == "az_loss" and not recovery.multi_az():
        # No standby to fail over to: the zone may not come back; restore elsewhere.
        recovery.restore_latest()
    else:
        # A crash, a lost zone on Multi-AZ, a failover reboot: RDS recovers the instance.
        recovery.wait_available(recovery.source)
    log.info("recovered")
    return 0


if __name__ == "__main__":
    sys.exit(main())
