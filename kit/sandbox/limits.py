"""Resource limits of confined processes: so a fork bomb, a disk filler or a memory hog fails
the solution, not the machine.

Per process (setrlimit, inherited by everything it starts): address space, open files,
file size, and processes per user (each workload has a user of its own, so this counts only
its own). Per group (a cgroup, where the kit can make one: kit/sandbox/cgroup.py): memory,
tasks and CPU of everything in the sandbox together. Writable temp space is a tmpfs of a
fixed size, charged to the group's memory.
"""

from __future__ import annotations

import contextlib
import os
import resource
from dataclasses import dataclass

MiB = 1024 * 1024
GiB = 1024 * MiB


@dataclass(frozen=True)
class Limits:
    """What one role's processes may use; None leaves a limit as the kit's own."""

    address_space: int | None  # bytes per process (RLIMIT_AS)
    processes: int  # tasks per user (RLIMIT_NPROC) and per group (pids cgroup)
    open_files: int  # per process (RLIMIT_NOFILE)
    file_size: int  # bytes per file written (RLIMIT_FSIZE): beyond it, SIGXFSZ / EFBIG
    memory: int  # bytes for the whole group (memory cgroup)
    cpus: float | None  # cores for the whole group (cpu cgroup quota)
    tmp_size: int  # bytes of the private /tmp (and of the workspace, where there is one)
    nice: int = 0  # added to the kit's niceness: >0 lets the kit's own threads come first

    def rlimits(self) -> list[tuple[int, int]]:
        """(resource, limit) pairs for setrlimit, soft = hard."""
        pairs = [(resource.RLIMIT_NPROC, self.processes),
                 (resource.RLIMIT_NOFILE, self.open_files),
                 (resource.RLIMIT_FSIZE, self.file_size),
                 (resource.RLIMIT_CORE, 0)]
        if self.address_space is not None:
            pairs.append((resource.RLIMIT_AS, self.address_space))
        return pairs

    def describe(self) -> dict[str, int | float | None]:
        """The limits as plain data, for the run's confinement record."""
        return {"address_space": self.address_space, "processes": self.processes,
                "open_files": self.open_files, "file_size": self.file_size,
                "memory": self.memory, "cpus": self.cpus, "tmp_size": self.tmp_size,
                "nice": self.nice}


# The solution's workers (and any other process it supplies): a Python worker with boto3
# and psycopg maps ~300 MB and holds ~60 MB; three of them and their temp files fit well.
WORKLOAD = Limits(address_space=2 * GiB, processes=256, open_files=1024, file_size=256 * MiB,
                  memory=2 * GiB, cpus=1.0, tmp_size=256 * MiB, nice=10)
# Terraform and the providers it starts: Go reserves address space it never uses, so only
# the group's memory bounds them. Its writes (state, lock file) are small.
DEPLOY = Limits(address_space=None, processes=4096, open_files=8192, file_size=1 * GiB,
                memory=4 * GiB, cpus=None, tmp_size=256 * MiB)


def apply(limits: Limits, own_user: bool) -> None:
    """In a child before exec: lower this process's limits (never raises them). Without a
    user of its own, RLIMIT_NPROC would count the kit's user's processes: it is left."""
    for kind, wanted in limits.rlimits():
        if kind == resource.RLIMIT_NPROC and not own_user:
            continue
        soft, hard = resource.getrlimit(kind)
        value = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(kind, (value, value))
    if limits.nice:
        os.nice(limits.nice)


def raise_own_open_files() -> int:
    """At the kit's start: its soft RLIMIT_NOFILE up to its hard limit (the new soft one).

    The kit holds descriptors for every run's services, relays and gateway connections; a
    soft limit of 1024 (a common default) would let the workers' connections, each within
    its own allowance, exhaust it ("Too many open files"). Confined processes get their
    own limits (`apply`), so this raises nothing of theirs."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:  # the kernel caps it at fs.nr_open
        hard = int(open("/proc/sys/fs/nr_open").read())  # noqa: SIM115 - tiny, read once
    if hard > soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]
