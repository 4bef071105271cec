"""A drill's timeline from its ops: events in order, runbook calls folded, the RTO once the
application writes again after the incident."""

from __future__ import annotations

from typing import Any

from kit.history import Op, parse_op
from kit.report.timeline import Timeline, writes_per_second

_INDEX = iter(range(10**6))


def op(time: float, process: str, kind: str, type: str = "ok", **value: Any) -> Op:
    return parse_op({"index": next(_INDEX), "time": time, "process": process, "kind": kind,
                     "type": type, "value": value})


OPS = [
    op(0.1, "kit", "phase", name="workload"),
    op(1.0, "app", "write", key="t1", fields={}, endpoint="127.0.0.1:1"),
    op(2.0, "nemesis", "fault_start", fault="az_loss", detail={"instance": "db"}),
    op(2.0, "kit", "incident", fault="az_loss", detail={"description": "zone lost"}),
    op(2.1, "app", "write", "fail", key="t2", error="cut\nsecond line"),
    op(2.2, "app", "write", "fail", key="t3", error="cut"),
    op(2.5, "runbook", "authz", operation="DescribeDBInstances", decision="Allow"),
    op(3.0, "runbook", "authz", operation="DescribeDBInstances", decision="Allow"),
    op(3.1, "runbook", "authz", operation="DeleteDBInstance", decision="ImplicitDeny"),
    op(3.5, "rds", "rds_event", instance="db", event="failover_completed", reason="zone"),
    op(4.5, "app", "write", key="t4", fields={}, endpoint="127.0.0.1:1"),
    op(5.0, "kit", "runbook_exit", code=0, timed_out=False, output=[]),
]


def test_the_timeline_tells_the_drill_in_order() -> None:
    timeline = Timeline.of(OPS)
    lines = [e.line() for e in timeline.events]
    assert timeline.rto == 2.5
    assert [e.who for e in timeline.events] == [
        "kit", "fault", "kit", "app", "runbook", "runbook", "rds", "app", "kit"]
    assert "writes fail: cut" in lines[3] and "second line" not in lines[3]
    assert lines[4].endswith("called DescribeDBInstances (x2)")
    assert "called DeleteDBInstance DENIED (ImplicitDeny)" in lines[5]
    assert "db: failover completed (zone)" in lines[6]
    assert "RTO 2.5 s" in lines[7]
    assert "runbook exited (code 0)" in lines[8]


def test_writes_per_second_counts_acknowledged_writes_in_the_window() -> None:
    ops = [op(t / 10, "app", "write", key=f"k{t}", fields={}, endpoint="e") for t in range(30)]
    assert writes_per_second(ops, now=2.95) == 10
