"""Where a command's CPU goes: user + sys of it and every descendant, by kind of process.

    .venv/bin/python bench/cpu_tree.py -- .venv/bin/kit eval order-pipeline --fault none

Samples the process tree every 20 ms and keeps each process's last CPU times; a process
that lived less than a sample is counted in its parent's reaped-children times, so the
total (the command's own rusage of its reaped children) is exact and the kinds are close.
CPU seconds, unlike wall time, do not change with another tenant's load.
"""

from __future__ import annotations

import re
import resource
import subprocess
import sys
import time
from collections import defaultdict

import psutil

# (kind, pattern over the command line), first match wins.
KINDS = (
    ("terraform provider", r"terraform-provider-"),
    ("terraform", r"(^|/)(terraform|tofu)( |$)"),
    ("moto", r"moto_(main|zygote)|moto\.server"),
    ("localstack", r"localstack"),
    ("postgres", r"postgres|initdb|pg_ctl"),
    ("toxiproxy", r"toxiproxy"),
    ("bwrap", r"^(\S*/)?bwrap"),
    ("workers", r"kit-worker|worker"),
    ("ray", r"ray|raylet|gcs_server"),
)


def kind(cmdline: str) -> str:
    """The kind of a process, from its command line."""
    for name, pattern in KINDS:
        if re.search(pattern, cmdline):
            return name
    return "other: " + cmdline[:60]


def sample(root: psutil.Process, seen: dict[int, tuple[str, float]]) -> None:
    """Record the CPU (own only) of every live descendant of root."""
    for proc in root.children(recursive=True):
        try:
            with proc.oneshot():
                times = proc.cpu_times()
                cmd = " ".join(proc.cmdline()) or proc.name()
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
        previous = seen.get(proc.pid)
        cmd = previous[0] if previous and previous[0] else cmd
        seen[proc.pid] = (cmd, times.user + times.system)


def main(argv: list[str]) -> int:
    """Run argv, print its CPU by kind of process."""
    if argv[:1] == ["--"]:
        argv = argv[1:]
    start = time.monotonic()
    child = subprocess.Popen(argv)
    root = psutil.Process(child.pid)
    seen: dict[int, tuple[str, float]] = {}
    while child.poll() is None:
        sample(psutil.Process(), seen)
        time.sleep(0.02)
    wall = time.monotonic() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = usage.ru_utime + usage.ru_stime
    by_kind: dict[str, float] = defaultdict(float)
    for pid, (cmd, cpu) in seen.items():
        by_kind["kit (the command's own process)" if pid == root.pid else kind(cmd)] += cpu
    print(f"\n{' '.join(argv)}: exit {child.returncode}, {wall:.1f} s wall, "
          f"{total:.2f} CPU-s ({usage.ru_utime:.2f} user + {usage.ru_stime:.2f} sys)")
    for name, cpu in sorted(by_kind.items(), key=lambda kv: -kv[1]):
        print(f"  {cpu:7.2f}  {name}")
    print(f"  {total - sum(by_kind.values()):7.2f}  unsampled (processes shorter than a sample)")
    return child.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
