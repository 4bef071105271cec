"""A run's timeline as inline SVG: the series over time, the fault's window, the phases,
vertical lines (incident, recovery, RTO) and lanes of marks (workers, runbook, database).

Every text that reaches the page goes through `esc` (names and labels can come from the
solution: a role, an instance, a worker's error), and every class name is the kit's own,
so nothing a solution writes becomes markup. Each element carries a class the browser test
finds (`fault-window`, `rto-line`, `recovery`, `series-<name>`, `mark <kind>`) and a
`<title>`, the tooltip a person hovers for.
"""

from __future__ import annotations

import html
import math

from kit.report.story import Mark, Story

WIDTH = 960
LEFT, RIGHT, TOP = 64, 24, 30  # margins of the plot area; the phase strip is above it
PLOT = 200  # height of the plot area
AXIS = 30  # below the plot: the time axis
LANE = 24  # height of one lane of marks


def esc(text: object) -> str:
    """Text (or an attribute value) safe inside the page."""
    return html.escape(str(text), quote=True)


def ticks(top: float, count: int = 5) -> list[float]:
    """Round tick values from 0 to at least `top` (steps of 1, 2 or 5 x 10^k)."""
    top = max(top, 1.0)
    raw = top / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return [round(i * step, 9) for i in range(int(math.ceil(top / step)) + 1)]


def span_ticks(start: float, end: float, count: int = 10) -> list[float]:
    """Round tick values within [start, end], about `count` of them."""
    step = ticks(end - start, count)[1]
    first = math.ceil(start / step)
    return [round(k * step, 9) for k in range(first, int(math.floor(end / step)) + 1)]


class _Scale:
    """Maps time and value to the plot's coordinates."""

    def __init__(self, start: float, end: float, top: float) -> None:
        self.start, self.end, self.top = start, end, top

    def x(self, t: float) -> float:
        span = max(self.end - self.start, 1e-9)
        return LEFT + (WIDTH - LEFT - RIGHT) * (min(max(t, self.start), self.end)
                                                - self.start) / span

    def y(self, v: float) -> float:
        return TOP + PLOT - PLOT * v / self.top


def render(story: Story, title: str) -> str:
    """The whole SVG of one run's story."""
    top_value = max([p[1] for s in story.series for p in s.points] + [1.0])
    y_ticks = ticks(top_value)
    scale = _Scale(story.start, story.end, y_ticks[-1])
    height = TOP + PLOT + AXIS + LANE * len(story.lanes) + 8
    parts = [f'<svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} '
             f'{height}" width="{WIDTH}" height="{height}" role="img" aria-label="{esc(title)}">',
             f"<title>{esc(title)}</title>"]
    parts += _phases(story, scale)
    parts += _window(story, scale)
    parts += _axes(story, scale, y_ticks, height)
    parts += _series(story, scale)
    parts += _lines(story, scale, height)
    parts += _lanes(story, scale)
    parts.append("</svg>")
    return "\n".join(parts)


def _phases(story: Story, scale: _Scale) -> list[str]:
    out = []
    for start, end, name in story.phases:
        if end <= story.start:
            continue  # the deploy, before the plot starts (a note says so)
        x0, x1 = scale.x(start), scale.x(end)
        out.append(f'<g class="phase"><rect x="{x0:.1f}" y="6" width="{max(x1 - x0, 1):.1f}" '
                   f'height="16"><title>stage {esc(name)}: {start:.1f} s to {end:.1f} s</title>'
                   f"</rect>" + (f'<text x="{x0 + 3:.1f}" y="18">{esc(name)}</text>'
                                 if x1 - x0 > 50 else "") + "</g>")
    return out


def _window(story: Story, scale: _Scale) -> list[str]:
    if story.window is None:
        return []
    start, end, label = story.window.start, story.window.end, story.window.label
    x0, x1 = scale.x(start), scale.x(end)
    return [f'<rect class="fault-window" x="{x0:.1f}" y="{TOP}" width="{max(x1 - x0, 1):.1f}" '
            f'height="{PLOT}"><title>fault {esc(label)}: {start:.1f} s to {end:.1f} s'
            f'</title></rect>',
            f'<text class="fault-label" x="{x0 + 4:.1f}" y="{TOP + 14}">fault: {esc(label)}'
            "</text>"]


def _axes(story: Story, scale: _Scale, y_ticks: list[float], height: float) -> list[str]:
    out = [f'<rect class="frame" x="{LEFT}" y="{TOP}" width="{WIDTH - LEFT - RIGHT}" '
           f'height="{PLOT}"/>']
    for v in y_ticks:
        y = scale.y(v)
        out.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" '
                   f'y2="{y:.1f}"/><text class="tick" x="{LEFT - 6}" y="{y + 4:.1f}" '
                   f'text-anchor="end">{v:g}</text>')
    for t in span_ticks(story.start, story.end):
        x = scale.x(t)
        out.append(f'<line class="grid" x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" '
                   f'y2="{height - 8}"/><text class="tick" x="{x:.1f}" y="{TOP + PLOT + 16}" '
                   f'text-anchor="middle">{t:g} s</text>')
    out.append(f'<text class="axis-label" x="12" y="{TOP + PLOT / 2:.0f}" transform="rotate(-90 '
               f'12 {TOP + PLOT / 2:.0f})" text-anchor="middle">{esc(story.y_label)}</text>')
    return out


def _series(story: Story, scale: _Scale) -> list[str]:
    out = []
    for i, s in enumerate(story.series):
        points: list[str] = []
        last_y: float | None = None
        for t, v in s.points:
            x, y = scale.x(t), scale.y(v)
            if s.step and last_y is not None:
                points.append(f"{x:.1f},{last_y:.1f}")
            points.append(f"{x:.1f},{y:.1f}")
            last_y = y
        if s.step and last_y is not None:
            points.append(f"{scale.x(story.end):.1f},{last_y:.1f}")
        out.append(f'<polyline class="series series-{s.css}" points="{" ".join(points)}">'
                   f"<title>{esc(s.name)}</title></polyline>")
        lx = LEFT + 10 + 190 * i
        out.append(f'<g class="legend"><line class="series series-{s.css}" x1="{lx}" '
                   f'x2="{lx + 18}" y1="{TOP + PLOT + 26}" y2="{TOP + PLOT + 26}"/><text '
                   f'x="{lx + 22}" y="{TOP + PLOT + 30}">{esc(s.name)}</text></g>')
    return out


def _lines(story: Story, scale: _Scale, height: float) -> list[str]:
    out = []
    for n, line in enumerate(sorted(story.lines, key=lambda item: item.time)):
        x = scale.x(line.time)
        off = line.time > story.end
        out.append(f'<g class="{line.kind}"><line x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" '
                   f'y2="{height - 8}"/><title>{esc(line.label)}'
                   f'{" (past the end of the run)" if off else ""}</title>'
                   f'<text x="{x - 4:.1f}" y="{TOP + 28 + 14 * (n % 3)}" text-anchor="end">'
                   f"{esc(line.label)}</text></g>")
    return out


def _lanes(story: Story, scale: _Scale) -> list[str]:
    out = []
    for i, lane in enumerate(story.lanes):
        y = TOP + PLOT + AXIS + LANE * i + LANE / 2 + 4
        out.append(f'<g class="lane" data-lane="{esc(lane)}"><text class="lane-label" x="4" '
                   f'y="{y + 4:.1f}">{esc(lane)}</text>')
        out += [_mark(m, scale.x(m.time), y) for m in story.marks if m.lane == lane]
        out.append("</g>")
    return out


def _mark(mark: Mark, x: float, y: float) -> str:
    """One mark's shape: a triangle for a start, a cross for a kill, a dot otherwise."""
    tip = f"<title>{esc(mark.label)} at {mark.time:.2f} s</title>"
    if mark.kind == "worker-start":
        shape = f'd="M{x - 5:.1f},{y + 5:.1f} L{x:.1f},{y - 5:.1f} L{x + 5:.1f},{y + 5:.1f} Z"'
    elif mark.kind == "worker-kill":
        shape = (f'd="M{x - 5:.1f},{y - 5:.1f} L{x + 5:.1f},{y + 5:.1f} M{x - 5:.1f},'
                 f'{y + 5:.1f} L{x + 5:.1f},{y - 5:.1f}"')
    else:
        shape = (f'd="M{x - 4:.1f},{y:.1f} a4,4 0 1,0 8,0 a4,4 0 1,0 -8,0"')
    return f'<path class="mark {esc(mark.kind)}" {shape}>{tip}</path>'
