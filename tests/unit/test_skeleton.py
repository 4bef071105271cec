"""`kit new-scenario`: a skeleton that loads but cannot pass until it is filled in."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit import cli, scenario, skeleton
from kit.errors import InputError


def test_the_skeleton_loads_from_its_own_root(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli.main(["new-scenario", "team-ledger", "--root", str(tmp_path)]) == cli.EXIT_OK
    monkeypatch.setenv(scenario.ENV_ROOTS, str(tmp_path))
    sc = scenario.load("team-ledger")
    assert sc.root == tmp_path.resolve() and sc.golden == tmp_path.resolve() / "golden" / \
        "team-ledger"
    # Nothing in it can pass yet: the workload module refuses, the golden has no Terraform.
    with pytest.raises(NotImplementedError, match="team-ledger/workload.py: plan"):
        sc.workload_module.plan(1, sc.workload_params)
    assert not list(sc.golden.glob("*.tf"))


def test_validate_refuses_a_scenario_without_a_defect_variant(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    skeleton.create("team-ledger", tmp_path)
    code = cli.main(["validate", "team-ledger", "--scenarios", str(tmp_path)])
    assert code == cli.EXIT_USAGE
    assert "no one-defect variant" in " ".join(capsys.readouterr().err.split())


@pytest.mark.parametrize("name", ["Team", "x", "has space", "../up"])
def test_a_bad_name_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(InputError, match="lower-case"):
        skeleton.create(name, tmp_path)


def test_an_existing_scenario_is_never_overwritten(tmp_path: Path) -> None:
    skeleton.create("team-ledger", tmp_path)
    with pytest.raises(InputError, match="already exists"):
        skeleton.create("team-ledger", tmp_path)


def test_a_root_without_scenarios_is_refused(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list", "--scenarios", str(tmp_path)]) == cli.EXIT_USAGE
    assert "no scenarios/ folder" in capsys.readouterr().err


def test_a_team_skeleton_loads_in_the_repositorys_kit_root(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    assert cli.main(["new-scenario", "orders-check", "--team", "--root", str(repo)]) == \
        cli.EXIT_OK
    assert sorted(p.name for p in (repo / ".kit" / "scenarios" / "orders-check").iterdir()) \
        == ["scenario.yaml", "workload.py"]
    assert (repo / ".kit" / "variants" / "orders-check").is_dir()
    assert not (repo / "golden").exists()
    monkeypatch.setenv(scenario.ENV_ROOTS, str(repo / ".kit"))
    sc = scenario.load("orders-check")
    # The repository itself is what validate judges as golden, checked as a team's.
    assert sc.trust == "team" and sc.golden == repo.resolve()
    assert sc.workers is not None and sc.workers.cwd == "app/worker"
    with pytest.raises(NotImplementedError, match="orders-check/workload.py: plan"):
        sc.workload_module.plan(1, sc.workload_params)
