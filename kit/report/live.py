"""The live view of a drill (`kit drill`): writes per second, the fault, the incident, the
calls the runbook makes, what the data plane does, the RTO once known.

On a terminal it is a panel redrawn four times a second; elsewhere (CI, a pipe) it prints
each event once, as a plain line, and the write rate every few seconds.
"""

from __future__ import annotations

import threading
import time

from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table

from kit.recorder import Recorder
from kit.report.escape import terminal as t
from kit.report.timeline import Timeline, writes_per_second

REFRESH_SECONDS = 0.25
RATE_EVERY = 5.0
SHOWN_EVENTS = 14


class LiveView(threading.Thread):
    """Watches a run's recorder and shows it until stopped."""

    def __init__(self, recorder: Recorder, console: Console, title: str) -> None:
        super().__init__(name="live-view", daemon=True)
        self.recorder, self.console, self.title = recorder, console, title
        self.timeline = Timeline()
        self.stopping = threading.Event()
        self._seen = 0

    def stop(self) -> None:
        """Show what is left, then stop."""
        self.stopping.set()
        if self.ident is not None:
            self.join(timeout=5)

    def run(self) -> None:
        if self.console.is_terminal:
            with Live(self._panel(), console=self.console, refresh_per_second=4,
                      transient=True) as live:
                while not self.stopping.wait(REFRESH_SECONDS):
                    self._feed()
                    live.update(self._panel())
            return
        next_rate = time.monotonic() + RATE_EVERY
        while not self.stopping.wait(REFRESH_SECONDS):
            for event in self._feed():
                self.console.print(t(event.line()), highlight=False, soft_wrap=True)
            if time.monotonic() >= next_rate:
                next_rate += RATE_EVERY
                if self.timeline.phase not in ("workload", "recover"):
                    continue
                self.console.print(f"[{self.recorder.now():7.2f} s] app      "
                                   f"{self._rate():.0f} writes/s", highlight=False)
        for event in self._feed():
            self.console.print(t(event.line()), highlight=False, soft_wrap=True)

    def _feed(self) -> list:
        ops = self.recorder.snapshot()
        fresh = []
        for op in ops[self._seen:]:
            event = self.timeline.add(op)
            if event is not None and event not in fresh:
                fresh.append(event)
        self._seen = len(ops)
        return fresh

    def _rate(self) -> float:
        return writes_per_second(self.recorder.snapshot(), self.recorder.now())

    def _panel(self) -> Panel:
        status = Table.grid(padding=(0, 2))
        timeline = self.timeline
        acked = self.recorder.count("write")
        rto = (f"{timeline.rto} s" if timeline.rto is not None else
               f"not yet ({self.recorder.now() - timeline.incident_at:.1f} s since the incident)"
               if timeline.incident_at is not None else "no incident yet")
        for label, value in (("writes/s", f"{self._rate():.0f}"), ("acknowledged", str(acked)),
                             ("fault", timeline.fault), ("RTO", rto),
                             ("RPO", "measured when the run ends")):
            status.add_row(label, t(value))
        events = Table.grid(padding=(0, 1))
        for event in timeline.events[-SHOWN_EVENTS:]:
            events.add_row(t(event.line()))
        return Panel(Group(status, events), title=self.title)
