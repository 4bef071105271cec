"""The data plane's clock: how long each status transition of an instance takes.

AWS takes minutes for what a drill must do in seconds, so every duration is configurable
per scenario (scenario.yaml `rds`). The real work (starting PostgreSQL, replaying WAL) takes
what it takes on top of these; these are the parts AWS spends outside the database
(provisioning a host, DNS propagation, detecting a failure).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class RdsTimings(BaseModel):
    """Durations of the data plane's transitions, in seconds of the run."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # creating -> available, besides starting the server (and its standby and first backup)
    create_seconds: float = Field(0.0, ge=0, le=120)
    # rebooting -> available: the engine is down this long (RebootDBInstance, a crash of a
    # single-AZ instance, restarted in place)
    reboot_seconds: float = Field(2.0, ge=0, le=120)
    # a Multi-AZ failover: detection, promotion and the endpoint moving to the standby
    failover_seconds: float = Field(1.0, ge=0, le=120)
    # a restore (from a snapshot or to a point in time) stays `creating` this long, the real
    # copy and WAL replay included (longer only when they take longer: an overrun)
    restore_seconds: float = Field(2.0, ge=0, le=300)
    # PromoteReadReplica: the replica is `modifying` this long (AWS reboots it), the real
    # promotion and first backup included
    promote_seconds: float = Field(1.0, ge=0, le=120)
    # how often an instance's WAL is shipped to its backups: LatestRestorableTime lags the
    # present by at most this (AWS: "typically within the last five minutes")
    wal_upload_seconds: float = Field(1.0, gt=0, le=60)
    # how long one day of BackupRetentionPeriod lasts on the run's clock
    retention_day_seconds: float = Field(86400.0, gt=0)
