"""report.html: the report a person looks at, one self-contained file beside report.json.

Rendered from the report document and each run's saved history (`<run_dir>/history.json`,
else the run's folder beside the report): nothing is re-run. Per run: its timeline (kit/
report/story.py says what it shows, kit/report/svg.py draws it), the invariant table with
the evidence, and used vs granted. No network, no CDN, no font or script: inline CSS and
inline SVG only, and a Content-Security-Policy that lets the page load nothing at all, so
even a text that slipped past escaping could not run or fetch. Every text of the
solution's (names, evidence, errors) goes through `esc`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kit.history import History, HistoryError
from kit.iam.usage import summary as usage_summary
from kit.report import compare
from kit.report.markdown import SECTIONS, shows_reward
from kit.report.story import story
from kit.report.svg import esc, render
from kit.report.timeline import Timeline

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"DejaVu Sans",sans-serif;margin:24px;color:#1d2330}
h1{font-size:20px;margin:0 0 4px}
h2{font-size:17px;margin:28px 0 6px}
h3{font-size:14px;margin:14px 0 4px}
code,pre{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px}
pre{background:#f4f5f7;padding:8px;overflow:auto;max-height:320px;white-space:pre-wrap;
  word-break:break-all}
table{border-collapse:collapse;margin:6px 0}
td,th{border:1px solid #d5d8de;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#eef0f3}
.v{font-weight:600;border-radius:3px;padding:0 6px}
.v-pass{background:#dff3e4;color:#17622c}
.v-fail{background:#fbe0e0;color:#9c1c1c}
.v-error{background:#fdf0d5;color:#7a5300}
.note{color:#5a6270}
.run{border-top:2px solid #d5d8de;margin-top:24px}
svg.timeline{display:block;max-width:100%;height:auto;font-size:11px}
svg .frame{fill:none;stroke:#9aa1ad}
svg .grid{stroke:#e6e8ec}
svg .tick,svg .lane-label,svg .axis-label{fill:#5a6270}
svg .phase rect{fill:#eef0f3;stroke:#fff}
svg .phase text{fill:#5a6270}
svg .fault-window{fill:#e5484d;fill-opacity:.13;stroke:#e5484d;stroke-opacity:.5}
svg .fault-label{fill:#b3262b}
svg .series{fill:none;stroke-width:2}
svg .series-sent{stroke:#2f6fdf}
svg .series-recorded{stroke:#1f9d55}
svg .series-acked{stroke:#1f9d55}
svg .series-failed{stroke:#e5484d}
svg .incident line{stroke:#b3262b;stroke-width:2}
svg .incident text{fill:#b3262b}
svg .recovery line{stroke:#1f9d55;stroke-width:2}
svg .recovery text{fill:#17622c}
svg .rto-line line{stroke:#d97706;stroke-width:2;stroke-dasharray:6 4}
svg .rto-line text{fill:#a35200}
svg .incident text,svg .recovery text,svg .rto-line text,svg .fault-label{paint-order:stroke;
  stroke:#fff;stroke-width:3px}
svg .mark{stroke-width:1.5}
svg .worker-start{fill:#1f9d55;stroke:#1f9d55}
svg .worker-kill{stroke:#b3262b;stroke-width:2.5;fill:none}
svg .worker-exit{fill:#9aa1ad;stroke:#5a6270}
svg .runbook-call{fill:#2f6fdf;stroke:#2f6fdf}
svg .runbook-call-denied{fill:#e5484d;stroke:#b3262b}
svg .runbook-exit{fill:#fff;stroke:#2f6fdf}
svg .rds-event{fill:#d97706;stroke:#a35200}
"""


def _verdict(verdict: str) -> str:
    kind = verdict if verdict in ("pass", "fail", "error") else "error"
    return f'<span class="v v-{kind}">{esc(verdict)}</span>'


def history_path(run: dict[str, Any], base: Path) -> Path | None:
    """Where a run's history is: its run_dir as recorded, else its folder beside the report."""
    if not run.get("run_dir"):
        return None
    recorded = Path(run["run_dir"]) / "history.json"
    beside = base / Path(run["run_dir"]).name / "history.json"
    return next((p for p in (recorded, beside) if p.is_file()), None)


def render_page(document: dict[str, Any], base: Path) -> str:
    """The whole page: the verdict overview, then each run's section."""
    runs = document.get("runs", [])
    # With a base the check's verdict (new failures only, by default) heads the page, as
    # in summary.md; the head's own outcome is in the overview.
    title = f"kit: {document.get('scenario')}: {document.get('verdict', document.get('outcome'))}"
    body = [f"<h1>{esc(title)}</h1>",
            f"<p>Solution <code>{esc(document.get('solution'))}</code>"
            + (f"; {esc(_reward(document))}" if shows_reward(document) else "") + "</p>",
            f"<p>Reproduce: <code>{esc(document.get('command'))}</code></p>",
            *_comparison(document), _overview(runs)]
    body += [_run_section(i, run, base) for i, run in enumerate(runs)]
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def _reward(document: dict[str, Any]) -> str:
    value = document.get("reward")
    detail = document.get("reward_detail") or {}
    text = f"reward {'n/a' if value is None else f'{value:.2f}'}"
    return text + (" (capped: a major invariant failed)" if detail.get("capped") else "")


def _comparison(document: dict[str, Any]) -> list[str]:
    """With a base: the count of each class, then one list per class that is not passing
    on both sides (new failures first), as summary.md has them."""
    entries = document.get("comparison")
    if entries is None:
        return []
    base = document.get("baseline") or {}
    found = compare.counts(entries)
    name = f"<code>{esc(base.get('ref') or base.get('given'))}</code>" + (
        f" (commit <code>{esc(str(base['commit'])[:12])}</code>)" if base.get("commit") else "")
    shown = ", ".join(f"{n} {kind}" for kind, n in found.items() if n and kind != compare.PASS)
    out = ['<section class="comparison"><h2>Against the base</h2>',
           f"<p>Against the base {name}: {esc(shown or 'nothing changed')}; "
           f"{found[compare.PASS]} passing on both.</p>"]
    runs = document.get("runs", [])
    for kind, title in SECTIONS:
        chosen = [e for e in entries if e.get("status") == kind]
        if chosen:
            items = "".join(_change(e, runs) for e in chosen)
            out.append(f'<h3>{esc(title)} ({len(chosen)})</h3><ul class="changes '
                       f'changes-{kind.replace(" ", "-")}">{items}</ul>')
    out.append("</section>")
    return out


def _change(entry: dict[str, Any], runs: list[dict[str, Any]]) -> str:
    """One (fault, invariant): its fault and seed (linked to the run), why, the reruns."""
    why = entry.get("why") or {}
    where = esc(entry.get("fault"))
    if "seed" in why:
        at = next((n for n, r in enumerate(runs) if (r.get("fault"), r.get("seed"))
                   == (entry.get("fault"), why["seed"])), None)
        label = f"{where} (seed {esc(why['seed'])})"
        where = label if at is None else f'<a href="#run-{at}">{label}</a>'
    said = why.get("summary") or f"base {entry.get('base')}, head {entry.get('head')}"
    reruns = (entry.get("confirm") or {}).get("summary")
    return (f"<li><b>{where}</b> <code>{esc(entry.get('invariant'))}</code>: {esc(said)}"
            + (f"; reruns: {esc(reruns)}" if reruns else "") + "</li>")


def _overview(runs: list[dict[str, Any]]) -> str:
    """Invariants down, runs across, each column linked to its run's section."""
    ids: list[str] = []
    for run in runs:
        ids += [i for i in run.get("invariants", {}) if i not in ids]
    head = "".join(f'<th><a href="#run-{n}">{esc(r.get("fault"))} (seed {esc(r.get("seed"))})'
                   f"</a></th>" for n, r in enumerate(runs))
    rows = [f"<tr><td><code>{esc(i)}</code></td>" + "".join(
        f"<td>{_verdict(r['invariants'][i]['verdict'])}</td>" if i in r.get("invariants", {})
        else "<td>-</td>" for r in runs) + "</tr>" for i in ids]
    rows.append("<tr><th>outcome</th>" + "".join(f"<td>{_verdict(r.get('outcome', 'error'))}"
                                                  "</td>" for r in runs) + "</tr>")
    return f'<table class="overview"><tr><th>invariant</th>{head}</tr>{"".join(rows)}</table>'


def _run_section(n: int, run: dict[str, Any], base: Path) -> str:
    """One run: the timeline, its invariants with evidence, used vs granted, its events."""
    head = (f'<section class="run" id="run-{n}"><h2>{esc(run.get("fault"))} (seed '
            f'{esc(run.get("seed"))}): {_verdict(run.get("outcome", "error"))}</h2>')
    parts = [head]
    if run.get("error"):
        parts.append(f'<p class="note">The kit could not judge this run: '
                     f"{esc(str(run['error']).splitlines()[0] if run['error'] else '')}</p>")
    try:
        parts += _timeline(run, base)
    except Exception as exc:  # a drawing bug must not cost the run its other reports
        parts.append(f'<p class="note">The kit could not draw this run: '
                     f"{esc(type(exc).__name__)}: {esc(exc)}</p>")
    parts.append(_invariants(run.get("invariants", {})))
    parts.append(_usage(run.get("used_vs_granted")))
    parts.append("</section>")
    return "\n".join(parts)


def _timeline(run: dict[str, Any], base: Path) -> list[str]:
    """The run's plot and its events, or why there is none."""
    path = history_path(run, base)
    if path is None:
        return ['<p class="note">No history was saved for this run: no timeline.</p>']
    try:
        history = History.load(path)
    except (HistoryError, OSError) as exc:
        return [f'<p class="note">The history cannot be read: {esc(exc)}</p>']
    told = story(history, run.get("invariants", {}))
    title = f"timeline of {run.get('fault')} (seed {run.get('seed')})"
    out = ["<h3>Timeline</h3>", render(told, title)]
    out += [f'<p class="note">{esc(note)}</p>' for note in told.notes]
    events = [event.line() for event in Timeline.of(history.ops).events]
    if events:
        out.append(f"<details><summary>events ({len(events)})</summary><pre>"
                   f"{esc(chr(10).join(events))}</pre></details>")
    return out


def _invariants(invariants: dict[str, Any]) -> str:
    """Each invariant's verdict and summary, its evidence folded under it."""
    rows = []
    for inv_id, inv in invariants.items():
        evidence = json.dumps(inv.get("evidence", {}), indent=2, default=str)
        rows.append(f"<tr><td><code>{esc(inv_id)}</code></td><td>{_verdict(inv['verdict'])}"
                    f"</td><td>{esc(inv.get('summary', ''))}<details><summary>evidence"
                    f"</summary><pre>{esc(evidence)}</pre></details></td></tr>")
    return ('<h3>Invariants</h3><table class="invariants"><tr><th>invariant</th><th>verdict'
            f'</th><th>summary and evidence</th></tr>{"".join(rows)}</table>')


def _usage(entries: dict[str, Any] | None) -> str:
    """Per role: the granted pairs, how many a call used, the rest named."""
    if not entries:
        return '<h3>Used vs granted</h3><p class="note">Not measured (no workload ran).</p>'
    rows = []
    for role, entry in entries.items():
        unused = entry.get("granted_unused") or []
        named = "".join(f"<li><code>{esc(g.get('action'))}</code> on <code>"
                        f"{esc(g.get('resource'))}</code></li>" for g in unused)
        used = [f"{a} on {r}" for a, r in entry.get("used", [])]
        rows.append(f"<tr><td><code>{esc(role)}</code></td><td>"
                    f"{esc(', '.join(entry.get('processes', [])))}</td><td>"
                    f"{esc(usage_summary(entry))}"
                    + (f"<ul>{named}</ul>" if named else "")
                    + f"</td><td>{esc('; '.join(used))}</td></tr>")
    return ('<h3>Used vs granted</h3><table class="usage"><tr><th>role</th><th>processes</th>'
            f'<th>granted and used</th><th>calls made</th></tr>{"".join(rows)}</table>')


def write(document: dict[str, Any], path: Path) -> Path:
    """Write report.html for the document (histories found beside `path`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_page(document, path.parent), encoding="utf-8")
    return path
