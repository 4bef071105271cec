"""trust: team and terraform.* in scenario.yaml: defaults, refusals, the .kit layout."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml

from kit import scenario
from kit.cli import common as cli_common
from kit.deploy.hcl import NOT_COPIED
from kit.errors import InputError
from kit.variants import Variant, materialize

GOOD = scenario.SCENARIOS / "order-pipeline" / "scenario.yaml"


def _team_repo(tmp_path: Path, **fields: object) -> Path:
    """A repository with .kit/scenarios/order-pipeline (the shipped yaml, team fields)."""
    folder = tmp_path / "repo" / ".kit" / "scenarios" / "order-pipeline"
    folder.mkdir(parents=True)
    data = yaml.safe_load(GOOD.read_text()) | fields
    (folder / "scenario.yaml").write_text(yaml.safe_dump(data))
    shutil.copy(GOOD.with_name("workload.py"), folder)
    return folder / "scenario.yaml"


@pytest.mark.parametrize("name", sorted(p.parent.name for p in
                                        scenario.SCENARIOS.glob("*/scenario.yaml")))
def test_every_shipped_scenario_is_untrusted(name: str) -> None:
    loaded = scenario.load(name)
    assert loaded.trust == "untrusted"
    assert loaded.repository is None and loaded.module_cache is None


def test_trust_team_is_refused_for_the_kits_own_scenarios(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    # The shipped yaml with trust: team, in a folder taken for the kit's scenarios/ root.
    path = _team_repo(tmp_path, trust="team")
    monkeypatch.setattr(scenario, "SCENARIOS", path.parent.parent)
    with pytest.raises(InputError) as caught:
        scenario.load(path)
    message = str(caught.value)
    assert str(path) in message and "field trust" in message
    monkeypatch.undo()
    assert scenario.load(path).trust == "team"  # the same file elsewhere: a team's


def test_a_team_scenario_under_dot_kit_judges_the_repository(tmp_path: Path) -> None:
    loaded = scenario.load(_team_repo(tmp_path, trust="team",
                                      terraform={"dir": "infra", "modules": ".kit/modules"}))
    repo = tmp_path / "repo"
    assert loaded.golden == repo.resolve()
    assert loaded.variants_dir == (repo / ".kit" / "variants" / "order-pipeline").resolve()
    assert loaded.module_cache == (repo / ".kit" / "modules").resolve()
    assert loaded.terraform.dir == "infra"


def test_an_untrusted_scenario_under_dot_kit_keeps_golden_beside_it(tmp_path: Path) -> None:
    loaded = scenario.load(_team_repo(tmp_path))
    assert loaded.golden == (tmp_path / "repo" / ".kit" / "golden" / "order-pipeline").resolve()


@pytest.mark.parametrize("fields, named", [
    ({"terraform": {"modules": ".kit/modules"}}, "terraform.modules"),
    ({"trust": "team", "terraform": {"dir": "../infra"}}, "terraform"),
    ({"trust": "team", "terraform": {"dir": "/abs"}}, "terraform"),
    ({"trust": "trusted"}, "field trust"),
    ({"trust": "team", "terraform": {"root": "infra"}}, "terraform.root"),
])
def test_bad_team_fields_name_the_file_and_field(tmp_path: Path, fields: dict[str, object],
                                                 named: str) -> None:
    path = _team_repo(tmp_path, **fields)
    with pytest.raises(InputError) as caught:
        scenario.load(path)
    assert str(path) in str(caught.value) and named in str(caught.value)


def test_dot_kit_git_and_terraform_are_not_copied_into_a_variant(tmp_path: Path) -> None:
    path = _team_repo(tmp_path, trust="team")
    repo = tmp_path / "repo"
    for part in (".git/config", ".terraform/modules/modules.json", "infra/main.tf"):
        (repo / part).parent.mkdir(parents=True, exist_ok=True)
        (repo / part).write_text("x\n")
    patch = tmp_path / "v" / "change.patch"
    patch.parent.mkdir()
    patch.write_text("--- a/infra/main.tf\n+++ b/infra/main.tf\n@@ -1 +1 @@\n-x\n+y\n")
    variant = Variant.model_validate({"name": "v", "defect": "d", "why": "w",
                                      "fault": "none", "must_fail": ["delivery.no_loss"],
                                      "path": patch.parent})
    made = materialize(scenario.load(path), variant, tmp_path / "made")
    assert sorted(p.name for p in made.iterdir()) == ["infra"]
    assert (made / "infra" / "main.tf").read_text() == "y\n"
    assert ".kit" in NOT_COPIED


def _with_resources(tmp_path: Path, **resources: dict[str, str]) -> Path:
    data = yaml.safe_load(GOOD.read_text())
    data["resources"] |= resources
    return _team_repo(tmp_path, trust="team", resources=data["resources"])


def test_a_resource_may_be_bound_by_address(tmp_path: Path) -> None:
    loaded = scenario.load(_with_resources(
        tmp_path, **{"role.extra": {"address": "module.iam.aws_iam_role.this"}}))
    assert loaded.resources["role.extra"] == {"address": "module.iam.aws_iam_role.this"}


@pytest.mark.parametrize("attrs, named", [
    ({"address": "data.aws_iam_role.x"}, "resources.role.extra.address: 'data.aws_iam_role"),
    ({"address": "aws_iam_role.x", "arn": "outputs.worker_role_arn"}, "resources.role.extra:"),
    ({}, "resources.role.extra: a role is declared by its `arn` alone"),
])
def test_an_address_binding_is_checked_at_load(tmp_path: Path, attrs: dict[str, str],
                                               named: str) -> None:
    path = _with_resources(tmp_path, **{"role.extra": attrs})
    with pytest.raises(InputError) as caught:
        scenario.load(path)
    assert str(path) in str(caught.value) and named in str(caught.value)


def test_resource_values_read_an_address_from_the_state(tmp_path: Path) -> None:
    from kit.run.bind import Unlocated, resource_values

    loaded = scenario.load(_with_resources(
        tmp_path, **{"role.extra": {"address": "module.iam.aws_iam_role.this"}}))
    state = {"resources": [{"module": "module.iam", "mode": "managed", "type": "aws_iam_role",
                            "name": "this", "instances": [{"attributes": {
                                "arn": "arn:aws:iam::1:role/extra"}}]}]}
    only = loaded.model_copy(update={"resources": {"role.extra": loaded.resources["role.extra"]}})
    assert resource_values(only, {}, None, state) == {
        "role.extra.arn": "arn:aws:iam::1:role/extra", "role.extra.name": "extra"}
    renamed = {"resources": [{**state["resources"][0], "name": "that"}]}
    with pytest.raises(Unlocated, match="the state has: module.iam.aws_iam_role.that"):
        resource_values(only, {}, None, renamed)


def test_a_database_named_by_arn_keeps_its_region(tmp_path: Path) -> None:
    # A standby instance in another Region (an alias provider) is named by its ARN; an
    # identifier alone names one in the kit's Region.
    from kit.run.bind import resource_values

    # (bound to an output the fixture's module has; the value is what the test gives it)
    loaded = scenario.load(_with_resources(tmp_path, **{
        "database.standby": {"instance": "outputs.worker_role_arn"}}))
    only = loaded.model_copy(update={"resources": {
        n: loaded.resources[n] for n in ("database.standby", "database.main")}})
    west = "arn:aws:rds:us-west-2:123456789012:db:ledger-dr"
    assert resource_values(only, {"outputs.worker_role_arn": west,
                                  "outputs.db_instance_identifier": "ledger"}, None) == {
        "database.standby.instance": west, "database.standby.arn": west,
        "database.main.instance": "ledger",
        "database.main.arn": "arn:aws:rds:us-east-1:123456789012:db:ledger"}


def test_the_solution_must_hold_terraform_in_its_terraform_dir(tmp_path: Path) -> None:

    repo = tmp_path / "repo"
    (repo / "infra").mkdir(parents=True)
    with pytest.raises(InputError, match=r"no \*\.tf file in infra/ \(terraform.dir\)"):
        cli_common.solution_path(str(repo), repo, "infra")
    (repo / "infra" / "main.tf").write_text("\n")
    assert cli_common.solution_path(None, repo, "infra") == repo


def test_kit_finds_a_team_scenario_under_dot_kit(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from kit import cli

    _team_repo(tmp_path, trust="team")
    monkeypatch.setenv(scenario.ENV_ROOTS, "")
    seen: list[str] = []
    monkeypatch.setitem(cli.COMMANDS, "list", lambda args: seen.append(
        scenario.load("order-pipeline").trust) or 0)
    assert cli.main(["list", "--names", "--scenarios", str(tmp_path / "repo" / ".kit")]) == 0
    assert seen == ["team"]  # the team's root comes first for the command
    # ... and only for it: an in-process caller gets its own search path back.
    assert os.environ[scenario.ENV_ROOTS] == ""
    assert scenario.load("order-pipeline").trust != "team"
