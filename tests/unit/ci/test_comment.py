"""kit comment: one sticky PR comment, created on the first push and updated on the next,
never duplicated, against a fake GitHub API on loopback (tests/fakegithub.py) and a fake
`pull_request` event payload, through the real command line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kit import cli
from kit.ci import comment, github
from kit.errors import InputError
from tests import fakegithub

REPO = "acme/infra"


def _reports(tmp: Path, text: str) -> Path:
    """A --out directory as kit eval writes it: <out>/<scenario>/<stamp>/summary.md."""
    run = tmp / "kit-reports" / "orders" / "20261201-200000"
    run.mkdir(parents=True, exist_ok=True)
    (run / "summary.md").write_text(text)
    (run / "junit.xml").write_text("<testsuites/>")
    return tmp / "kit-reports"


def _env(tmp: Path, api: str, event: dict) -> dict[str, str]:
    path = tmp / "event.json"
    path.write_text(json.dumps(event))
    return {"GITHUB_API_URL": api, "GITHUB_REPOSITORY": REPO, "GITHUB_EVENT_PATH": str(path),
            "GITHUB_TOKEN": "ghs_workflowtoken", "GITHUB_SERVER_URL": "https://github.example",
            "GITHUB_RUN_ID": "42"}


def _pull_request(number: int) -> dict:
    return {"action": "synchronize", "number": number,
            "pull_request": {"number": number, "head": {"sha": "abc"}}}


def test_created_once_then_updated_never_duplicated(tmp_path: Path, monkeypatch, capsys):
    with fakegithub.serve(REPO) as (api, state):
        # Other people's comments, some before the kit's: enough for two pages.
        for i in range(github.PER_PAGE + 5):
            state.add(7, f"review comment {i}")
        for key, value in _env(tmp_path, api, _pull_request(7)).items():
            monkeypatch.setenv(key, value)
        first = _reports(tmp_path, "## kit: `orders`: **FAIL**\n\nfirst push")
        assert cli.main(["comment", "--report", str(first)]) == 0
        assert "comment created" in capsys.readouterr().err
        _reports(tmp_path, "## kit: `orders`: pass\n\nsecond push")
        assert cli.main(["comment", "--report", str(first)]) == 0
        assert "comment updated" in capsys.readouterr().err
        mine = [c for c in state.on(7) if comment.MARKER.format(name="kit") in c["body"]]
    assert len(mine) == 1, "the second push must update the comment, not add one"
    assert "second push" in mine[0]["body"] and "first push" not in mine[0]["body"]
    assert "https://github.example/acme/infra/actions/runs/42" in mine[0]["body"]
    assert [m for m, *_ in state.requests].count("POST") == 1
    assert [m for m, *_ in state.requests].count("PATCH") == 1
    assert {token for *_, token in state.requests} == {"Bearer ghs_workflowtoken"}


def test_marker_on_a_later_page_is_found(tmp_path: Path):
    with fakegithub.serve(REPO) as (api, state):
        for i in range(github.PER_PAGE + 3):
            state.add(3, f"chatter {i}")
        state.add(3, comment.MARKER.format(name="kit") + "\nold")
        posted = comment.post(_reports(tmp_path, "new"), env=_env(tmp_path, api,
                                                                  _pull_request(3)))
        assert posted.action == "updated"
        assert sum("kit-pr-check" in c["body"] for c in state.on(3)) == 1


def test_one_comment_per_check_name(tmp_path: Path):
    with fakegithub.serve(REPO) as (api, state):
        env = _env(tmp_path, api, _pull_request(5))
        report = _reports(tmp_path, "x")
        assert comment.post(report, "orders", env).action == "created"
        assert comment.post(report, "ledger", env).action == "created"
        assert comment.post(report, "orders", env).action == "updated"
        assert len(state.on(5)) == 2


def test_not_a_pull_request_posts_nothing(tmp_path: Path):
    with fakegithub.serve(REPO) as (api, state):
        posted = comment.post(_reports(tmp_path, "x"),
                              env=_env(tmp_path, api, {"ref": "refs/heads/main"}))
    assert posted.action == "skipped" and state.requests == []


def test_a_read_only_token_skips_without_failing_the_check(tmp_path: Path):
    with fakegithub.serve(REPO) as (api, state):
        state.forbid_writes = True
        posted = comment.post(_reports(tmp_path, "x"), env=_env(tmp_path, api,
                                                                _pull_request(9)))
    assert posted.action == "skipped" and "403" in posted.note


def test_a_long_summary_is_cut_at_a_line_under_githubs_limit(tmp_path: Path):
    text = "\n".join(f"| `inv.{i}` | pass |" for i in range(8000))
    out = comment.body(_reports(tmp_path, text), "kit")
    assert len(out) <= 65536 and "more characters" in out
    kept = [line for line in out.splitlines() if line.startswith("|")]
    assert kept and all(line.endswith("| pass |") for line in kept), "cut mid-line"


@pytest.mark.parametrize(("missing", "said"), [("GITHUB_TOKEN", "GITHUB_TOKEN"),
                                               ("GITHUB_REPOSITORY", "GITHUB_REPOSITORY")])
def test_missing_environment_is_named(tmp_path: Path, missing: str, said: str):
    env = _env(tmp_path, "http://127.0.0.1:9", _pull_request(1))
    del env[missing]
    with pytest.raises(InputError, match=said):
        comment.post(_reports(tmp_path, "x"), env=env)


def test_bad_event_payload_names_the_file_and_field(tmp_path: Path):
    env = _env(tmp_path, "http://127.0.0.1:9", {"pull_request": {"title": "no number"}})
    with pytest.raises(InputError, match=r"event\.json: field pull_request\.number"):
        comment.post(_reports(tmp_path, "x"), env=env)
    Path(env["GITHUB_EVENT_PATH"]).write_text("{not json")
    with pytest.raises(InputError, match="GITHUB_EVENT_PATH .*event.json"):
        comment.post(_reports(tmp_path, "x"), env=env)


def test_report_without_summary_is_an_input_error(tmp_path: Path, capsys):
    (tmp_path / "empty").mkdir()
    assert cli.main(["comment", "--report", str(tmp_path / "empty")]) == cli.EXIT_USAGE
    assert "no summary.md" in capsys.readouterr().err


def test_dry_run_prints_the_body_offline(tmp_path: Path, monkeypatch, capsys):
    for key in [k for k in os.environ if k.startswith("GITHUB_")]:
        monkeypatch.delenv(key)
    report = _reports(tmp_path, "## kit: `orders`: **FAIL**\n\ndry")
    assert cli.main(["comment", "--report", str(report), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out == comment.body(report, "kit")
    assert out.startswith(comment.MARKER.format(name="kit")) and "dry" in out


def test_dry_run_posts_nothing_even_on_a_pull_request(tmp_path: Path, monkeypatch, capsys):
    with fakegithub.serve(REPO) as (api, state):
        for key, value in _env(tmp_path, api, _pull_request(4)).items():
            monkeypatch.setenv(key, value)
        report = _reports(tmp_path, "body")
        assert cli.main(["comment", "--report", str(report), "--name", "ledger",
                         "--dry-run"]) == 0
        assert state.requests == [] and state.on(4) == []
    out = capsys.readouterr().out
    assert out.startswith(comment.MARKER.format(name="ledger"))
    assert "actions/runs/42" in out, "the footer a real post would carry is shown too"
