"""`kit report merge` (kit/report/merge.py) and the base's checkout (kit/evaluate/baseline.py):
reports of one solution's parallel jobs merge into one, others are refused naming the file
and field; a git ref is exported (no checkout) into a temp dir gone afterwards, even on error."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from kit import cli, scenario
from kit.checks.result import CheckResult
from kit.errors import InputError
from kit.evaluate import baseline
from kit.report import compare, document, merge
from kit.run.result import RunResult


def _result(fault: str, verdicts: dict[str, str], seed: int = 1) -> RunResult:
    results = {i: CheckResult(id=i, verdict=v, summary=f"{i}: {v}", evidence={}, params={})
               for i, v in verdicts.items()}
    outcome = "fail" if "fail" in verdicts.values() else "pass"
    return RunResult("order-pipeline", "sol", fault, seed, outcome, results)


def _report(tmp: Path, name: str, fault: str, head: dict[str, str], base: dict[str, str],
            commit: str = "c" * 40, seed: int = 1) -> Path:
    """One CI job's report.json: one fault, the head and the base's runs."""
    sc = scenario.load("order-pipeline")
    src = {"top": "/ci", "path": ".", "commit": commit, "dirty": False}
    doc = document.build(sc, "/ci", [_result(fault, head, seed)],
                         f"kit eval order-pipeline --solution /ci --seed {seed} --fault {fault}",
                         source=src)
    base_doc = document.build(sc, "/tmp/base", [_result(fault, base, seed)], "kit eval")
    doc = compare.attach(doc, base_doc, "new", "origin/main", "origin/main", "b" * 40)
    return document.write(doc, tmp / name / "order-pipeline" / "20261201-000000" / "report.json")


def test_the_reports_of_parallel_jobs_merge_into_one(tmp_path: Path) -> None:
    _report(tmp_path, "job1", "none", {"a": "pass"}, {"a": "pass"})
    _report(tmp_path, "job2", "db_outage", {"a": "fail", "b": "fail"}, {"a": "pass", "b": "fail"})
    out = tmp_path / "merged"
    code = cli.main(["report", "merge", str(tmp_path / "job1"), str(tmp_path / "job2"),
                     "--out", str(out)])
    doc = json.loads((out / "report.json").read_text())
    assert code == cli.EXIT_FAIL  # the merged verdict: db_outage's new failure
    assert [r["fault"] for r in doc["runs"]] == ["none", "db_outage"]
    assert [r["fault"] for r in doc["baseline"]["runs"]] == ["none", "db_outage"]
    assert doc["outcome"] == "fail" and doc["reward_detail"]["judged_runs"] == 2
    found = {(e["fault"], e["invariant"]): e["status"] for e in doc["comparison"]}
    assert found == {("db_outage", "a"): "new failure", ("db_outage", "b"): "still failing",
                     ("none", "a"): "pass"}
    assert "--fault" not in doc["command"] and len(doc["merged_from"]) == 2
    summary = (out / "summary.md").read_text()
    assert "1 new failure, 1 still failing" in summary
    assert "db_outage" in (out / "junit.xml").read_text()


@pytest.mark.parametrize(("change", "field"), [
    ({"commit": "d" * 40}, "source.commit"), ({"seed": 2}, "seeds")])
def test_reports_of_another_commit_or_seed_are_refused(tmp_path: Path, change: dict,
                                                       field: str) -> None:
    first = _report(tmp_path, "job1", "none", {"a": "pass"}, {"a": "pass"})
    other = _report(tmp_path, "job2", "db_outage", {"a": "pass"}, {"a": "pass"}, **change)
    with pytest.raises(InputError, match=f"{other}: field {field} is .* but {first}"):
        merge.merge([first, other])


def test_a_run_in_two_reports_is_refused(tmp_path: Path) -> None:
    first = _report(tmp_path, "job1", "none", {"a": "pass"}, {"a": "pass"})
    again = _report(tmp_path, "job2", "none", {"a": "pass"}, {"a": "pass"})
    with pytest.raises(InputError, match="field runs: fault none seed 1 of the head"):
        merge.merge([first, again])


def test_merge_without_reports_says_which_directory(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    code = cli.main(["report", "merge", str(tmp_path), "--out", str(tmp_path / "o")])
    assert code == cli.EXIT_USAGE
    assert f"{tmp_path}: no report.json in it" in capsys.readouterr().err


# --- the base's checkout ------------------------------------------------------------------


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c",
                           "user.email=t@t", *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def _repo(tmp: Path) -> tuple[Path, str]:
    repo = tmp / "repo"
    (repo / "infra").mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    (repo / "infra" / "main.tf").write_text("# base\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    first = _git(repo, "rev-parse", "HEAD")
    (repo / "infra" / "main.tf").write_text("# head\n")
    _git(repo, "commit", "-qam", "head")
    return repo, first


def test_a_ref_is_exported_into_a_temp_dir_removed_afterwards(tmp_path: Path) -> None:
    repo, first = _repo(tmp_path)
    with baseline.checkout("main~1", repo / "infra") as base:
        assert (base.solution / "main.tf").read_text() == "# base\n"
        assert (base.ref, base.commit, base.shown) == ("main~1", first, "infra")
        tree = base.solution.parent
    assert not tree.parent.exists()  # the temp dir
    assert _git(repo, "worktree", "list").count("\n") == 0  # only the main work tree
    src = baseline.source(repo / "infra")
    assert src is not None and (src.path, src.dirty) == ("infra", False)
    assert baseline.relative(repo / "infra", src) == "infra"


def test_the_export_is_removed_on_an_error(tmp_path: Path) -> None:
    repo, _ = _repo(tmp_path)
    with pytest.raises(KeyboardInterrupt), baseline.checkout("main~1", repo) as base:
        holder = base.solution.parent
        raise KeyboardInterrupt  # Ctrl-C mid-run
    assert not holder.exists()
    assert _git(repo, "worktree", "list").count("\n") == 0


def test_an_unknown_ref_is_a_clear_error(tmp_path: Path) -> None:
    repo, _ = _repo(tmp_path)
    with pytest.raises(InputError, match="--baseline nope: neither a directory nor a commit"), \
            baseline.checkout("nope", repo):
        pass
    outside = tmp_path / "plain"
    outside.mkdir()
    with pytest.raises(InputError, match="is not in a git repository"), \
            baseline.checkout("main", outside):
        pass
