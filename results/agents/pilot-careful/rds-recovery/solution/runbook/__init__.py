"""Ledger database incident runbook.

Run from the solution directory as ``python -m runbook`` with the operator
role's credentials and the environment described in ``runbook.context``.
The harness (or the on-call engineer) runs it once per incident; it must be
done within 90 s, and every AWS call it makes is bounded so that it is.

How the ledger is protected (see the Terraform next to this package):

* Multi-AZ instance with a synchronous standby in another AZ. Engine crashes,
  the loss of the primary's AZ and reboots with failover are handled by RDS
  itself: the primary moves in ~2 s (drill time), no acknowledged write is
  lost, and the endpoint name stays the same. The runbook only watches the
  instance come back and checks the endpoint secret. It never forces a
  failover itself: during an AZ loss that could move the primary back into
  the dark zone.
* Automated backups kept for 35 days (and kept after deletion), so the
  database can be restored to any point in that window.
* Deletion protection: deleting takes two calls (disable, delete), and the
  operator role can do neither.

Procedures, by incident kind:

``instance_crash`` / ``reboot_failover``
    Wait for the instance to be ``available`` again; confirm the secret names
    it. If it is not Multi-AZ (it should be) a crash costs an engine restart
    (~8 s); nothing faster is available without losing writes.

``az_loss``
    As above. A Multi-AZ instance fails over to its standby. A single-AZ
    instance in a dark AZ is not coming back: restore it to its latest
    restorable time (RPO <= 1 s) as ``<ledger>-r<epoch>`` in the surviving
    zones and repoint the secret.

``bad_migration``
    The application is in maintenance (not writing) until the runbook exits.
    Restore the damaged instance to 0.5 s before the migration started, as a
    new Multi-AZ, deletion-protected instance ``<ledger>-r<epoch>`` in the same
    subnet group and security groups with the same backup settings; repoint
    the secret as soon as the new endpoint is known; exit once the instance
    is available. The damaged instance is left in place (deletion protected)
    for forensics and for reconciling anything the migration was meant to do.

``deletion_attempt``
    Deletion protection should have refused it: confirm the instance is
    still there and protected, and take a manual snapshot
    (``<ledger>-guard-<epoch>``) that survives even a later, successful,
    deletion. If the instance is nevertheless going away, restore it to its
    latest restorable time (or from its final snapshot) and repoint.

Afterwards (humans, not this program): a restore leaves Terraform state
pointing at the old instance. Import the new instance into the state (or
rename it back during a maintenance window) before the next ``apply``, then
decommission the old instance through change control (disable deletion
protection, delete with a final snapshot).
"""
