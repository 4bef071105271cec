"""A control group for one confined group of processes: their memory, tasks and CPU together.

cgroup v1 controllers (memory, pids, cpu), each made under the kit's own cgroup of that
controller, so whatever limits the machine puts on the kit still hold. A group is named
after the kit's pid; a group whose kit is gone (killed before it could clean up) is swept
when the next one is made. Where the controllers are not mounted or not writable (not root,
cgroup v2 only), `Group.create` returns None and per-process rlimits are all there is.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import time
from pathlib import Path

from kit.sandbox.limits import Limits

CONTROLLERS = ("memory", "pids", "cpu")
REQUIRED = ("memory", "pids")
EMPTY_TIMEOUT = 5.0
_counter = itertools.count()


def _mounts() -> dict[str, Path]:
    """cgroup v1 controller -> where its hierarchy is mounted."""
    found: dict[str, Path] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mounts").read_text().splitlines():
            _, where, kind, options, *_ = line.split()
            if kind == "cgroup":
                for option in options.split(","):
                    if option in CONTROLLERS:
                        found[option] = Path(where)
    return found


def _own_paths() -> dict[str, str]:
    """cgroup v1 controller -> the kit's cgroup in that hierarchy."""
    paths: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, names, path = line.split(":", 2)
        for name in names.split(","):
            paths[name] = path
    return paths


def unavailable() -> str | None:
    """Why no group can be made here (None: groups work)."""
    if os.geteuid() != 0:
        return "only root may make cgroups here"
    mounts = _mounts()
    missing = [c for c in REQUIRED if c not in mounts]
    if missing:
        return (f"no cgroup v1 {'/'.join(missing)} controller is mounted (cgroup v2 is not "
                "supported yet)")
    return None


class Group:
    """One cgroup per controller; `attach_fds` lets a child join it before exec."""

    def __init__(self, dirs: dict[str, Path]) -> None:
        self.dirs = dirs

    @classmethod
    def create(cls, limits: Limits) -> Group | None:
        """A new group holding `limits`; None where the machine allows none."""
        if unavailable():
            return None
        mounts, own = _mounts(), _own_paths()
        name = f"kit-{os.getpid()}-{next(_counter)}"
        group = cls({})
        try:
            for controller, mount in mounts.items():
                parent = mount / own.get(controller, "/").lstrip("/")
                _sweep(parent)
                path = parent / name
                path.mkdir()
                group.dirs[controller] = path
            group._limit(limits)
        except OSError:
            group.close()
            return None
        return group

    def _limit(self, limits: Limits) -> None:
        memory = self.dirs["memory"]
        (memory / "memory.limit_in_bytes").write_text(str(limits.memory))
        with contextlib.suppress(OSError):  # only where swap accounting is on
            (memory / "memory.memsw.limit_in_bytes").write_text(str(limits.memory))
        (self.dirs["pids"] / "pids.max").write_text(str(limits.processes))
        cpu = self.dirs.get("cpu")
        if cpu is not None and limits.cpus is not None:
            period = int((cpu / "cpu.cfs_period_us").read_text())
            (cpu / "cpu.cfs_quota_us").write_text(str(int(limits.cpus * period)))

    def attach_fds(self) -> list[int]:
        """Open cgroup.procs of each controller: a child writes b"0" to each to join."""
        return [os.open(d / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)
                for d in self.dirs.values()]

    def refused_forks(self) -> int:
        """How many forks in the group its task limit refused so far."""
        with contextlib.suppress(OSError, ValueError):
            for line in (self.dirs["pids"] / "pids.events").read_text().splitlines():
                key, value = line.split()
                if key == "max":
                    return int(value)
        return 0

    def close(self) -> None:
        """Kill whatever is still inside, then remove the group."""
        _remove(list(self.dirs.values()))
        self.dirs.clear()


def _remove(dirs: list[Path]) -> None:
    deadline = time.monotonic() + EMPTY_TIMEOUT
    for path in dirs:
        while path.exists():
            with contextlib.suppress(OSError):
                for pid in (path / "cgroup.procs").read_text().split():
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(int(pid), signal.SIGKILL)
                path.rmdir()
                break
            if time.monotonic() > deadline:
                break  # swept by the next group this machine makes
            time.sleep(0.02)


def _sweep(parent: Path) -> None:
    """Remove the groups of kits that are gone."""
    for path in parent.glob("kit-*-*"):
        pid = path.name.split("-")[1]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            _remove([path])
