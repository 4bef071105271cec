"""report.html: a run's story (series, fault window, marks, recovery, RTO) read from its
history, drawn as inline SVG, in a page that loads nothing and escapes every text a
solution could choose (a role name, an evidence string, an error)."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from kit.cli import eval as cli_eval
from kit.history import History, make_history
from kit.report import html
from kit.report import story as story_module
from kit.report.story import Window, story
from kit.report.svg import render, span_ticks, ticks

HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(2)">"\'&</style>'


def _ops(rows: list[tuple[float, str, str, str, dict[str, Any]]]) -> History:
    return make_history({"index": i, "time": t, "process": p, "kind": k, "type": ty,
                         "value": v} for i, (t, p, k, ty, v) in enumerate(rows))


def _send(t: float, key: str) -> tuple[float, str, str, str, dict[str, Any]]:
    return (t, "producer", "send", "ok", {"message_id": f"m-{key}", "duplicate_of": None,
                                          "body": "{}", "key": key, "fields": {}, "valid": True})


def _recorded(t: float, key: str) -> tuple[float, str, str, str, dict[str, Any]]:
    return (t, "observer", "recorded", "ok", {"key": key, "fields": {}})


def _queue(heal: bool = True, late: bool = False) -> History:
    """Two workers, one killed in the fault; two messages, the second recorded after the
    fault ends (or never)."""
    rows = [(0.1, "kit", "phase", "ok", {"name": "workload"}),
            (0.2, "kit", "worker_start", "ok", {"worker": "worker-0#0", "pid": 10}),
            (0.3, "kit", "worker_start", "ok", {"worker": "worker-1#0", "pid": 11}),
            _send(1.0, "k1"), _recorded(1.5, "k1"),
            (2.0, "nemesis", "fault_start", "ok", {"fault": "db_outage", "detail": {}}),
            _send(2.5, "k2"),
            (3.0, "kit", "worker_exit", "ok", {"worker": "worker-1#0", "pid": 11,
                                               "signal": "SIGKILL"})]
    if heal:
        rows.append((6.0, "nemesis", "fault_end", "ok", {"fault": "db_outage", "detail": {}}))
    if not late:
        rows.append(_recorded(7.5, "k2"))
    rows.append((9.0, "kit", "worker_exit", "ok", {"worker": "worker-0#0", "pid": 10,
                                                   "code": 0}))
    return _ops(rows)


RTO = {"recovery.within_rto": {"verdict": "pass", "evidence": {"reference_time": 6.0},
                               "params": {"rto_seconds": 30}}}


def test_a_queue_runs_story_has_its_window_marks_recovery_and_rto() -> None:
    told = story(_queue(), RTO)
    assert told.shape == "queue"
    assert told.window == Window(2.0, 6.0, "db_outage", True)
    assert [(s.css, s.points[-1]) for s in told.series] == [("sent", (2.5, 2.0)),
                                                             ("recorded", (7.5, 2.0))]
    assert [(m.kind, m.label) for m in told.marks] == [
        ("worker-start", "worker-0#0 started"), ("worker-start", "worker-1#0 started"),
        ("worker-kill", "worker-1#0 killed (SIGKILL)"),
        ("worker-exit", "worker-0#0 exited (code 0)")]
    lines = {line.kind: line.time for line in told.lines}
    # Caught up when k2, sent in the fault, took effect; the deadline is 6 + 30 s, and
    # the axis reaches it.
    assert lines == {"recovery": 7.5, "rto-line": 36.0}
    assert told.end >= 36.0


def test_a_queue_run_that_never_caught_up_or_healed_says_so() -> None:
    told = story(_queue(late=True), RTO)
    assert "recovery" not in {line.kind for line in told.lines}
    assert told.notes == ["not recovered: 1 valid message(s) sent by the fault's end never "
                          "took effect"]
    unhealed = story(_queue(heal=False), {})
    assert unhealed.window == Window(2.0, 9.0, "db_outage (never healed)", False)
    assert "fault db_outage was never healed" in unhealed.notes
    assert not unhealed.lines  # no RTO verdict, no line; and no recovery from a fault not healed


def _drill(recovered: bool = True) -> History:
    rows = [(0.5 + i / 4, "app", "write", "ok", {"key": f"w{i}", "fields": {},
                                                 "endpoint": "127.0.0.1:1"}) for i in range(8)]
    rows += [(2.6, "nemesis", "fault_start", "ok", {"fault": "az_loss", "detail": {}}),
             (2.6, "kit", "incident", "ok", {"fault": "az_loss", "detail": {}}),
             (2.7, "app", "write", "fail", {"key": "w9", "error": "cut"}),
             (2.8, "runbook", "authz", "ok", {"operation": "FailoverDBCluster",
                                              "decision": "Allow"}),
             (2.9, "runbook", "authz", "ok", {"operation": "DeleteDBInstance",
                                              "decision": "ImplicitDeny"}),
             (3.0, "rds", "rds_event", "ok", {"instance": "db", "event": "failover_completed"}),
             (3.2, "kit", "runbook_exit", "ok", {"code": 0, "timed_out": False, "output": []})]
    if recovered:
        rows.append((4.1, "app", "write", "ok", {"key": "w10", "fields": {}, "endpoint": "e"}))
    rows.append((5.0, "nemesis", "fault_end", "ok", {"fault": "az_loss", "detail": {}}))
    return _ops(rows)


def test_a_drills_story_has_rates_incident_runbook_calls_and_rto() -> None:
    evidence = {"incident_at": 2.6, "rto_seconds": 6.0, "first_ack_after": 4.1,
                "recovered_in_seconds": 1.5}
    told = story(_drill(), {"recovery.rto": {"verdict": "pass", "evidence": evidence}})
    assert told.shape == "drill"
    acked, failed = told.series
    assert [v for _, v in acked.points[:3]] == [2.0, 4.0, 2.0]  # writes in seconds 0, 1, 2
    assert sum(v for _, v in failed.points) == 1.0
    assert {line.kind: line.time for line in told.lines} == {
        "incident": 2.6, "rto-line": 8.6, "recovery": 4.1}
    assert [(m.lane, m.kind) for m in told.marks] == [
        ("runbook", "runbook-call"), ("runbook", "runbook-call-denied"),
        ("database", "rds-event"), ("runbook", "runbook-exit")]
    assert told.lanes == ["runbook", "database"]


def test_a_drill_that_never_wrote_again_has_no_recovery_line() -> None:
    evidence = {"incident_at": 2.6, "rto_seconds": 6.0, "first_ack_after": None}
    told = story(_drill(recovered=False), {"recovery.rto": {"evidence": evidence}})
    assert {line.kind for line in told.lines} == {"incident", "rto-line"}
    assert told.notes == ["not recovered: no write was acknowledged after the incident"]


def test_ticks_are_round_and_reach_the_top() -> None:
    assert ticks(47) == [0, 10, 20, 30, 40, 50]
    assert ticks(0) == [0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert ticks(3.2)[-1] >= 3.2


class _Page(HTMLParser):
    """What a browser's parser makes of the page: elements, attributes, text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.classes: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += attrs
        self.classes += [c for name, v in attrs if name == "class" and v for c in v.split()]


def _document(tmp_path: Path, history: History, name: str = "role.worker") -> dict[str, Any]:
    run_dir = tmp_path / "db_outage-seed1"
    run_dir.mkdir()
    history.save(run_dir / "history.json")
    usage = {name: {"processes": [HOSTILE], "used": [["sqs:SendMessage", HOSTILE]],
                    "denied": [], "granted": 2, "granted_used": 1,
                    "granted_unused": [{"action": "sqs:PurgeQueue", "resource": HOSTILE}]}}
    invariants = {**RTO, "delivery.no_loss": {
        "verdict": "fail", "summary": f"1 of 2 lost (e.g. {HOSTILE})",
        "evidence": {"lost": {"count": 1, "members": [HOSTILE]}}}}
    return {"scenario": "order-pipeline", "solution": HOSTILE, "outcome": "fail",
            "command": "kit eval order-pipeline", "reward": 0.5, "reward_detail": {},
            "runs": [{"fault": "db_outage", "seed": 1, "outcome": "fail", "error": None,
                      "run_dir": "/gone/db_outage-seed1", "invariants": invariants,
                      "used_vs_granted": usage}]}


def test_the_page_draws_the_run_and_escapes_what_the_solution_chose(tmp_path: Path) -> None:
    doc = _document(tmp_path, _queue(), name=HOSTILE)
    # The recorded run_dir is gone: the history is found in the run's folder beside it.
    page = html.write(doc, tmp_path / "report.html").read_text()
    parsed = _Page()
    parsed.feed(page)
    # No element or attribute of the solution's: one <style> (the kit's), no script, no
    # image, no event handler; its text is shown as text.
    assert "script" not in parsed.tags and "img" not in parsed.tags
    assert parsed.tags.count("style") == 1
    assert not [a for a, _ in parsed.attrs if a.startswith("on")]
    assert page.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 5
    for found in ("fault-window", "rto-line", "recovery", "series-sent", "series-recorded",
                  "worker-kill", "worker-start", "v-fail"):
        assert found in parsed.classes, found
    # The page loads nothing: no URL but the in-page links, and a policy forbidding any.
    assert "default-src 'none'" in page
    urls = [v for a, v in parsed.attrs if a in ("src", "href") and v]
    assert urls and all(v.startswith("#run-") for v in urls)


def test_the_same_page_unescaped_would_have_run_the_script(tmp_path: Path) -> None:
    """The escaping test above can fail: without esc, the hostile name is a script."""
    doc = _document(tmp_path, _queue(), name=HOSTILE)
    raw = html._usage(doc["runs"][0]["used_vs_granted"]).replace(html.esc(HOSTILE), HOSTILE)
    parsed = _Page()
    parsed.feed(raw)
    assert "script" in parsed.tags and "onerror" in [a for a, _ in parsed.attrs]


def test_a_run_without_history_or_with_a_broken_one_is_said(tmp_path: Path) -> None:
    doc = _document(tmp_path, _queue())
    (tmp_path / "db_outage-seed1" / "history.json").write_text(json.dumps({"format": "nope"}))
    page = html.render_page(doc, tmp_path)
    parsed = _Page()
    parsed.feed(page)
    assert "The history cannot be read" in page and "fault-window" not in parsed.classes
    doc["runs"][0]["run_dir"] = None
    doc["runs"][0]["used_vs_granted"] = None
    page = html.render_page(doc, tmp_path)
    assert "No history was saved for this run" in page and "Not measured" in page


def test_kit_eval_and_drill_write_the_page_beside_the_other_reports(tmp_path: Path) -> None:
    from kit import scenario
    from kit.checks.result import CheckResult
    from kit.run.result import RunResult

    sc = scenario.load("order-pipeline")
    run_dir = tmp_path / "db_outage-seed1"
    run_dir.mkdir()
    _queue().save(run_dir / "history.json")
    lost = CheckResult(id="delivery.no_loss", verdict="fail", summary="1 of 2 lost")
    run = RunResult("order-pipeline", "sol", "db_outage", 1, "fail",
                    {"delivery.no_loss": lost}, run_dir=str(run_dir))
    assert cli_eval.report_runs(sc, Path("sol"), [run], "kit eval order-pipeline", tmp_path,
                                []) == 1
    assert {"report.json", "junit.xml", "summary.md", "report.html"} <= {
        p.name for p in tmp_path.iterdir()}
    page = (tmp_path / "report.html").read_text()
    assert "1 of 2 lost" in page and 'class="fault-window"' in page


def test_a_runbook_that_calls_thousands_of_times_gets_a_bounded_plot() -> None:
    calls = [(3.0 + i / 1000, "runbook", "authz", "ok", {"operation": "DescribeDBInstances",
                                                         "decision": "Allow"})
             for i in range(1000)]
    rows = [(1.0, "app", "write", "ok", {"key": "w", "fields": {}, "endpoint": "e"}), *calls]
    told = story(_ops(rows), {})
    assert sum(m.lane == "runbook" for m in told.marks) == story_module.MAX_MARKS
    assert told.notes == [f"{1000 - story_module.MAX_MARKS} more runbook event(s) not drawn "
                          f"(the first {story_module.MAX_MARKS} are)"]


def test_the_axis_starts_at_the_workload_when_the_deploy_took_long() -> None:
    rows = [(0.1, "kit", "phase", "ok", {"name": "deploy"}),
            (40.0, "kit", "phase", "ok", {"name": "workload"}), _send(41.0, "k1"),
            _recorded(42.0, "k1")]
    told = story(_ops(rows), {})
    assert told.start == 39.0
    assert told.notes == ["the plot starts at 39.0 s: before the workload (started at "
                          "40.0 s) the run deployed the solution"]
    assert span_ticks(39.0, 42.84) == [39.0, 39.5, 40.0, 40.5, 41.0, 41.5, 42.0, 42.5]
    svg = render(told, "t")
    # The deploy's last second is drawn from the axis' start, the workload after it.
    assert '<rect x="64.0" y="6"' in svg and ">workload</text>" in svg
    assert story(_queue(), RTO).start == 0.0  # a workload from 0.1 s: nothing to leave out


def _side(verdicts: dict[str, str], said: dict[str, str] | None = None) -> dict[str, Any]:
    """One run's dict as report.json has it, under db_outage at seed 1."""
    from kit.checks.result import CheckResult
    from kit.run.result import RunResult

    said = said or {}
    results = {i: CheckResult(id=i, verdict=v, summary=said.get(i, f"{i}: {v}"))
               for i, v in verdicts.items()}
    outcome = "fail" if "fail" in verdicts.values() else "pass"
    return RunResult("order-pipeline", "sol", "db_outage", 1, outcome, results).to_dict()


def _compared() -> dict[str, Any]:
    """A head against its base with one (fault, invariant) in every class but pass twice:
    a new, b flaky (its rerun passed), c unknown, f not reached, d still, e fixed."""
    from kit.report import compare, confirm

    base = [_side({"a": "pass", "b": "pass", "c": "error", "d": "fail", "e": "fail",
                   "f": "pass", "g": "pass", "h": "pass"})]
    head = [_side({"a": "fail", "b": "fail", "c": "fail", "d": "fail", "e": "pass",
                   "g": "pass", "h": "pass"}, said={"a": f"1 of 2 lost (e.g. {HOSTILE})"})]
    flaky = confirm.decide([(1, "pass", "fail"), (1001, "pass", "pass")])
    doc = {"scenario": "order-pipeline", "solution": "sol", "outcome": "fail",
           "command": "kit eval order-pipeline", "reward": 0.5, "reward_detail": {},
           "runs": head}
    return compare.attach(doc, doc | {"runs": base}, "new", given="origin/main",
                          ref=HOSTILE, commit="f" * 40, decisions={("db_outage", "b"): flaky})


def test_the_page_shows_the_base_versus_head_comparison_with_counts(tmp_path: Path) -> None:
    doc = _compared()
    page = html.render_page(doc, tmp_path)
    assert "<h1>kit: order-pipeline: fail</h1>" in page
    assert ("1 new failure, 1 flaky, 1 unknown, 1 not reached, 1 still failing, 1 fixed; "
            "2 passing on both") in page
    headings = ["New failures (this PR) (1)", "Flaky: did not reproduce in every rerun (1)",
                "Unknown: the kit could not judge one side (1)",
                "Not reached: the PR&#x27;s runs stopped before these (1)",
                "Still failing (already on the base) (1)", "Fixed by this PR (1)"]
    at = [page.index(f"<h3>{h}</h3>") for h in headings]
    assert at == sorted(at), "the classes in summary.md's order, new failures first"
    assert at[-1] < page.index('class="overview"')
    for kind, inv in (("new-failure", "a"), ("flaky", "b"), ("unknown", "c"),
                      ("not-reached", "f"), ("still-failing", "d"), ("fixed", "e")):
        section = page.split(f'class="changes changes-{kind}">', 1)[1].split("</ul>", 1)[0]
        assert f"<code>{inv}</code>" in section, kind
    assert '<a href="#run-0">db_outage (seed 1)</a>' in page
    assert "reruns: head failed 1 of 2, base failed 0 of 2" in page


def test_the_comparison_escapes_what_the_solution_and_the_base_ref_said(tmp_path: Path) -> None:
    page = html.render_page(_compared(), tmp_path)
    section = page.split('<section class="comparison">', 1)[1].split("</section>", 1)[0]
    parsed = _Page()
    parsed.feed(section)
    assert "script" not in parsed.tags and "img" not in parsed.tags
    assert section.count("&lt;script&gt;alert(1)&lt;/script&gt;") == 2  # ref, a's summary


def test_a_page_without_a_base_has_no_comparison(tmp_path: Path) -> None:
    doc = _compared()
    for key in ("comparison", "baseline", "verdict"):
        doc.pop(key)
    assert 'class="comparison"' not in html.render_page(doc, tmp_path)
