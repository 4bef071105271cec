"""A drill's timeline: what happened, in order, read from the history's ops (live or saved).

One line per event a person running a drill wants to see: the stages, the fault and its
healing, the incident, each call the runbook made (the gateway's records; repeated calls
folded into one line with a count), what the data plane did, when the application's writes
started failing and when it wrote again (the RTO, as it becomes known), the runbook's exit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kit.history import Op, Value


@dataclass
class Event:
    """One line of the timeline."""

    time: float
    who: str
    what: str
    count: int = 1  # repeated runbook calls folded into one line

    def line(self) -> str:
        """The event as one plain line."""
        times = f" (x{self.count})" if self.count > 1 else ""
        return f"[{self.time:7.2f} s] {self.who:<8} {self.what}{times}"


class Timeline:
    """Folds ops into events; feed it ops as they come (`add`) or all at once (`of`)."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.incident_at: float | None = None
        self.rto: float | None = None
        self.phase = ""  # the run's current phase (deploy, workload, recover, observe)
        self.fault = "none yet"  # the fault's state, as the live view shows it
        self._writing = True
        self._connected = True

    @classmethod
    def of(cls, ops: Iterable[Op]) -> Timeline:
        """The timeline of a whole history."""
        timeline = cls()
        for op in ops:
            timeline.add(op)
        return timeline

    def add(self, op: Op) -> Event | None:
        """Fold one op in; the event it added (or updated), if any."""
        kind, value, time = op.kind, op.value, op.time
        kind_type = op.type
        if kind == "write":
            return self._write(op, kind_type)
        if kind == "connect" and kind_type == "fail":
            if self._connected:
                self._connected = False
                return self._event(time, "app", "cannot reach its database: "
                                   + _first_line(value.error))
            return None
        if kind == "authz" and op.ok and op.process == "runbook":
            return self._call(time, value)
        if not op.ok:
            return None
        if kind == "phase":
            self.phase = value.name
        elif kind == "fault_start":
            self.fault = f"{value.fault}, since {time:.1f} s"
        elif kind == "fault_end":
            self.fault = f"{value.fault}, healed at {time:.1f} s"
        text = self._describe(kind, value)
        if text is None:
            return None
        if kind == "incident":
            self.incident_at = time
        return self._event(time, _who(op), text)

    def _write(self, op: Op, kind_type: str) -> Event | None:
        time, value = op.time, op.value
        if kind_type == "ok":
            self._connected = True
            if self.incident_at is not None and self.rto is None and time > self.incident_at:
                self.rto = round(time - self.incident_at, 3)
                self._writing = True
                return self._event(time, "app", f"first acknowledged write after the "
                                   f"incident (to {value.endpoint}): RTO {self.rto} s")
            if not self._writing:
                self._writing = True
                return self._event(time, "app", f"writes acknowledged again ({value.endpoint})")
        elif kind_type in ("fail", "info") and self._writing:
            self._writing = False
            return self._event(time, "app", "writes fail: "
                               + _first_line(getattr(value, "error", "unknown")))
        return None

    def _call(self, time: float, value: Any) -> Event:
        decision = "" if value.decision == "Allow" else f" DENIED ({value.decision})"
        what = f"called {value.operation or value.action}{decision}"
        last = self.events[-1] if self.events else None
        if last is not None and last.who == "runbook" and last.what == what:
            last.count += 1
            return last
        return self._event(time, "runbook", what)

    @staticmethod
    def _describe(kind: str, value: Any) -> str | None:
        if kind == "phase":
            return f"stage {value.name}"
        if kind == "fault_start":
            return f"fault {value.fault} injected: {_detail(value.detail)}"
        if kind == "fault_end":
            return f"fault {value.fault} healed"
        if kind == "fault_not_injected":
            return f"fault {value.fault} not injected: {value.reason}"
        if kind == "incident":
            return f"incident reported: {value.detail.get('description', '')}"
        if kind == "runbook_exit":
            how = "killed at its timeout" if value.timed_out else f"code {value.code}"
            return f"runbook exited ({how})"
        if kind == "rds_event":
            return _rds_event(value)
        return None

    def _event(self, time: float, who: str, what: str) -> Event:
        event = Event(round(time, 3), who, what)
        self.events.append(event)
        return event


def _rds_event(value: Value) -> str:
    what = value.event.replace("_", " ")  # type: ignore[attr-defined]
    # What the data plane did: fields beyond instance and event, when it gave them.
    status, reason = getattr(value, "status", None), getattr(value, "reason", None)
    if status:
        what = f"{what} {status}"
    if reason:
        what = f"{what} ({reason})"
    return f"{value.instance}: {what}"  # type: ignore[attr-defined]


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else text


def _who(op: Op) -> str:
    return {"nemesis": "fault", "kit": "kit"}.get(op.process, op.process)


def _detail(detail: Any) -> str:
    if not isinstance(detail, Mapping):
        return str(detail)
    keep = {k: v for k, v in detail.items() if k not in ("target",)}
    return ", ".join(f"{k}={v}" for k, v in keep.items())


def writes_per_second(ops: list[Op], now: float, window: float = 1.0) -> float:
    """Acknowledged writes per second over the last `window` seconds."""
    count = 0
    for op in reversed(ops):
        if op.time < now - window:
            break
        if op.kind == "write" and op.ok:
            count += 1
    return count / window
