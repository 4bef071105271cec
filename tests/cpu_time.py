"""CPU seconds per test, with KIT_TEST_CPU=<file>: user + sys of the test's process and
every descendant (terraform, the provider, moto, PostgreSQL, the workers, ...).

The suite's cost is counted in CPU seconds, which another tenant's load does not change as
it changes wall time. Each test (setup, call and teardown, so a module fixture counts
where it is built) appends `<cpu-seconds> <wall-seconds> <nodeid>` to the file, xdist
workers alike; the session's end prints the top consumers. A process that outlives its
test (a sandbox or moto zygote a module reuses) counts for each test what it spent during
it; a descendant reaped by another descendant counts in its reaper's children times.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

ENV = "KIT_TEST_CPU"
TOP = 25


def tree_cpu() -> float:
    """CPU seconds so far of this process, its reaped children and its live descendants."""
    total = 0.0
    for usage in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        own = resource.getrusage(usage)
        total += own.ru_utime + own.ru_stime
    for proc in psutil.Process().children(recursive=True):
        try:
            t = proc.cpu_times()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue  # ended meanwhile: its parent's children times have it
        total += t.user + t.system + t.children_user + t.children_system
    return total


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """Append the test's CPU and wall seconds to $KIT_TEST_CPU."""
    out = os.environ.get(ENV)
    if not out:
        yield
        return
    cpu, wall = tree_cpu(), time.monotonic()
    yield
    line = f"{tree_cpu() - cpu:.2f} {time.monotonic() - wall:.1f} {item.nodeid}\n"
    with open(out, "a") as file:  # one short append per line: xdist workers do not interleave
        file.write(line)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the tests that spent the most CPU, and the total, from $KIT_TEST_CPU."""
    out = os.environ.get(ENV)
    if not out or os.environ.get("PYTEST_XDIST_WORKER") or not Path(out).exists():
        return
    rows = []
    for line in Path(out).read_text().splitlines():
        cpu, wall, nodeid = line.split(" ", 2)
        rows.append((float(cpu), float(wall), nodeid))
    rows.sort(reverse=True)
    total = sum(cpu for cpu, _, _ in rows)
    terminalreporter.section(f"CPU seconds per test ({ENV}={out}): {total:.0f} in "
                             f"{len(rows)} tests so far, the top {TOP}")
    for cpu, wall, nodeid in rows[:TOP]:
        terminalreporter.write_line(f"{cpu:8.1f} CPU-s {wall:7.1f} s  {nodeid}")
