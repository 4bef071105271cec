"""Every DB instance and snapshot of a run, the WAL upload clock and the crash monitor.

The plane is the sandbox's and lives across runs: `enable` arms it for a run that needs it
(a scenario with an `rds` section), `reset` stops every server and removes every file and
proxy at the end. Disabled, the front passes RDS calls to moto untouched (order-pipeline's
instances stay metadata, as before).

Transitions run in worker threads; one that breaks (a server that does not start) is the
kit's error: it is kept in `errors` and the run reports it, never blamed on the solution.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import itertools
import logging
import secrets
import shutil
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg

from kit.aws import REGION, region_of
from kit.rds.config import RdsTimings
from kit.rds.errors import DataPlaneError
from kit.rds.instance import DbInstance, Source, Spec
from kit.rds.server import Spawner, own
from kit.rds.snapshots import Snapshot, Snapshots
from kit.sandbox.toxiproxy import ToxiproxyServer

log = logging.getLogger(__name__)
MONITOR_SECONDS = 0.05
JOIN_TIMEOUT = 30.0
Listener = Callable[[str, str, dict[str, Any]], None]


def key(identifier: str, region: str) -> tuple[str, str]:
    """How the plane holds an instance: identifiers are unique per account and Region."""
    return region, identifier.lower()


class DataPlane:
    """The run's instances (by identifier) and snapshots, and the threads that drive them."""

    def __init__(self, root: Path, toxiproxy: ToxiproxyServer) -> None:
        self.root = root
        self.toxiproxy = toxiproxy
        self.timings = RdsTimings()
        self.enabled = False
        self.instances: dict[str, DbInstance] = {}
        self.snapshots: Snapshots | None = None
        self.errors: list[str] = []
        self.listeners: list[Listener] = []
        self._stop = threading.Event()
        self._workers: list[threading.Thread] = []
        self._clock: threading.Thread | None = None
        self._names = itertools.count()
        self._lock = threading.Lock()
        self._spawn = Spawner()
        self._key = secrets.token_bytes(32)
        self._given: dict[str, str] = {}  # master username -> MasterUserPassword

    # --- lifecycle -------------------------------------------------------------------

    def enable(self, timings: RdsTimings) -> None:
        """Back every instance created from now on with real servers, on this clock."""
        self.reset()
        self.root.mkdir(mode=0o711, exist_ok=True)
        self.timings, self.enabled = timings, True
        self._key = secrets.token_bytes(32)
        self._given.clear()
        self.snapshots = Snapshots(self.root)
        self._stop.clear()
        self._clock = threading.Thread(target=self._tick, name="rds-clock", daemon=True)
        self._clock.start()

    def reset(self) -> None:
        """Stop every server, delete every proxy and file: nothing of the run is left."""
        self.enabled = False
        self._stop.set()
        for thread in [self._clock, *self._workers]:
            if thread is not None and thread.ident is not None:
                thread.join(JOIN_TIMEOUT)
        self._workers.clear()
        for instance in self.instances.values():
            with contextlib.suppress(Exception):
                instance.proxy.delete()
            instance.destroy()
        self.instances.clear()
        if self.snapshots is not None:
            self.snapshots.clear()
        shutil.rmtree(self.root, ignore_errors=True)
        self.errors.clear()
        self.listeners.clear()

    def close(self) -> None:
        """Reset, then stop the thread that starts servers (the sandbox is closing)."""
        self.reset()
        self._spawn.close()

    # --- instances -------------------------------------------------------------------

    def register(self, spec: Spec) -> DbInstance:
        """An instance being created: its endpoint exists at once, its servers follow."""
        # Named by a counter: moto gives a restored instance its source's DbiResourceId.
        name = f"rds-{next(self._names)}-{spec.identifier}"
        proxy = self.toxiproxy.proxy(name, "127.0.0.1:1")  # nothing behind it yet
        instance = DbInstance(spec, own(self.root / name, 0o711), proxy,
                              self.timings, self._stop, self.emit, self._spawn,
                              self.given(spec))
        self.add(instance)
        self.emit(spec.identifier, "status", status="creating")
        return instance

    def add(self, instance: DbInstance) -> None:
        """Hold `instance`, under its Region and identifier."""
        with self._lock:
            self.instances[key(instance.spec.identifier, instance.spec.region)] = instance

    def given(self, spec: Spec) -> str:
        """The master password of a new instance: its MasterUserPassword, as RDS sets it
        (API_CreateDBInstance.html), else (a password RDS manages in Secrets Manager, a
        restore, which carries its source's roles) the kit's."""
        if spec.master_password:
            self._given[spec.master_username] = spec.master_password
        return self.password(spec.master_username)

    def password(self, username: str) -> str:
        """The password of `username` on this run's servers: the one its instance was
        created with, else the kit's; the same on an instance and on every restore of it (a
        snapshot carries its roles)."""
        given = self._given.get(username)
        return given or hmac.new(self._key, username.encode(), hashlib.sha256).hexdigest()

    def get(self, identifier: str, region: str = REGION) -> DbInstance | None:
        """The live instance named `identifier` in `region`, or by its ARN."""
        if identifier.startswith("arn:"):
            region, identifier = region_of(identifier), identifier.rsplit(":", 1)[-1]
        return self.instances.get(key(identifier, region))

    def by_port(self, port: int) -> DbInstance | None:
        """The instance whose endpoint listens on `port`."""
        return next((i for i in self.instances.values() if i.proxy.port == port), None)

    def create(self, spec: Spec) -> DbInstance:
        """CreateDBInstance: a new, empty database."""
        instance = self.register(spec)
        self.run(instance, "create", instance.provision, Source(),
                 self.timings.create_seconds)
        return instance

    def replicate(self, spec: Spec, source: DbInstance) -> DbInstance:
        """CreateDBInstanceReadReplica: a new instance streaming from `source`."""
        instance = self.register(spec)
        self.run(instance, "create", instance.provision, Source(upstream=source),
                 self.timings.create_seconds)
        return instance

    def restore_snapshot(self, spec: Spec, snapshot: Snapshot) -> DbInstance:
        """RestoreDBInstanceFromDBSnapshot: a new instance holding the snapshot's data."""
        instance = self.register(spec)
        self.run(instance, "restore", instance.provision, Source(snapshot.path),
                 self.timings.restore_seconds)
        return instance

    def restore_to_time(self, spec: Spec, source: DbInstance, when: datetime) -> DbInstance:
        """RestoreDBInstanceToPointInTime: a new instance with every transaction the source
        committed at or before `when`, and none after."""
        base, recovery = source.backups.recovery(when)
        instance = self.register(spec)
        self.run(instance, "restore", instance.provision, Source(base.path, recovery),
                 self.timings.restore_seconds)
        return instance

    def snapshot(self, instance: DbInstance, identifier: str) -> Snapshot:
        """CreateDBSnapshot: the snapshot is `creating` until its data is copied."""
        assert self.snapshots is not None
        snap = self.snapshots.new(identifier, instance.identifier)
        self.run(instance, "snapshot", instance.snapshot, snap, self.snapshots.finished)
        return snap

    def automated_snapshot(self, instance: DbInstance, identifier: str) -> None:
        """moto's record of the first automated backup, backed by that backup's data."""
        assert self.snapshots is not None
        if not instance.backups.enabled:
            return
        snap = self.snapshots.new(identifier, instance.identifier, "automated",
                                  instance.backups.root / "base-0")
        threading.Thread(target=self._when_backed, args=(instance, snap), daemon=True).start()

    def _when_backed(self, instance: DbInstance, snap: Snapshot) -> None:
        # Available once the instance's first base backup exists (it is taken at creation).
        while not self._stop.wait(MONITOR_SECONDS):
            if instance.backups.bases or instance.status in ("failed", "deleted"):
                assert self.snapshots is not None
                self.snapshots.finished(snap, bool(instance.backups.bases))
                return

    def delete(self, instance: DbInstance, final: str | None, drop_backups: bool) -> None:
        """DeleteDBInstance: `deleting`, the final snapshot if asked, then gone."""
        assert self.snapshots is not None
        snap = self.snapshots.new(final, instance.identifier) if final else None
        instance.status = "deleting"
        if drop_backups:
            self.snapshots.drop_automated(instance.identifier)
        self.run(instance, "delete", instance.delete, snap, self.snapshots.finished,
                 drop_backups)

    def run(self, instance: DbInstance, what: str, action: Callable[..., None],
            *args: Any) -> None:
        """Run a transition in a worker thread; a failure is the kit's error."""
        instance.busy = True

        def work() -> None:
            try:
                action(*args)
            except Exception as exc:  # noqa: BLE001 - reported as the run's error
                if not self._stop.is_set():
                    instance.status = "failed"
                    self.errors.append(f"{what} of {instance.identifier}: {exc}")
                    log.warning("rds %s of %s failed: %s", what, instance.identifier, exc)
            finally:
                instance.busy = False
                if instance.status == "deleted":
                    with self._lock:
                        self.instances.pop(key(instance.identifier, instance.spec.region), None)
                    with contextlib.suppress(Exception):
                        instance.proxy.delete()

        thread = threading.Thread(target=work, name=f"rds-{what}-{instance.identifier}",
                                  daemon=True)
        self._workers.append(thread)
        thread.start()

    # --- faults ----------------------------------------------------------------------

    def crash(self, instance: DbInstance) -> None:
        """Kill the primary's postmaster; the monitor notices and recovers as RDS does."""
        if instance.primary is None:
            raise DataPlaneError(f"{instance.identifier} has no running primary to crash")
        instance.struck = time.monotonic()
        instance.primary.kill()
        self.emit(instance.identifier, "primary_killed")

    def cut_region(self, region: str) -> list[DbInstance]:
        """A Region is cut off: no endpoint of its instances answers, their WAL stops
        shipping, and replicas in other Regions stop receiving it. Nothing fails over: a
        Multi-AZ standby is in the same Region. Returns the instances cut off."""
        cut = [i for i in self.instances.values()
               if i.spec.region == region and i.status != "deleted"]
        for instance in cut:
            instance.cut_off("region_lost")
            for replica in instance.replicas:
                if replica.spec.region != region:
                    replica.cut_replication()
        return cut

    def heal_region(self, cut: list[DbInstance]) -> None:
        """The Region is back: its instances answer again (a primary that was replaced
        elsewhere is writable again: the split brain a runbook must prevent), and replicas
        still attached resume streaming."""
        for instance in cut:
            if instance.status == "deleted":
                continue
            instance.heal_az("region_restored")
            for replica in instance.replicas:
                if instance.primary is not None:
                    replica.follow(instance.primary)

    # --- the clock -------------------------------------------------------------------

    def emit(self, identifier: str, event: str, **detail: Any) -> None:
        """Tell the listeners (the run's history) what an instance did."""
        for listener in list(self.listeners):
            listener(identifier, event, detail)

    def _tick(self) -> None:
        """Every MONITOR_SECONDS: a dead primary is recovered; every wal_upload_seconds:
        each instance's WAL is shipped to its backups."""
        next_upload = time.monotonic()
        while not self._stop.wait(MONITOR_SECONDS):
            for instance in list(self.instances.values()):
                if instance.status == "available" and not instance.busy \
                        and instance.primary is not None and not instance.primary.alive():
                    self.emit(instance.identifier, "primary_failed")
                    self.run(instance, "crash recovery", instance.recover_crash)
            if time.monotonic() >= next_upload:
                next_upload = time.monotonic() + self.timings.wal_upload_seconds
                for instance in list(self.instances.values()):
                    self._upload(instance)

    def _upload(self, instance: DbInstance) -> None:
        if instance.busy or instance.partitioned or instance.status != "available" \
                or not instance.backups.enabled or not instance.lock.acquire(blocking=False):
            return
        try:
            if instance.primary is not None and instance.primary.alive():
                instance.backups.upload(instance.primary)
        except (psycopg.Error, DataPlaneError) as exc:
            log.info("WAL upload of %s skipped: %s", instance.identifier, exc)
        finally:
            instance.lock.release()
