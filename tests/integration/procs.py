"""Process, port and temp-dir inspection for leak tests."""

from __future__ import annotations

import os
from pathlib import Path


def alive(pid: int) -> bool:
    """Whether a pid exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def group_members(pgid: int) -> list[int]:
    """Live processes whose process group is `pgid`."""
    members = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                members.append(int(entry))
    return members


def sandbox_temp_dirs() -> set[str]:
    """Sandbox temp dirs currently present."""
    import tempfile

    return {p.name for p in Path(tempfile.gettempdir()).glob("kit-*")}


def eventually(condition, timeout: float = 5.0) -> bool:  # noqa: ANN001
    """Poll `condition` until it holds or `timeout` passes (signal delivery is asynchronous)."""
    import time

    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def living_under(root: Path) -> list[str]:
    """Live processes whose working directory or command line is under `root`."""
    import psutil

    found = []
    for proc in psutil.process_iter(["pid", "name", "cwd", "cmdline", "status"]):
        info = proc.info
        if info["status"] == psutil.STATUS_ZOMBIE:
            continue
        places = [info["cwd"] or "", *(info["cmdline"] or [])]
        if any(place.startswith(str(root)) for place in places):
            found.append(f"{info['pid']} {info['name']} cwd={info['cwd']}")
    return found


def tree(pid: int) -> list[int]:
    """`pid` and its live descendants."""
    import psutil

    try:
        root = psutil.Process(pid)
        return [pid, *(child.pid for child in root.children(recursive=True))]
    except psutil.NoSuchProcess:
        return []


def listening_ports(pids: list[int]) -> set[int]:
    """TCP ports the processes `pids` listen on."""
    import psutil

    wanted = set(pids)
    return {conn.laddr.port for conn in psutil.net_connections(kind="tcp")
            if conn.status == psutil.CONN_LISTEN and conn.pid in wanted}


def kit_cgroups() -> set[str]:
    """cgroups this process made (kit/sandbox/cgroup.py names them kit-<pid>-<n>)."""
    found: set[str] = set()
    for line in Path("/proc/self/mounts").read_text().splitlines():
        _, where, kind, *_ = line.split()
        if kind == "cgroup":
            found |= {str(p) for p in Path(where).rglob(f"kit-{os.getpid()}-*")}
    return found


def held_by_us(port: int, since: float) -> list[str]:
    """Live processes listening on TCP `port` that are a test's own: this process or its
    descendants, or orphans started after `since` (a service that outlived its kit is
    re-parented to init). A listener elsewhere (under another worker's or user's process
    tree) took the freed port: the parallel phase's tests share the loopback range."""
    import psutil

    me, found = os.getpid(), []
    for conn in psutil.net_connections(kind="tcp"):
        if conn.status != psutil.CONN_LISTEN or conn.laddr.port != port:
            continue
        if conn.pid is None:  # not ours to see: counted, so that a check never passes blind
            found.append(f"? (port {port}, owner not visible)")
            continue
        try:
            proc = psutil.Process(conn.pid)
            chain = [proc, *proc.parents()]
            # psutil derives start times from the boot time in whole seconds: 1 s of slack.
            orphan = proc.ppid() == 1 and proc.create_time() >= since - 1.0
        except psutil.NoSuchProcess:
            continue
        if orphan or me in {p.pid for p in chain}:
            found.append(f"{proc.pid} {proc.name()} (port {port})")
    return found
