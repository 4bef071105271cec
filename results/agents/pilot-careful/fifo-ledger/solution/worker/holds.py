"""What this process holds, and handing a dead peer's messages back to SQS.

A message received by a worker that is then killed (or stops on SIGTERM)
stays invisible until its visibility timeout runs out, which is longer than
the recovery time allowed. So every worker keeps a small "hold book" file
listing the receipt handles it holds, rewritten every second. Every worker
also runs a janitor: when it finds the book of a worker that no longer runs,
it claims the book (an atomic rename, so only one janitor acts on it) and
makes those messages visible again at once. A worker's messages are only ever
released after it has exited, so no message is held by two live workers.

A peer is known dead when its process (same PID namespace, same start time)
is gone or a zombie. A peer in another PID namespace of the same host is
presumed dead when its book has not been rewritten for PEER_STALE_AFTER
seconds. Books of other hosts are left alone. All times are CLOCK_MONOTONIC,
which is shared by the processes of a host and unaffected by wall-clock steps.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import socket
import tempfile
import threading
import time

from . import settings as S
from .pacing import Pacer
from .sqs_io import Hold, Sqs, chunks, describe

log = logging.getLogger("worker.holds")


# --- process identity ---------------------------------------------------------


def _proc_stat(pid: int) -> tuple[str, int] | None:
    """(state, start time in clock ticks) of a process, or None if there is none."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read().decode("ascii", "replace")
    except (FileNotFoundError, ProcessLookupError):
        return None
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may contain anything.
    fields = raw.rsplit(")", 1)[-1].split()
    # fields[0] is field 3 (state); field 22 (starttime) is fields[19].
    try:
        return fields[0], int(fields[19])
    except (IndexError, ValueError):
        return None


@dataclasses.dataclass(frozen=True)
class Identity:
    pid: int
    start: int
    boot: str
    pidns: str

    @classmethod
    def current(cls) -> "Identity | None":
        try:
            pid = os.getpid()
            stat = _proc_stat(pid)
            with open("/proc/sys/kernel/random/boot_id") as f:
                boot = f.read().strip()
        except OSError:
            return None
        try:
            pidns = os.readlink("/proc/self/ns/pid")
        except OSError:
            # Unreadable namespace link: tell hosts/containers apart by name.
            pidns = "uts:" + socket.gethostname()
        if stat is None or not boot:
            return None
        return cls(pid=pid, start=stat[1], boot=boot, pidns=pidns)


# --- in-memory registry ---------------------------------------------------------


class Registry:
    """Messages held by this process, in the order they were received."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._holds: dict[int, Hold] = {}
        self._seq = 0
        self._key: dict[int, int] = {}

    def add(self, holds: list[Hold]) -> None:
        with self._lock:
            for h in holds:
                self._seq += 1
                self._holds[self._seq] = h
                self._key[id(h)] = self._seq

    def _drop(self, h: Hold) -> None:
        key = self._key.pop(id(h), None)
        if key is not None:
            self._holds.pop(key, None)

    def finish(self, h: Hold) -> None:
        with self._lock:
            h.done = True
            self._drop(h)

    def lose(self, h: Hold) -> None:
        with self._lock:
            if h.done:
                return
            h.lost = True
            self._drop(h)

    def active(self) -> list[Hold]:
        with self._lock:
            return list(self._holds.values())

    def count(self) -> int:
        with self._lock:
            return len(self._holds)


# --- the hold book -------------------------------------------------------------------


def choose_directory(queue_url: str) -> str | None:
    """A directory shared by the workers of this queue, or None if none is writable.

    The workers share their working directory (the solution directory); the
    temporary directory is the fallback.
    """
    tag = hashlib.sha256(queue_url.encode()).hexdigest()[:16]
    bases = [
        os.path.join(os.getcwd(), ".worker-state"),
        os.path.join(tempfile.gettempdir(), "fifo-ledger-worker-state"),
    ]
    for base in bases:
        directory = os.path.join(base, tag)
        probe = os.path.join(directory, f".probe-{os.getpid()}")
        try:
            os.makedirs(directory, exist_ok=True)
            with open(probe, "w") as f:
                f.write("ok")
            os.unlink(probe)
            return directory
        except OSError:
            continue
    return None


class HoldBook:
    def __init__(self, directory: str, me: Identity):
        self.directory = directory
        self.me = me
        self.name = f"holds-{me.pid}-{me.start}.json"
        self.path = os.path.join(directory, self.name)
        self._lock = threading.Lock()

    def write(self, holds: list[Hold]) -> bool:
        data = {
            "v": 1,
            "pid": self.me.pid,
            "start": self.me.start,
            "boot": self.me.boot,
            "pidns": self.me.pidns,
            "beat": time.monotonic(),
            "holds": [{"rh": h.receipt_handle, "until": h.visible_until} for h in holds],
        }
        tmp = self.path + ".tmp"
        with self._lock:
            try:
                with open(tmp, "w") as f:
                    json.dump(data, f)
                os.replace(tmp, self.path)
                return True
            except OSError as e:
                log.warning("cannot write hold book %s: %s", self.path, e)
                return False

    def remove(self) -> None:
        with self._lock:
            try:
                os.unlink(self.path)
            except OSError:
                pass


def _load(path: str) -> dict | None:
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("v") != 1:
        return None
    return data


class Janitor:
    """Finds the books of dead workers and makes their messages visible again."""

    def __init__(self, book: HoldBook, sqs: Sqs):
        self._book = book
        self._me = book.me
        self._sqs = sqs
        self._pacer = Pacer(S.BACKOFF_BASE, S.BACKOFF_CAP)
        # (receipt handle, visible until) of claimed books, in receive order.
        self._orphans: list[tuple[str, float]] = []

    def run_forever(self) -> None:
        while True:
            try:
                self._scan()
                self._release()
            except Exception:
                log.exception("janitor pass failed")
            time.sleep(S.JANITOR_EVERY)

    def _dead(self, data: dict) -> bool:
        if data.get("boot") != self._me.boot:
            return False
        if data.get("pidns") == self._me.pidns:
            try:
                pid = int(data["pid"])
                start = int(data["start"])
            except (KeyError, TypeError, ValueError):
                return False
            stat = _proc_stat(pid)
            return stat is None or stat[1] != start or stat[0] in ("Z", "X", "x")
        try:
            beat = float(data["beat"])
        except (KeyError, TypeError, ValueError):
            return False
        return time.monotonic() - beat > S.PEER_STALE_AFTER

    def _scan(self) -> None:
        try:
            names = os.listdir(self._book.directory)
        except OSError:
            return
        for name in names:
            if not (name.startswith("holds-") and name.endswith(".json")) or name == self._book.name:
                continue
            path = os.path.join(self._book.directory, name)
            data = _load(path)
            if data is None or not self._dead(data):
                continue
            claimed = f"{path}.claimed-{self._me.pid}"
            try:
                os.rename(path, claimed)
            except OSError:
                continue  # another janitor got it first
            data = _load(claimed) or data
            try:
                os.unlink(claimed)
            except OSError:
                pass
            now = time.monotonic()
            taken = []
            for entry in data.get("holds") or []:
                try:
                    rh, until = str(entry["rh"]), float(entry["until"])
                except (KeyError, TypeError, ValueError):
                    continue
                if until - now > S.RELEASE_MARGIN:
                    taken.append((rh, until))
            if taken:
                log.info("worker %s is gone; releasing %d message(s) it held", data.get("pid"), len(taken))
                self._orphans.extend(taken)

    def _release(self) -> None:
        while self._orphans:
            now = time.monotonic()
            # Past (or near) its visibility deadline a handle may have been
            # received again by someone else: leave it to SQS.
            self._orphans = [(rh, u) for rh, u in self._orphans if u - now > S.RELEASE_MARGIN]
            if not self._orphans:
                return
            chunk = self._orphans[:10]
            self._pacer.wait()
            try:
                # Per-entry failures are handles that are gone already (the
                # dead worker deleted the message before it died): ignore them.
                self._sqs.release_handles([rh for rh, _ in chunk])
            except Exception as e:
                self._pacer.failure()
                log.warning("releasing orphaned messages failed: %s", describe(e))
                return
            self._pacer.success()
            del self._orphans[: len(chunk)]
