"""Holding SQS messages: the lease keeper thread and the same-host lease registry.

Lease keeper
    While we hold a message, a background thread keeps it invisible (ChangeMessageVisibility)
    so that no other worker can receive it, however long processing and retries take.

Lease registry
    Each worker process owns one small file in a directory under TMPDIR, exclusively
    flock()ed for the life of the process, holding the receipt handle of the message it
    holds (if any). The kernel drops the lock the instant the process dies, even on
    SIGKILL. The surviving workers scan the directory every few seconds; a file they can
    lock belongs to a dead worker, and they hand its message straight back to SQS
    (visibility 0) instead of letting it sit invisible until its lease runs out. If the
    files are not shared between workers, nothing breaks: the lease simply expires.
"""

import fcntl
import hashlib
import json
import logging
import os
import tempfile
import threading
import time
import uuid

from . import config
from .backoff import Backoff
from .sqs import describe, handle_gone

log = logging.getLogger("worker.lease")


class Lease:
    """A message we hold."""

    def __init__(self, message, received_mono, received_wall):
        self.message = message
        self.message_id = message.get("MessageId", "?")
        self.receipt_handle = message["ReceiptHandle"]
        # Conservative: measured from before the receive call was sent.
        self.deadline = received_mono + config.INITIAL_VISIBILITY
        self.expires_wall = received_wall + config.INITIAL_VISIBILITY
        self.worked = False    # WORK_SECONDS already spent on it
        self.effects_done = False  # recorded in the DB / sent to the DLQ: only the delete is left
        self.settled = False   # deleted, handed back, or no longer ours
        self.lost = False      # SQS told us the receipt handle is no longer valid
        self.closed = False    # stop renewing
        self.io = threading.Lock()  # held by the keeper while a renewal call is in flight


class LeaseKeeper(threading.Thread):
    def __init__(self, client, queue_url, registry):
        super().__init__(name="lease-keeper", daemon=True)
        self.client = client
        self.queue_url = queue_url
        self.registry = registry
        self.cond = threading.Condition()
        self.lease = None
        self.backoff = Backoff(config.RETRY_BASE, config.RETRY_CAP)

    def hold(self, lease):
        with self.cond:
            self.lease = lease
            self.cond.notify_all()

    def drop(self, lease):
        with self.cond:
            if self.lease is lease:
                self.lease = None

    def run(self):
        while True:
            try:
                self._step()
            except Exception:
                log.exception("lease keeper error")
                time.sleep(1.0)

    def _step(self):
        with self.cond:
            lease = self.lease
            if lease is None or lease.closed or lease.lost:
                self.cond.wait(1.0)
                return
            due_in = lease.deadline - config.RENEW_BELOW - time.monotonic()
            if due_in > 0:
                self.cond.wait(min(due_in, 1.0))
                return
        if self._renew(lease):
            self.backoff.reset()
        else:
            self.backoff.sleep()

    def _renew(self, lease):
        with lease.io:
            if lease.closed or lease.lost:
                return True
            sent_mono, sent_wall = time.monotonic(), time.time()
            try:
                self.client.change_message_visibility(
                    QueueUrl=self.queue_url,
                    ReceiptHandle=lease.receipt_handle,
                    VisibilityTimeout=config.LEASE_VISIBILITY,
                )
            except Exception as exc:
                if handle_gone(exc):
                    lease.lost = True
                    log.warning("lost the lease on message %s: %s", lease.message_id, describe(exc))
                    return True
                log.warning("could not renew the lease on message %s: %s", lease.message_id, describe(exc))
                return False
            lease.deadline = sent_mono + config.LEASE_VISIBILITY
            lease.expires_wall = sent_wall + config.LEASE_VISIBILITY
        self.registry.renewed(lease)
        return True


class LeaseRegistry:
    def __init__(self, queue_url, endpoint_url):
        self.queue_url = queue_url
        key = hashlib.sha256(f"{endpoint_url}|{queue_url}".encode()).hexdigest()[:16]
        self.dir = os.path.join(tempfile.gettempdir(), f"order-worker-leases-{key}")
        self.lock = threading.Lock()
        self.fd = None
        self.path = None
        self.current_id = None
        try:
            os.makedirs(self.dir, mode=0o700, exist_ok=True)
            name = uuid.uuid4().hex
            tmp = os.path.join(self.dir, f"{name}.tmp")
            fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                path = os.path.join(self.dir, f"{name}.lease")
                # Published only once locked, so a scanner never mistakes it for an orphan.
                os.rename(tmp, path)
            except BaseException:
                os.close(fd)
                raise
            self.fd, self.path = fd, path
        except OSError as exc:
            log.warning("lease registry disabled (%s); dead workers' messages will wait for their lease to expire", exc)

    # ---------------------------------------------------------------- own file

    def _write(self, record):
        if self.fd is None:
            return
        data = (json.dumps(record, separators=(",", ":")) + "\n").encode()
        try:
            os.pwrite(self.fd, data, 0)
            os.ftruncate(self.fd, len(data))
        except OSError as exc:
            log.warning("could not update the lease registry: %s", exc)

    def _record(self, lease):
        return {
            "queue_url": self.queue_url,
            "receipt_handle": lease.receipt_handle,
            "message_id": lease.message_id,
            "expires_at": lease.expires_wall,
        }

    def hold(self, lease):
        with self.lock:
            self.current_id = lease.message_id
            self._write(self._record(lease))

    def renewed(self, lease):
        with self.lock:
            if self.current_id == lease.message_id:
                self._write(self._record(lease))

    def clear(self, lease):
        with self.lock:
            if self.current_id == lease.message_id:
                self.current_id = None
                self._write({})

    def close(self, remove):
        """At exit. Keep the file (unlocked once we are gone) if it still names a message
        we could not hand back, so a sibling hands it back later."""
        with self.lock:
            if self.fd is None:
                return
            if remove:
                try:
                    os.unlink(self.path)
                except OSError:
                    pass
            try:
                os.close(self.fd)
            except OSError:
                pass
            self.fd = None

    # ---------------------------------------------------------------- orphans

    def recover_orphans(self, release):
        """Hand back messages held by dead workers. `release(handle, message_id)` returns
        True once the message is handed back (or no longer needs it)."""
        if self.fd is None:
            return
        try:
            names = os.listdir(self.dir)
        except OSError:
            return
        for name in names:
            is_tmp = name.endswith(".tmp")
            if not (is_tmp or name.endswith(".lease")):
                continue
            path = os.path.join(self.dir, name)
            if path == self.path:
                continue
            try:
                fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW)
            except OSError:
                continue
            try:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    continue  # its owner is alive
                st = os.fstat(fd)
                if st.st_nlink == 0:
                    continue  # already dealt with by another worker
                now = time.time()
                if is_tmp:
                    # A worker that died while creating its file.
                    if now - st.st_mtime > 60:
                        os.unlink(path)
                    continue
                record = _read_record(fd)
                handle = record.get("receipt_handle")
                try:
                    expires_at = float(record.get("expires_at", 0))
                except (TypeError, ValueError):
                    expires_at = 0.0
                done = True
                # Only while its lease (as last confirmed, so conservatively early) is
                # running: after that SQS has made it visible again by itself.
                if (
                    isinstance(handle, str)
                    and handle
                    and record.get("queue_url") == self.queue_url
                    and expires_at > now + 1
                ):
                    done = release(handle, str(record.get("message_id", "?")))
                if done:
                    os.unlink(path)
            except Exception as exc:
                log.warning("lease registry scan: %s", exc)
            finally:
                os.close(fd)


def _read_record(fd):
    try:
        raw = os.pread(fd, 65536, 0).split(b"\n", 1)[0]
        record = json.loads(raw) if raw else {}
        return record if isinstance(record, dict) else {}
    except (OSError, ValueError):
        return {}
