"""A run's story for its timeline plot: the series, the fault's window, the marks (worker
starts and kills, the incident, the runbook's calls, the data plane's events), the moment
of recovery and the RTO line, read from the run's history and its verdicts. Pure: nothing
here runs or waits.

Two shapes, picked by what the history holds. A queue run (messages sent, effects
recorded) plots both as running totals; its recovery is the moment the effects caught up
with the fault: every valid message sent by the fault's end had taken effect; its RTO line
is recovery.within_rto's deadline (the reference time + rto_seconds). A drill (the
application's writes) plots acknowledged and failed writes per second; its recovery is
recovery.rto's first acknowledged write after the incident, its RTO line the incident +
the objective.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kit.checks.sent import first_recorded, sent
from kit.history import History, Op

BIN_SECONDS = 1.0  # a drill's writes are counted per second
# Marks drawn per lane: a runbook (the solution's code) may call the API thousands of times;
# the page stays small and the rest are counted in a note (the events list has them all).
MAX_MARKS = 300


@dataclass(frozen=True)
class Series:
    """One line of the plot: (time, value) points in time order."""

    name: str
    css: str  # the line's class suffix: series-<css>
    points: list[tuple[float, float]]
    step: bool = True  # a running total is drawn as steps, a rate as a line


@dataclass(frozen=True)
class Mark:
    """One event on a lane under the plot (or, with lane "", a line across it)."""

    time: float
    lane: str
    kind: str  # the mark's class: worker-start, worker-kill, worker-exit, runbook-call, ...
    label: str


@dataclass(frozen=True)
class Line:
    """A vertical line across the plot: the incident, the recovery, the RTO."""

    time: float
    kind: str  # incident | recovery | rto-line
    label: str


@dataclass(frozen=True)
class Window:
    """The fault's window: from its injection to its healing (or the run's end)."""

    start: float
    end: float
    label: str
    healed: bool


@dataclass
class Story:
    """What the plot of one run shows."""

    shape: str  # queue | drill
    end: float
    y_label: str
    start: float = 0.0  # the axis starts here: the workload's start (the deploy is not drawn)
    series: list[Series] = field(default_factory=list)
    window: Window | None = None
    phases: list[tuple[float, float, str]] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the plot cannot show, said

    @property
    def lanes(self) -> list[str]:
        """The lanes under the plot, in order of first use."""
        return list(dict.fromkeys(m.lane for m in self.marks if m.lane))


def story(history: History, invariants: Mapping[str, Any]) -> Story:
    """The story of one run from its history and its report's `invariants`."""
    ops = list(history.ops)
    end = max((op.time for op in ops), default=1.0)
    drill = any(op.kind == "write" for op in ops)
    out = Story("drill" if drill else "queue", max(end, 1.0),
                "writes per second" if drill else "messages (running total)")
    out.phases = _phases(ops, out.end)
    out.window = _window(history, out.end, out.notes)
    out.marks = _capped(_workers(history) + _drill_marks(ops), out.notes)
    if drill:
        _drill(out, history, invariants)
    else:
        _queue(out, history, invariants)
    # The axis reaches every line: an RTO deadline past the run's end is drawn where it is.
    out.end = max([out.end, *(line.time * 1.02 for line in out.lines)])
    out.start = _start(out)
    return out


def _start(out: Story) -> float:
    """Where the axis starts: a little before the workload (before it there is only the
    deploy, which takes from seconds to a minute and would squeeze the story), said."""
    workload = [start for start, _, name in out.phases if name == "workload"]
    if not workload or workload[0] < 2.0:
        return 0.0
    out.notes.append(f"the plot starts at {workload[0] - 1:.1f} s: before the workload "
                     f"(started at {workload[0]:.1f} s) the run deployed the solution")
    return workload[0] - 1.0


def _phases(ops: list[Op], end: float) -> list[tuple[float, float, str]]:
    starts = [(op.time, op.value.name) for op in ops if op.kind == "phase" and op.ok]
    return [(t, starts[i + 1][0] if i + 1 < len(starts) else end, name)
            for i, (t, name) in enumerate(starts)]


def _window(history: History, end: float, notes: list[str]) -> Window | None:
    """The fault's window: its start to its healing (to the end, said, if never healed)."""
    starts = [op for op in history.of_kind("fault_start") if op.value.fault != "none"]
    for op in history.of_kind("fault_not_injected"):
        notes.append(f"fault {op.value.fault} not injected: {op.value.reason}")
    if not starts:
        return None
    first = starts[0]
    ends = [op for op in history.of_kind("fault_end") if op.index > first.index]
    if not ends:
        notes.append(f"fault {first.value.fault} was never healed")
        return Window(first.time, end, f"{first.value.fault} (never healed)", False)
    return Window(first.time, ends[-1].time, first.value.fault, True)


def _workers(history: History) -> list[Mark]:
    """Worker starts, and their ends: killed by a signal, or an exit with its code."""
    marks = [Mark(op.time, "workers", "worker-start", f"{op.value.worker} started")
             for op in history.of_kind("worker_start")]
    for op in history.of_kind("worker_exit"):
        v = op.value
        if v.signal:
            marks.append(Mark(op.time, "workers", "worker-kill",
                              f"{v.worker} killed ({v.signal})"))
        else:
            why = f"refused: {v.refused}" if v.refused else f"code {v.code}"
            marks.append(Mark(op.time, "workers", "worker-exit", f"{v.worker} exited ({why})"))
    return sorted(marks, key=lambda m: m.time)


def _capped(marks: list[Mark], notes: list[str]) -> list[Mark]:
    """The first MAX_MARKS marks of each lane; how many more there were, said."""
    kept: list[Mark] = []
    drawn: dict[str, int] = {}
    left: dict[str, int] = {}
    for mark in marks:
        if drawn.get(mark.lane, 0) < MAX_MARKS:
            kept.append(mark)
            drawn[mark.lane] = drawn.get(mark.lane, 0) + 1
        else:
            left[mark.lane] = left.get(mark.lane, 0) + 1
    notes += [f"{n} more {lane} event(s) not drawn (the first {MAX_MARKS} are)"
              for lane, n in left.items()]
    return kept


def _drill_marks(ops: list[Op]) -> list[Mark]:
    """The runbook's calls and exit, and what the RDS data plane did."""
    marks: list[Mark] = []
    for op in ops:
        v = op.value
        if op.kind == "authz" and op.ok and op.process == "runbook":
            denied = "" if v.decision == "Allow" else f" DENIED ({v.decision})"
            marks.append(Mark(op.time, "runbook", "runbook-call" + ("-denied" if denied else ""),
                              f"called {v.operation or v.action}{denied}"))
        elif op.kind == "runbook_exit" and op.ok:
            how = "killed at its timeout" if v.timed_out else f"code {v.code}"
            marks.append(Mark(op.time, "runbook", "runbook-exit", f"runbook exited ({how})"))
        elif op.kind == "rds_event" and op.ok:
            marks.append(Mark(op.time, "database", "rds-event", f"{v.instance}: {v.event}"))
    return marks


def _queue(out: Story, history: History, invariants: Mapping[str, Any]) -> None:
    """Messages sent and effects recorded as running totals; recovery when caught up."""
    out.series = [
        Series("messages sent", "sent", _running([op.time for op in history.of_kind("send")])),
        Series("effects recorded", "recorded",
               _running([op.time for op in history.of_kind("recorded")]))]
    rto = invariants.get("recovery.within_rto") or {}
    reference = (rto.get("evidence") or {}).get("reference_time")
    seconds = (rto.get("params") or {}).get("rto_seconds")
    if isinstance(reference, int | float) and isinstance(seconds, int | float):
        out.lines.append(Line(reference + seconds, "rto-line",
                              f"RTO: {seconds} s after {reference:.1f} s"))
    if out.window is None or not out.window.healed:
        return
    caught, missing = _caught_up(history, out.window.end)
    if caught is None:
        out.notes.append(f"not recovered: {missing} valid message(s) sent by the fault's end "
                         "never took effect")
    else:
        out.lines.append(Line(caught, "recovery", f"caught up at {caught:.1f} s"))


def _caught_up(history: History, healed: float) -> tuple[float | None, int]:
    """When every valid message sent by `healed` had taken effect (None, and how many
    never did, if some never did)."""
    recorded = first_recorded(history)
    due = [key for key, op in sent(history).valid.items() if op.time <= healed]
    never = [key for key in due if key not in recorded]
    if never:
        return None, len(never)
    return max([healed, *(recorded[key].time for key in due)]), 0


def _drill(out: Story, history: History, invariants: Mapping[str, Any]) -> None:
    """Writes acknowledged and failed per second; the incident, the recovery, the RTO."""
    acked = [op.time for op in history.ops if op.kind == "write" and op.type == "ok"]
    failed = [op.time for op in history.ops if op.process == "app"
              and op.kind in ("write", "connect") and op.type in ("fail", "info")]
    out.series = [Series("writes acknowledged / s", "acked", _rate(acked, out.end), False),
                  Series("writes failed / s", "failed", _rate(failed, out.end), False)]
    for op in history.of_kind("incident"):
        out.lines.append(Line(op.time, "incident", f"incident reported ({op.value.fault})"))
    evidence = (invariants.get("recovery.rto") or {}).get("evidence") or {}
    at, target = evidence.get("incident_at"), evidence.get("rto_seconds")
    if isinstance(at, int | float) and isinstance(target, int | float):
        # The drill's clock: the data plane's overrun is not the solution's time.
        over = evidence.get("data_plane_overrun_seconds") or 0
        out.lines.append(Line(at + target + over, "rto-line", f"RTO: {target} s after the "
                              "incident" + (f" (+{over} s the data plane overran)" if over
                                           else "")))
    first = evidence.get("first_ack_after")
    if isinstance(first, int | float):
        took = evidence.get("recovered_in_seconds")
        out.lines.append(Line(first, "recovery", f"wrote again at {first:.1f} s"
                              + (f" (after {took} s)" if took is not None else "")))
    elif isinstance(at, int | float):
        out.notes.append("not recovered: no write was acknowledged after the incident")


def _running(times: list[float]) -> list[tuple[float, float]]:
    """A running total: one point per event, starting from zero."""
    return [(0.0, 0.0)] + [(t, float(i + 1)) for i, t in enumerate(sorted(times))]


def _rate(times: list[float], end: float) -> list[tuple[float, float]]:
    """Events per second, one point at the middle of each BIN_SECONDS bin."""
    bins = [0] * (int(end // BIN_SECONDS) + 1)
    for t in times:
        bins[min(int(t // BIN_SECONDS), len(bins) - 1)] += 1
    return [((i + 0.5) * BIN_SECONDS, n / BIN_SECONDS) for i, n in enumerate(bins)]
