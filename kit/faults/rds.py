"""RDS faults (drills): what happens to a DB instance, and the incident the runbook gets.

Each fault acts on the data plane (kit.rds) the way the failure happens on AWS, then
reports an incident (JSON, pinned in the scenario's prompt): its `kind`, the instance, when
it began (`started_at`) and was reported (`reported_at`), what is known. The fault holds
until the drill has settled (recovered or timed out), then heals.

- instance_crash: the primary's postmaster is killed; RDS fails over (Multi-AZ) or restarts
  the engine in place.
- az_loss: the primary's Availability Zone is cut off; Multi-AZ fails over, a single-AZ
  instance is unreachable until the zone returns (at the end of the drill).
- bad_migration: with the application in maintenance, a migration runs `statement`; the
  damage is reported `found_after_seconds` later, and the application resumes when the
  runbook exits.
- instance_delete: an administrator (allowed to) calls DeleteDBInstance.
- reboot_failover: maintenance reboots the instance with ForceFailover (a plain reboot
  when it is not Multi-AZ, which is what AWS maintenance does then).
- region_loss: the instance's whole Region is cut off: none of its instances answers (a
  Multi-AZ standby is in the same Region: nothing fails over), replicas elsewhere stop
  receiving its WAL, and every AWS API call signed for it is answered 503
  ServiceUnavailable. It returns when the drill has settled, or after `duration_seconds`
  (then its old primary is writable again: a runbook must keep the application off it).
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any, ClassVar

import psycopg
from botocore.exceptions import ClientError
from pydantic import BaseModel, ConfigDict, Field

from kit.faults.base import FaultBroken, FaultKind, FaultNotInjected
from kit.faults.hooks import DrillHooks
from kit.rds.backups import utcnow
from kit.rds.instance import DbInstance
from kit.rds.wire import timestamp

HOLD_LIMIT = 900.0  # a drill always settles before this (its own timeouts are lower)


class RdsFault(FaultKind):
    """A fault on a DB instance that a runbook is told about."""

    targets = ("database",)
    incident_kind: ClassVar[str] = ""

    @property
    def hooks(self) -> DrillHooks:
        if self.ctx.drill is None:
            raise FaultBroken(f"{self.ctx.spec.kind} acts on the RDS data plane: it runs in "
                              "drills only (workload.kind: drill)")
        return self.ctx.drill

    @property
    def identifier(self) -> str:
        return self.hooks.instances[self.ctx.target]

    def instance(self) -> DbInstance:
        found = self.hooks.plane.get(self.identifier)
        if found is None or found.status != "available":
            raise FaultNotInjected(f"DB instance {self.identifier} is "
                                   f"{found.status if found else 'gone'}, not available")
        return found

    def incident(self, started: datetime, description: str, **known: Any) -> dict[str, Any]:
        """The incident as the runbook gets it."""
        return {"kind": self.incident_kind, "db_instance_identifier": self.identifier,
                "started_at": timestamp(started), "reported_at": timestamp(utcnow()),
                "description": description, **known}

    def report(self, incident: dict[str, Any]) -> None:
        self.hooks.report(self.ctx.spec.kind, incident)

    def window(self) -> None:
        # Held until the drill settles: an outage that ended by itself would hide whether
        # the runbook recovered.
        limit = self.ctx.spec.duration_seconds or HOLD_LIMIT
        self.hooks.settled.wait(limit)


class InstanceCrash(RdsFault):
    """SIGKILL the primary's postmaster."""

    incident_kind = "instance_crash"

    def start(self) -> dict[str, Any]:
        instance, started = self.instance(), utcnow()
        self.hooks.plane.crash(instance)
        self.report(self.incident(started, f"The database engine of {self.identifier} "
                                  "crashed (its postmaster was killed)."))
        return {"target": self.ctx.target, "instance": self.identifier,
                "effect": "postmaster killed"}

    def heal(self) -> None:
        # Nothing to undo: the plane recovers the engine by itself, as RDS does (failover or
        # restart in place); what the runbook does meanwhile is what the drill judges.
        return None


class AzLoss(RdsFault):
    """The primary's Availability Zone is cut off until the drill ends."""

    incident_kind = "az_loss"
    timed = True

    def start(self) -> dict[str, Any]:
        instance, started = self.instance(), utcnow()
        self._instance = instance
        instance.cut_off()  # before the incident is reported: nothing gets through after it
        self.hooks.plane.run(instance, "az loss", instance.lose_az)
        self.report(self.incident(started, f"The Availability Zone of {self.identifier}'s "
                                  "primary is unreachable; it is not known when it returns."))
        return {"target": self.ctx.target, "instance": self.identifier,
                "effect": "the primary's zone cut off"}

    def heal(self) -> None:
        instance = getattr(self, "_instance", None)
        if instance is not None and instance.status != "deleted":
            instance.heal_az()


class RegionLoss(RdsFault):
    """The instance's Region is cut off: its instances and its API endpoints."""

    incident_kind = "region_loss"
    timed = True

    def start(self) -> dict[str, Any]:
        instance, started = self.instance(), utcnow()
        self._region = instance.spec.region
        # Before the incident is reported: nothing gets through after it.
        self._cut = self.hooks.plane.cut_region(self._region)
        self.ctx.gateway.lose_region(self._region)
        self.report(self.incident(started, f"The AWS Region {self._region} is unreachable: "
                                  "its databases and its API endpoints; it is not known when "
                                  "it returns.", region=self._region))
        return {"target": self.ctx.target, "instance": self.identifier,
                "region": self._region, "instances_cut": sorted(i.identifier for i in self._cut),
                "effect": "the Region's instances and API endpoints unreachable"}

    def heal(self) -> None:
        region = getattr(self, "_region", None)
        if region is not None:
            self.hooks.plane.heal_region(self._cut)
            self.ctx.gateway.restore_region(region)


class MigrationParams(BaseModel):
    """The migration's SQL, run as the master user, and how long until it is noticed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    statement: str = Field(min_length=1)
    found_after_seconds: float = Field(0.0, ge=0, le=300)


class BadMigration(RdsFault):
    """A migration deletes rows behind the application's back, during maintenance."""

    Params = MigrationParams
    incident_kind = "bad_migration"

    def start(self) -> dict[str, Any]:
        instance = self.instance()
        if not self.hooks.app.pause():
            raise FaultBroken("the application did not pause for the migration within 10 s")
        assert instance.primary is not None
        # started_at, in the incident's millisecond precision, is after the application's
        # last commit (it is idle) and before the migration's: wait until the clock passed it.
        now = utcnow()
        self.started = now + timedelta(microseconds=1000 - now.microsecond % 1000)
        while utcnow() <= self.started + timedelta(milliseconds=1):
            time.sleep(0.0005)
        dbname, user = instance.spec.db_name or "postgres", instance.spec.master_username
        with psycopg.connect(instance.primary.dsn(dbname, user), autocommit=True) as conn:
            affected = conn.execute(self.params.statement).rowcount  # type: ignore[arg-type]
        if affected <= 0:
            self.hooks.app.resume()
            raise FaultNotInjected(f"the migration changed no row: {self.params.statement}")
        return {"target": self.ctx.target, "instance": self.identifier,
                "statement": self.params.statement, "rows_affected": affected,
                "started_at": timestamp(self.started)}

    def window(self) -> None:
        if self.hooks.settled.wait(self.params.found_after_seconds):
            return
        self.report(self.incident(
            self.started, f"A schema migration run on {self.identifier} at started_at deleted "
            "rows it should not have; the application has been in maintenance (no writes) "
            "since then and resumes when the runbook exits.", maintenance=True))
        super().window()

    def heal(self) -> None:
        self.hooks.app.resume()


class DeleteParams(BaseModel):
    """Whether the administrator skips the final snapshot."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    skip_final_snapshot: bool = False


class InstanceDelete(RdsFault):
    """An administrator, allowed to, deletes the instance."""

    Params = DeleteParams
    incident_kind = "deletion_attempt"

    def start(self) -> dict[str, Any]:
        self.instance()
        started = utcnow()
        final = None if self.params.skip_final_snapshot else f"{self.identifier}-final"
        args = {"SkipFinalSnapshot": True} if final is None else {
            "FinalDBSnapshotIdentifier": final}
        try:
            self.hooks.admin.delete_db_instance(DBInstanceIdentifier=self.identifier, **args)
            refused = None
        except ClientError as exc:
            refused = exc.response["Error"]["Code"]
        outcome = f"refused ({refused})" if refused else "accepted: the instance is deleting"
        self.report(self.incident(started, f"An administrator called DeleteDBInstance on "
                                  f"{self.identifier}: {outcome}.",
                                  deletion_refused=refused is not None,
                                  final_snapshot_identifier=final))
        return {"target": self.ctx.target, "instance": self.identifier,
                "action": "DeleteDBInstance", "refused": refused, "final_snapshot": final}

    def heal(self) -> None:
        # Nothing to undo: a deletion AWS accepted is final (bringing the data back from a
        # snapshot is the runbook's job, and what the drill judges); a refused one changed
        # nothing.
        return None


class MaintenanceReboot(RdsFault):
    """RebootDBInstance with ForceFailover (a plain reboot for a single-AZ instance)."""

    incident_kind = "reboot_failover"

    def start(self) -> dict[str, Any]:
        self.instance()
        started = utcnow()
        try:
            self.hooks.admin.reboot_db_instance(DBInstanceIdentifier=self.identifier,
                                                ForceFailover=True)
            how = "rebooted with a failover"
        except ClientError as exc:
            if exc.response["Error"]["Code"] != "InvalidParameterCombination":
                raise
            self.hooks.admin.reboot_db_instance(DBInstanceIdentifier=self.identifier)
            how = "rebooted (not Multi-AZ: no failover possible)"
        self.report(self.incident(started, f"Maintenance {how} {self.identifier}."))
        return {"target": self.ctx.target, "instance": self.identifier, "effect": how}

    def heal(self) -> None:
        # Nothing to undo: a reboot (with its failover) completes by itself, as on AWS.
        return None
