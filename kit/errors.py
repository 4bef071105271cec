"""One error tree for the kit: every message says what happened, the values, and the fix.

`KitError` subclasses are environment problems (outcome `error`); `SolutionError` subclasses
are the solution's own fault (outcome `fail`). Nothing else should reach the user as a
traceback.
"""

from __future__ import annotations

import errno


class KitError(Exception):
    """The kit or its environment broke: never blamed on the solution."""

    outcome = "error"


class ToolchainError(KitError):
    """A toolchain piece (terraform, provider mirror, toxiproxy, postgres) is missing or broken."""


class SandboxError(KitError):
    """A sandbox service did not start, was not ready in time, or died."""


class InputError(KitError):
    """Bad user input: a scenario file, a solution directory, a flag. Names file and field."""


class SolutionError(Exception):
    """The solution under test is at fault (invalid HCL, apply error): outcome `fail`."""

    outcome = "fail"


def describe_os_error(exc: OSError, places: str = "") -> str:
    """'<file>: <reason>' for an OS error the kit hit (a full disk, a permission);
    `places` says where the kit was writing when the error names no file."""
    if exc.filename:
        return f"{exc.filename}: {exc.strerror or exc}"
    if exc.errno in (errno.EADDRINUSE, errno.EADDRNOTAVAIL):
        # A connection found no local port: the servers' ports are picked below the
        # ephemeral range (kit/sandbox/ports.py), so it is the clients' range that ran out.
        return (f"no free loopback port for a connection ({exc.strerror or exc}): the "
                "machine's ephemeral ports (net.ipv4.ip_local_port_range) are exhausted; "
                "stop what holds them or run fewer jobs")
    return f"{exc.strerror or exc}" + (f" (writing under {places})" if places else "")
