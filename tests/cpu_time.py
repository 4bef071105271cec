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
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kit.evaluate.runcost import cpu_seconds

ENV = "KIT_TEST_CPU"
TOP = 25


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """Append the test's CPU and wall seconds to $KIT_TEST_CPU."""
    out = os.environ.get(ENV)
    if not out:
        yield
        return
    cpu, wall = cpu_seconds(), time.monotonic()
    yield
    line = f"{cpu_seconds() - cpu:.2f} {time.monotonic() - wall:.1f} {item.nodeid}\n"
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
