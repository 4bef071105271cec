"""Who holds the other end of a loopback TCP connection: the process, found from the
kernel's socket tables (/proc/<pid>/net/tcp and tcp6: local and remote address, inode) and
each process's descriptors (/proc/<pid>/fd: `socket:[inode]`).

The workers' relays (kit/sandbox/netns.py) use it to count connections per worker: the
client's end of an accepted connection is the socket whose local port is the accepted
peer's port and whose remote port is the listener's, in the namespace's own tables.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable


def _port(address: str) -> int:
    # "0100007F:1F90" (IPv4) or "0000000000000000FFFF00000100007F:1F90" (IPv6): hex port.
    return int(address.rsplit(":", 1)[1], 16)


def client_inode(tables: Iterable[str], listen_port: int, peer_port: int) -> int | None:
    """The inode of the client socket (local port `peer_port`, remote port `listen_port`)
    in the text of /proc/net/tcp or tcp6 tables; None when no line matches."""
    for table in tables:
        for line in table.splitlines()[1:]:
            fields = line.split()
            if len(fields) < 10:
                continue
            with contextlib.suppress(ValueError):
                if _port(fields[1]) == peer_port and _port(fields[2]) == listen_port:
                    return int(fields[9]) or None
    return None


def holder(inode: int, pids: Iterable[int]) -> int | None:
    """The first of `pids` with a descriptor on socket `inode`."""
    target = f"socket:[{inode}]"
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                        return pid
    return None


def parent(pid: int) -> int | None:
    """The parent pid of `pid` (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            # "pid (comm) state ppid ...": comm may hold spaces and parentheses.
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def outermost(pid: int, member: Callable[[int], bool]) -> int:
    """The farthest ancestor of `pid` (itself included) still inside the group `member`
    says: for a worker's process, the worker's sandbox (its bwrap joined the namespace;
    its parent, the kit, did not), however its processes fork or re-parent inside."""
    found = pid
    while (up := parent(found)) is not None and up > 1 and member(up):
        found = up
    return found
