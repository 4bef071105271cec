"""recovery.single_writer: after recovery moves the application to another database, the
one it left never acknowledges a write again (no split brain).

A recovery that replaces a database (a restore, a promoted replica in another Region)
leaves the old one behind, and the old one may come back writable (its zone or Region
returns). If the application is let back onto it, two databases have each acknowledged
writes the other lacks: whichever is kept, acknowledged writes are lost. The application
writes one transaction at a time, so its acknowledged writes are totally ordered; each
names the endpoint that acknowledged it, as the application's secret spelled it: one
database is one server, so `localhost:5433` and `127.0.0.1:5433` are the same database (the
data plane serves loopback only) and leaving one for the other is no switch.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from kit.checks.result import CheckResult, Params, anomaly, judged, plural
from kit.checks.writes import writes
from kit.history import History, Op

SINGLE_WRITER = "recovery.single_writer"
DEFAULTS: dict[str, Any] = {}
LOOPBACK = ("localhost", "localhost.")


def database(endpoint: str) -> str:
    """The server an endpoint names: loopback hosts as one, the port as a number."""
    host, _, port = endpoint.rpartition(":")
    host = host.strip("[]").lower()
    try:
        loopback = host in LOOPBACK or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    try:
        number = str(int(port))
    except ValueError:
        number = port
    return f"{'loopback' if loopback else host}:{number}"


def check_single_writer(history: History, p: Params) -> CheckResult:
    """recovery.single_writer: no write acknowledged by a database the application left."""
    runs = _runs(writes(history).acked)
    # Return: a run of acknowledged writes on an endpoint that an earlier run had, with a
    # run on another endpoint in between (the application left it, then wrote there again).
    returns: list[dict[str, Any]] = []
    for i, run in enumerate(runs):
        left = next((earlier for earlier in reversed(runs[:i])
                     if database(earlier[0].value.endpoint) == database(run[0].value.endpoint)),
                    None)
        if left is not None and left is not runs[i - 1]:
            returns.append({"endpoint": run[0].value.endpoint,
                            "left_at": round(left[-1].time, 3),
                            "replaced_by": runs[i - 1][0].value.endpoint,
                            "returned_at": round(run[0].time, 3), "writes": len(run),
                            "first": run[0].value.key})
    spelled: dict[str, str] = {}  # database -> its first spelling, as the evidence shows it
    for run in runs:
        spelled.setdefault(database(run[0].value.endpoint), run[0].value.endpoint)
    endpoints = list(spelled.values())
    evidence = {"endpoints": endpoints, "switches": max(len(runs) - 1, 0),
                "returns": anomaly(returns)}
    # Pass rule: no acknowledged write on an endpoint the application had left for another.
    if not returns:
        summary = (f"the application wrote through {plural(len(endpoints), 'endpoint')} in "
                   "turn and never went back to one it had left")
        return judged(SINGLE_WRITER, True, summary, evidence, p)
    first = returns[0]
    summary = (f"split brain: {plural(sum(r['writes'] for r in returns), 'write')} "
               f"acknowledged by a database the application had left ({first['endpoint']}, "
               f"left at {first['left_at']} s for {first['replaced_by']}, written again from "
               f"{first['returned_at']} s)")
    return judged(SINGLE_WRITER, False, summary, evidence, p)


def _runs(acked: list[Op]) -> list[list[Op]]:
    """The acknowledged writes cut into runs of consecutive writes on one database."""
    runs: list[list[Op]] = []
    for op in acked:
        if runs and database(runs[-1][0].value.endpoint) == database(op.value.endpoint):
            runs[-1].append(op)
        else:
            runs.append([op])
    return runs
