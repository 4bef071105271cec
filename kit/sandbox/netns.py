"""A private network namespace for the solution's workers: inside it, the only open ports are
the contract's (the SQS and database proxies); the emulator, its admin API, PostgreSQL
itself, Toxiproxy's API and the kit's gateway are out of reach.

How: a short-lived thread unshares its network namespace (namespaces are per thread),
brings its loopback up and opens the listening sockets there; a file descriptor keeps the
namespace alive after the thread ends, and workers enter it before exec (setns). The kit
relays each accepted connection to the same port on the host's loopback (Toxiproxy), so
all traffic stays on loopback interfaces. Disabling a port closes its listener and cuts
its connections, as Toxiproxy does, so a worker sees the same refusal either way.

Each relayed connection costs the kit two descriptors and two threads here (and one of
each in the gateway behind Toxiproxy), so the namespace relays at most `limit` open
connections at once, on all ports together: the run gives it `PER_WORKER` per worker it
starts (bind.py), and a connection beyond it is closed at once, unrelayed. The check is a
counter: finding which worker holds a connection takes a scan of /proc (milliseconds), too
dear to pay on every accept of a worker that connects in a loop. So the workers of one run
share their allowance: a worker that hoards connections starves its own siblings (the
solution's own doing, judged as such), never the kit, another run or the producer. A
golden worker holds a dozen (one boto3 pool of 10, a database connection or two).
Refusals are reported to `on_refused` (the run records them as `connection_refused` ops,
naming the worker whose process holds the refused connection: that one scan is paid per
report only): the first `REPORT_FIRST`, then every power of two, so a worker that retries
in a loop cannot grow the history without bound; each op carries the total so far.

Written here, not taken from a library: Python 3.11 has no os.unshare/os.setns (3.12 has),
and the maintained namespace tools (pyroute2, nsenter) start processes or speak netlink,
where this needs two libc calls and one ioctl. Needs root (CAP_SYS_ADMIN); without it,
`WorkerNetwork.create` returns None and the run records that workers were not confined.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import logging
import os
import queue
import signal
import socket
import struct
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from kit.sandbox import sockets

CLONE_NEWNET = 0x40000000
_SIOCGIFFLAGS, _SIOCSIFFLAGS = 0x8913, 0x8914
_IFF_UP = 0x1
_PR_CAPBSET_DROP, _PR_SET_NO_NEW_PRIVS = 24, 38
_LAST_CAP = int(Path("/proc/sys/kernel/cap_last_cap").read_text())
_CHUNK = 65536
PER_WORKER = 64  # open connections per worker the run starts, all relayed ports together
REPORT_FIRST = 20
# (worker, port, refused so far, the cap): a connection over the cap was refused.
OnRefused = Callable[[str, int, int, int], None]
log = logging.getLogger(__name__)
_libc = ctypes.CDLL("libc.so.6", use_errno=True)
T = TypeVar("T")


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _in_thread(action: Callable[[], T]) -> T:
    """Run `action` in a thread of its own, whose namespace changes die with it."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="netns") as pool:
        return pool.submit(action).result()


def _loopback_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        ifreq = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(sock, _SIOCGIFFLAGS, ifreq))[1]
        fcntl.ioctl(sock, _SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | _IFF_UP))


def _listen(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    # Room for a burst: connections over the relay's cap are refused from the queue
    # quickly, and one dropped SYN costs a worker a second or more.
    sock.listen(1024)
    return sock


class WorkerNetwork:
    """The workers' namespace, its listeners and the relays to the host's loopback."""

    def __init__(self, ns_fd: int, ports: list[int], limit: int = PER_WORKER) -> None:
        self.ns_fd = ns_fd
        self.limit = limit
        # The run sets these: a worker's name from its sandbox's pid, and the recorder.
        self.name_of: Callable[[int], str | None] = lambda pid: None
        self.on_refused: OnRefused = lambda worker, port, refused, limit: None
        self._lock = threading.Lock()
        self._listeners: dict[int, socket.socket] = {}
        self._conns: dict[int, set[socket.socket]] = {port: set() for port in ports}
        self._open = 0  # connections relayed (or being set up) now
        self._refused = 0  # connections refused so far
        self._reports: queue.SimpleQueue[tuple[int, socket.socket, int, int] | None] = \
            queue.SimpleQueue()
        self._reporter = threading.Thread(target=self._report, daemon=True,
                                          name="relay-refusals")
        self._reporter.start()
        self._closed = False
        for port in ports:
            self.set_enabled(port, True)

    @classmethod
    def create(cls, ports: list[int], limit: int = PER_WORKER) -> WorkerNetwork | None:
        """A namespace relaying `ports` (at most `limit` open connections at once); None
        where the machine does not allow one."""
        def make() -> int:
            _check(_libc.unshare(CLONE_NEWNET), "unshare(CLONE_NEWNET)")
            _loopback_up()
            return os.open("/proc/thread-self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
        try:
            fd = _in_thread(make)
        except OSError:
            return None
        return cls(fd, ports, limit)

    def join(self) -> None:
        """Move this thread into the namespace (a sandbox's bwrap, before exec: its init
        drops every capability before the command runs)."""
        _check(_libc.setns(self.ns_fd, CLONE_NEWNET), "setns")

    def enter(self) -> None:
        """In a worker, before exec: move into the namespace, for good."""
        self.join()
        # With no capability left (bounding set emptied, so exec grants root none), not even
        # a root worker can setns back out or reconfigure the namespace's network.
        for cap in range(_LAST_CAP + 1):
            _libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)
        _check(_libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(NO_NEW_PRIVS)")

    def members(self) -> list[int]:
        """Processes inside the namespace (workers and anything they left running)."""
        ino = os.fstat(self.ns_fd).st_ino
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                with contextlib.suppress(OSError):
                    if os.stat(f"/proc/{entry}/ns/net").st_ino == ino:
                        found.append(int(entry))
        return found

    def in_namespace(self, action: Callable[[], T]) -> T:
        """Run `action` in a thread of the namespace (it ends with `action`)."""
        def inside() -> T:
            self.join()  # this thread only: it ends with `action`
            return action()
        return _in_thread(inside)

    def set_enabled(self, port: int, enabled: bool) -> None:
        """Open `port` in the namespace, or refuse it and cut its connections."""
        with self._lock:
            if self._closed or enabled == (port in self._listeners):
                return
            if enabled:
                listener = self.in_namespace(lambda: _listen(port))
                self._listeners[port] = listener
                threading.Thread(target=self._accept, args=(port, listener), daemon=True,
                                 name=f"relay-{port}").start()
                return
            listener = self._listeners.pop(port)
            cut = list(self._conns[port])
        _shut(listener)
        for conn in cut:
            _shut(conn)

    def owner(self, port: int, peer_port: int) -> int:
        """The pid of the worker sandbox holding the client end of a connection accepted on
        `port` from `peer_port` (0 when it cannot be found: gone already, say)."""
        ino = os.fstat(self.ns_fd).st_ino
        members = self.members()

        def member(pid: int) -> bool:
            with contextlib.suppress(OSError):
                return os.stat(f"/proc/{pid}/ns/net").st_ino == ino
            return False
        tables = []
        for name in ("tcp", "tcp6"):
            with contextlib.suppress(OSError, IndexError):
                tables.append(Path(f"/proc/{members[0]}/net/{name}").read_text())
        inode = sockets.client_inode(tables, port, peer_port)
        pid = sockets.holder(inode, members) if inode else None
        return sockets.outermost(pid, member) if pid else 0

    def _admit(self, port: int, client: socket.socket, peer_port: int) -> bool:
        """Count a new connection in, or refuse it (and report it) over the limit."""
        with self._lock:
            if self._open < self.limit:
                self._open += 1
                return True
            self._refused += 1
            refused = self._refused
        if refused <= REPORT_FIRST or refused & (refused - 1) == 0:
            # Naming the worker scans /proc: off the accept loop, which must stay quick.
            # The reporter closes the connection once it has found who holds it.
            self._reports.put((port, client, peer_port, refused))
        else:
            _shut(client)
        return False

    def _report(self) -> None:
        while (item := self._reports.get()) is not None:
            port, client, peer_port, refused = item
            try:
                owner = self.owner(port, peer_port)
                self.on_refused(self.name_of(owner) or f"pid {owner}", port, refused,
                                self.limit)
            except Exception:  # noqa: BLE001 - one lost report must not stop the others
                log.exception("reporting a refused connection on port %d", port)
            finally:
                _shut(client)

    def _release(self) -> None:
        with self._lock:
            self._open -= 1

    def _accept(self, port: int, listener: socket.socket) -> None:
        while True:
            try:
                client, peer = listener.accept()
            except OSError:
                return  # the listener was closed: disabled or torn down
            if not self._admit(port, client, peer[1]):
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", port), timeout=5)
                upstream.settimeout(None)
            except OSError:
                self._release()
                _shut(client)  # Toxiproxy refused it: so does the namespace
                continue
            with self._lock:
                gone = port not in self._listeners
                if not gone:
                    self._conns[port] |= {client, upstream}
            if gone:
                self._release()
                _shut(client)
                _shut(upstream)
                continue
            threading.Thread(target=self._relay, args=(port, client, upstream),
                             daemon=True).start()

    def _relay(self, port: int, client: socket.socket, upstream: socket.socket) -> None:
        """Copy both ways until both ends are done, then close both."""
        back = threading.Thread(target=_pump, args=(upstream, client), daemon=True)
        back.start()
        _pump(client, upstream)
        back.join()
        with self._lock:
            self._conns[port] -= {client, upstream}
        self._release()
        _shut(client)
        _shut(upstream)

    def close(self) -> None:
        """Kill what still runs inside (a worker's escaped daemon, say), close every
        listener and connection, and release the namespace."""
        for pid in self.members():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self._reports.put(None)  # the reporter ends after the reports already queued
        self._reporter.join(timeout=10)
        with self._lock:
            self._closed = True
            sockets = [*self._listeners.values(), *(c for s in self._conns.values() for c in s)]
            self._listeners.clear()
        for sock in sockets:
            _shut(sock)
        with contextlib.suppress(OSError):
            os.close(self.ns_fd)

    def __enter__(self) -> WorkerNetwork:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _pump(src: socket.socket, dst: socket.socket) -> None:
    """Copy src to dst until src ends (then half-close dst); on an error, cut both."""
    try:
        while data := src.recv(_CHUNK):
            dst.sendall(data)
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        _shut(src)
        _shut(dst)


def _shut(sock: socket.socket) -> None:
    """Wake any thread blocked on `sock`, then close it."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()
