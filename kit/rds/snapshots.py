"""DB snapshots and the data each one holds.

A snapshot is a base backup of the instance's primary, taken while it runs (RDS User Guide,
"Creating a DB snapshot": a storage-volume snapshot of the instance). Manual and final
snapshots outlive their instance; an instance's automated snapshot is its first automated
backup and goes with DeleteAutomatedBackups. moto keeps each snapshot's record; this keeps
its data and its status (`creating` until the data is there).
"""

from __future__ import annotations

import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path

from kit.rds.errors import DBSnapshotNotFound, InvalidDBSnapshotState
from kit.rds.server import own


@dataclass
class Snapshot:
    """One snapshot: whose, which kind, where its data is, and its status."""

    identifier: str
    instance: str
    kind: str  # manual | automated
    path: Path
    status: str = "creating"  # creating | available | failed
    owned: bool = True  # False: the data belongs to the instance's backups (automated)
    ready: threading.Event = field(default_factory=threading.Event)


class Snapshots:
    """Every snapshot of the run, by identifier."""

    def __init__(self, root: Path) -> None:
        self.root = own(root / "snapshots")
        self._all: dict[str, Snapshot] = {}
        self._lock = threading.Lock()

    def new(self, identifier: str, instance: str, kind: str = "manual",
            path: Path | None = None) -> Snapshot:
        """Register a snapshot being created (`path`: data that already exists)."""
        safe = identifier.replace(":", "_").replace("/", "_")
        snapshot = Snapshot(identifier, instance, kind, path or self.root / safe,
                            owned=path is None)
        with self._lock:
            self._all[identifier] = snapshot
        return snapshot

    def finished(self, snapshot: Snapshot, ok: bool) -> None:
        """Mark a snapshot available (its data is complete) or failed."""
        snapshot.status = "available" if ok else "failed"
        snapshot.ready.set()

    def get(self, identifier: str) -> Snapshot | None:
        """The snapshot named `identifier` (or its ARN), if the plane holds its data."""
        name = identifier.split(":snapshot:", 1)[-1]
        with self._lock:
            return self._all.get(name)

    def usable(self, identifier: str) -> Snapshot:
        """A snapshot a restore can start from; the documented error otherwise."""
        snapshot = self.get(identifier)
        if snapshot is None:
            raise DBSnapshotNotFound(f"DBSnapshot {identifier} not found.")
        if snapshot.status != "available":
            raise InvalidDBSnapshotState(f"DBSnapshot {identifier} is {snapshot.status}, "
                                         "not available.")
        return snapshot

    def status(self, identifier: str) -> str | None:
        """The snapshot's status as DescribeDBSnapshots reports it (None: not the plane's)."""
        snapshot = self.get(identifier)
        return snapshot.status if snapshot else None

    def drop_automated(self, instance: str) -> None:
        """Forget an instance's automated snapshots (its backups were deleted)."""
        with self._lock:
            for name in [n for n, s in self._all.items()
                         if s.instance == instance and s.kind == "automated"]:
                del self._all[name]

    def clear(self) -> None:
        """Remove every snapshot's data (the end of a run)."""
        with self._lock:
            self._all.clear()
        shutil.rmtree(self.root, ignore_errors=True)
