"""One DB instance: its servers, its endpoint, and the state machine AWS documents.

The endpoint is a Toxiproxy listener (the instance's DNS name, in effect): clients connect
to it, and it forwards to the current primary. A Multi-AZ instance has a standby, a
streaming replica every commit waits for (synchronous replication, RDS User Guide:
"Multi-AZ DB instance deployments"); a failover promotes it and moves the endpoint to it,
so the address clients use stays the same while the server behind it changes, as the DNS
name does on AWS. Statuses follow the User Guide's "Viewing Amazon RDS DB instance status":
creating -> available; rebooting (a reboot, or a single-AZ engine restarted in place after
a crash); deleting. Each transition lasts its configured time (kit.rds.config), its real
work done within it; work that outlasts it (a loaded machine) is emitted as an `overrun`,
which the drill's clock leaves out (recovery.rto): the machine's speed never decides a
verdict. A transition runs in a worker thread of the plane and holds the instance's lock
throughout.

Zones as DescribeDBInstances reports them (RDS API reference, DBInstance): `AvailabilityZone`
is the primary's zone, `SecondaryAvailabilityZone` the standby's, present only for Multi-AZ.
A failover swaps them: the standby in the other zone becomes the primary (RDS User Guide,
"Multi-AZ DB instance deployments": "the primary DB instance switches over automatically to
the standby replica"; RebootDBInstance with ForceFailover "is conducted through a Multi-AZ
failover"), and its replacement standby stands where the old primary stood. A Multi-AZ read
replica has a standby of its own, cascading from it; its failover makes the standby the
replica (read-only, streaming from the source), never a writable primary.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from psycopg import sql

from kit.aws import REGION
from kit.rds.backups import Backups
from kit.rds.config import RdsTimings
from kit.rds.errors import DataPlaneError
from kit.rds.server import READY_TIMEOUT, PgServer, Spawner
from kit.rds.snapshots import Snapshot
from kit.sandbox.toxiproxy import Proxy

Emit = Callable[..., None]
STANDBY_NAME = "standby"
RECOVERY_TIMEOUT = 120.0


@dataclass(frozen=True)
class Spec:
    """What moto's record says of an instance and the data plane needs."""

    identifier: str
    resource_id: str
    master_username: str
    db_name: str | None
    multi_az: bool
    retention_days: int
    zone: str = "us-east-1a"  # AvailabilityZone as created
    zones: tuple[str, ...] = ()  # the zones of its DB subnet group (none: the region's)
    master_password: str | None = None  # MasterUserPassword as created (None: not given)
    region: str = REGION  # the Region it is in (its ARN's)


def conninfo(upstream: PgServer, name: str) -> str:
    """primary_conninfo of a replica of `upstream` streaming as `name` (over its socket)."""
    return (f"'host={upstream.sockets} port={upstream.port} user=postgres "
            f"application_name={name}'")


def other_zone(spec: Spec, primary: str) -> str:
    """The zone a Multi-AZ standby stands in: another zone of the DB subnet group (a DB
    subnet group "must have subnets in at least two AZs"), else the region's next zone."""
    others = sorted(z for z in spec.zones if z != primary)
    if others:
        return others[0]
    region, letter = primary[:-1], primary[-1:]
    return region + ("b" if letter != "b" else "a")


@dataclass(frozen=True)
class Source:
    """Where a new instance's data comes from: nothing (a new database), a snapshot's or
    base backup's copy, and, for a point-in-time restore, the recovery that follows."""

    path: Path | None = None
    recovery: dict[str, str] | None = None
    upstream: DbInstance | None = None  # a read replica's source instance


class DbInstance:
    """An instance of the run: status, endpoint, primary, standby, automated backups."""

    def __init__(self, spec: Spec, root: Path, proxy: Proxy, timings: RdsTimings,
                 stop: threading.Event, emit: Emit, spawn: Spawner,
                 master_password: str) -> None:
        self.spec = spec
        self.master_password = master_password  # the application logs in with it
        self.spawn = spawn
        self.root = root
        self.proxy = proxy
        self.timings = timings
        self.stop = stop
        self.emit = emit
        self.status = "creating"
        self.primary: PgServer | None = None
        self.standby: PgServer | None = None
        self.backups = Backups(root, spec.identifier, spec.retention_days,
                               timings.retention_day_seconds)
        self.partitioned = False
        self.zone = spec.zone  # the primary's
        self.secondary_zone = other_zone(spec, spec.zone) if spec.multi_az else None
        self.busy = False  # a transition runs: the crash monitor keeps off
        # When a fault struck (a crash, a zone cut off): the model's time of the recovery
        # it sets off, detection included, runs from then.
        self.struck: float | None = None
        self.lock = threading.RLock()
        self._generation = 0
        self.source: DbInstance | None = None  # the instance it is a read replica of
        self.replicas: list[DbInstance] = []  # its read replicas
        self.replication_cut = False  # a replica whose source's Region is cut off

    @property
    def identifier(self) -> str:
        return self.spec.identifier

    @property
    def endpoint(self) -> tuple[str, int]:
        """(Address, Port) as DescribeDBInstances reports them."""
        return "127.0.0.1", self.proxy.port

    def window(self) -> tuple[datetime, datetime] | None:
        """The restorable window of its automated backups (None: no backups)."""
        return self.backups.window()

    # --- building blocks (called with the lock held) ----------------------------------

    def _server(self, source: Path | PgServer | None) -> PgServer:
        self._generation += 1
        return PgServer(self.root, f"{self.identifier}-{self._generation}", source,
                        self.spawn)

    def _pause(self, seconds: float) -> None:
        # The modelled part of a transition (AWS's own time); cut short when the run ends.
        if self.stop.wait(seconds):
            raise DataPlaneError(f"{self.identifier}: the data plane stopped mid-transition")

    def _within(self, seconds: float, transition: str, work: Callable[[], None],
                since: float | None = None) -> None:
        """Do a transition's real work within its modelled `seconds` (counted from `since`,
        default now), then wait out the rest; emit the time it took beyond them."""
        started = time.monotonic() if since is None else since
        work()
        took = time.monotonic() - started
        self._pause(max(0.0, seconds - took))
        if seconds > 0 and took > seconds:
            self.emit(self.identifier, "overrun", transition=transition,
                      seconds=round(took - seconds, 3))

    def _point_endpoint(self, server: PgServer | None) -> None:
        if server is None:
            self.proxy.set_enabled(False)
        else:
            self.proxy.set_upstream(f"127.0.0.1:{server.port}", not self.partitioned)

    def _strike(self) -> float | None:
        """When the fault this transition recovers from struck (once: then forgotten)."""
        struck, self.struck = self.struck, None
        return struck

    def _stream(self, server: PgServer, upstream: PgServer, name: str) -> None:
        """Start `server` as a streaming replica of `upstream` named `name`, and wait
        (bounded) until it streams."""
        server.configure({**self.backups.settings(), "primary_conninfo": conninfo(upstream, name)})
        server.signal_file("standby.signal")
        server.start()
        deadline = time.monotonic() + READY_TIMEOUT
        while not upstream.query("select 1 from pg_stat_replication where application_name = "
                                 "%s and state = 'streaming'", (name,)):
            if time.monotonic() > deadline:
                raise DataPlaneError(f"{server.name} did not stream from {upstream.name} "
                                     f"within {READY_TIMEOUT:.0f} s")
            self._pause(0.02)

    def _add_standby(self) -> None:
        primary = self.primary
        assert primary is not None
        standby = self._server(primary)
        self._stream(standby, primary, STANDBY_NAME)
        primary.set({"synchronous_standby_names": f"'{STANDBY_NAME}'"})
        self.standby = standby

    def _drop_standby(self) -> None:
        if self.primary is not None and self.primary.alive():
            self.primary.set({"synchronous_standby_names": "''"})
        if self.standby is not None:
            self.standby.destroy()
            self.standby = None

    def _failover(self, why: str) -> None:
        """Promote the standby and move the endpoint to it; a new standby follows."""
        self.emit(self.identifier, "failover_started", reason=why)
        self.proxy.set_enabled(False)
        old, new = self.primary, self.standby
        assert new is not None

        def promote() -> None:
            if old is not None:
                old.destroy()
            if self.source is None:
                new.promote()
                new.set({"synchronous_standby_names": "''"})
                return
            # A Multi-AZ read replica: its standby becomes the replica, read-only, streaming
            # from the source (unless the source's Region is cut off).
            upstream = self.source.primary
            new.set({"synchronous_standby_names": "''", "primary_conninfo": "''"
                     if self.replication_cut or upstream is None
                     else conninfo(upstream, self.replication_name)})

        self._within(self.timings.failover_seconds, "failover", promote, self._strike())
        self.primary, self.standby, self.partitioned = new, None, False
        if self.secondary_zone is not None:  # the standby's zone is the primary's now
            self.zone, self.secondary_zone = self.secondary_zone, self.zone
        self._point_endpoint(new)
        self.emit(self.identifier, "failover_completed", reason=why, zone=self.zone,
                  secondary_zone=self.secondary_zone)
        for replica in list(self.replicas):  # read replicas follow the new primary
            replica.follow(new)
        self._add_standby()

    def _restart(self, why: str) -> None:
        """Restart the primary in place (crash recovery replays its WAL)."""
        self.status = "rebooting"
        self.emit(self.identifier, "restarting", reason=why)
        self.proxy.set_enabled(False)
        primary = self.primary
        assert primary is not None

        def restart() -> None:
            primary.stop()
            primary.start()

        self._within(self.timings.reboot_seconds, "restart", restart, self._strike())
        self._point_endpoint(primary)

    # --- transitions (run by the plane in a worker thread) ----------------------------

    def provision(self, source: Source, extra_seconds: float) -> None:
        """creating -> available: a primary from `source`, its standby, its first backup."""
        with self.lock:
            self._within(extra_seconds, "create" if source.path is None else "restore",
                         lambda: self._build(source))
            self._point_endpoint(self.primary)
            self._set("available")

    def _build(self, source: Source) -> None:
        if source.upstream is not None:
            self._build_replica(source.upstream)
            return
        server = self._server(source.path)
        server.configure({**self.backups.settings(), **(source.recovery or {})})
        if source.recovery:
            server.signal_file("recovery.signal")
        server.start(RECOVERY_TIMEOUT if source.recovery else READY_TIMEOUT)
        self.primary = server
        if source.recovery:
            self._await_promotion(server)
        if source.path is None:
            self._create_database(server)
        if self.spec.multi_az:
            self._add_standby()
        if self.backups.enabled:
            self.backups.base_backup(server)

    def _build_replica(self, upstream: DbInstance) -> None:
        """A read replica: a base backup of the source's primary, streaming from it
        asynchronously (no commit waits for it), read-only until promoted."""
        with upstream.lock:
            if upstream.primary is None:
                raise DataPlaneError(f"{upstream.identifier} has no primary to replicate")
            server = self._server(upstream.primary)
            self._stream(server, upstream.primary, self.replication_name)
        self.primary, self.source = server, upstream
        upstream.replicas.append(self)
        if self.spec.multi_az:  # its standby cascades from it, in another zone
            self._add_standby()

    @property
    def replication_name(self) -> str:
        """The application_name it streams under (unique in the run, as its directory)."""
        return self.root.name[:63]

    def follow(self, upstream: PgServer) -> None:
        """Stream from `upstream` from now on (the source failed over to it)."""
        self.replication_cut = False
        if self.primary is not None and self.primary.alive():
            self.primary.set({"primary_conninfo": conninfo(upstream, self.replication_name)})

    def cut_replication(self) -> None:
        """Stop receiving WAL (the source's Region is cut off): what was not streamed yet
        never arrives."""
        self.replication_cut = True  # a failover of the replica keeps it cut
        if self.primary is not None and self.primary.alive():
            self.primary.set({"primary_conninfo": "''"})
        self.emit(self.identifier, "replication_cut")

    def promote(self, retention_days: int) -> None:
        """modifying -> available: a read replica becomes a standalone instance, writable,
        with automated backups when `retention_days` is above 0."""
        with self.lock:
            server, source = self.primary, self.source
            assert server is not None
            self.emit(self.identifier, "promotion_started")

            def promote() -> None:
                server.promote()
                self.backups.retention_days = retention_days
                server.set(self.backups.settings())
                if self.backups.enabled:
                    self.backups.base_backup(server)

            self._within(self.timings.promote_seconds, "promote", promote)
            if source is not None and self in source.replicas:
                source.replicas.remove(self)
            self.source = None
            self.spec = replace(self.spec, retention_days=retention_days)
            self.emit(self.identifier, "promoted")
            self._set("available")

    def _await_promotion(self, server: PgServer) -> None:
        deadline = time.monotonic() + RECOVERY_TIMEOUT
        while server.in_recovery():
            if not server.alive() or time.monotonic() > deadline:
                raise DataPlaneError(f"the point-in-time restore of {self.identifier} did not "
                                     f"finish (log {server.dir / 'server.log'})")
            self._pause(0.02)

    def _create_database(self, server: PgServer) -> None:
        """The master user (no superuser, as RDS's is none: it cannot run programs or read
        the server's files) and the database it owns; in `postgres` it may create tables.
        Not CREATEROLE, although RDS's master has it: on PostgreSQL 15 a CREATEROLE role may
        grant itself pg_execute_server_program and pg_read/write_server_files (16 restricts
        that to roles it administers), which is a way from a database login to the host."""
        user = sql.Identifier(self.spec.master_username)
        server.query(sql.SQL("create role {} login password {}").format(
            user, sql.Literal(self.master_password)))
        server.query(sql.SQL("grant create on schema public to {}").format(user))
        if self.spec.db_name:
            server.query(sql.SQL("create database {} owner {}").format(
                sql.Identifier(self.spec.db_name), user))

    def add_user(self, username: str, password: str, owns: str | None,
                 member_of: str | None = None) -> None:
        """A login role with `password`, owner of database `owns`, a member of role
        `member_of` (what a DBA sets up for an application before it runs); the standby gets
        it by replication."""
        with self.lock:
            if self.primary is None or self.status != "available":
                raise DataPlaneError(f"{self.identifier} is {self.status}: no user can be added")
            user = sql.Identifier(username)
            member = sql.SQL(" in role {}").format(sql.Identifier(member_of)) if member_of \
                else sql.SQL("")
            self.primary.query(sql.SQL("create role {} login password {}{}").format(
                user, sql.Literal(password), member))
            if owns:
                self.primary.query(sql.SQL("alter database {} owner to {}").format(
                    sql.Identifier(owns), user))

    def reboot(self, force_failover: bool) -> None:
        """rebooting -> available, through a failover when asked (Multi-AZ only)."""
        with self.lock:
            if force_failover and self.standby is not None:
                self._failover("RebootDBInstance with ForceFailover")
            else:
                self._restart("RebootDBInstance")
            self._set("available")

    def recover_crash(self) -> None:
        """The primary died: fail over (Multi-AZ) or restart in place, as RDS does."""
        with self.lock:
            if self.standby is not None and self.standby.alive():
                self._failover("the primary failed")
            else:
                self._restart("the primary failed")
            self._set("available")

    def cut_off(self, event: str = "az_lost") -> None:
        """The primary's Availability Zone (or its Region: `event`) is cut off, at once: the
        endpoint stops answering and the WAL stops shipping (then `lose_az` does what RDS
        does about a zone)."""
        self.partitioned = True
        self.struck = time.monotonic()
        self.proxy.set_enabled(False)
        self.emit(self.identifier, event)

    def lose_az(self) -> None:
        """After `cut_off`: Multi-AZ fails over, a single-AZ instance stays unreachable until
        the zone comes back (heal_az)."""
        with self.lock:
            if self.partitioned and self.standby is not None:
                self._failover("the primary's Availability Zone failed")

    def heal_az(self, event: str = "az_restored") -> None:
        """The zone (or the Region: `event`) is back: a cut-off instance answers again."""
        with self.lock:
            if self.partitioned:
                self.partitioned, self.struck = False, None
                self._point_endpoint(self.primary)
                self.emit(self.identifier, event)

    def snapshot(self, snap: Snapshot, finished: Callable[[Snapshot, bool], None]) -> None:
        """Copy the primary's data into a snapshot (the instance stays available)."""
        with self.lock:
            try:
                assert self.primary is not None
                self.primary.basebackup(snap.path)
            except BaseException:
                finished(snap, False)
                raise
            finished(snap, True)

    def delete(self, final: Snapshot | None, finished: Callable[[Snapshot, bool], None],
               drop_backups: bool) -> None:
        """deleting -> gone: a final snapshot first when asked, then every server."""
        with self.lock:
            self.proxy.set_enabled(False)
            if final is not None:
                self.snapshot(final, finished)
            for server in (self.standby, self.primary):
                if server is not None:
                    server.destroy()
            self.primary = self.standby = None
            if self.source is not None and self in self.source.replicas:
                self.source.replicas.remove(self)
            if drop_backups:
                self.backups.remove()
            self._set("deleted")

    def modify(self, changes: dict[str, Any]) -> None:
        """Apply ModifyDBInstance changes the data plane models: retention, Multi-AZ."""
        with self.lock:
            if "retention_days" in changes:
                self.backups.retention_days = changes["retention_days"]
                for server in (self.primary, self.standby):
                    if server is not None:
                        server.set(self.backups.settings())
                if self.backups.enabled and not self.backups.bases and self.primary:
                    self.backups.base_backup(self.primary)
            if changes.get("multi_az") is True and self.standby is None:
                self._add_standby()
                self.secondary_zone = other_zone(self.spec, self.zone)
            elif changes.get("multi_az") is False:
                self._drop_standby()
                self.secondary_zone = None
            self.spec = replace(self.spec, **changes)
            self._set("available")

    def _set(self, status: str) -> None:
        self.status = status
        self.emit(self.identifier, "status", status=status)

    def destroy(self) -> None:
        """Stop every server of the instance and remove its files (the run is over)."""
        for server in (self.standby, self.primary):
            if server is not None:
                server.destroy()
        self.primary = self.standby = None
        self.backups.remove()
