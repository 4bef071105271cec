"""Team mode's worker fields in scenario.yaml: workers.cwd, workers.service (team only) and
literal environment values (both trust modes), each refused with the file and field."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from kit import scenario
from kit.errors import InputError
from kit.run import bind

GOOD = scenario.SCENARIOS / "order-pipeline" / "scenario.yaml"
DRILL = scenario.SCENARIOS / "rds-recovery" / "scenario.yaml"


def _load(tmp_path: Path, data: dict[str, Any], source: Path = GOOD) -> scenario.Scenario:
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(data))
    shutil.copy(source.with_name("workload.py"), tmp_path)
    return scenario.load(path)


def _team(**workers: Any) -> dict[str, Any]:
    data = yaml.safe_load(GOOD.read_text())
    data["trust"] = "team"
    data["workers"].update(workers)
    return data


def test_literal_env_values_load_beside_bindings_and_resolve_as_written(
        tmp_path: Path) -> None:
    data = yaml.safe_load(GOOD.read_text())
    data["workers"]["env"]["LOG_LEVEL"] = {"value": "INFO"}
    sc = _load(tmp_path, data)  # untrusted: a literal grants nothing
    assert sc.workers is not None
    env = sc.workers.env
    assert isinstance(env["LOG_LEVEL"], scenario.EnvLiteral)
    binding = next(v for k, v in env.items() if k != "LOG_LEVEL")
    assert isinstance(binding, str)
    values = {binding: 42}
    assert bind.env_values({"A": binding, "LOG_LEVEL": env["LOG_LEVEL"]}, values) == {
        "A": "42", "LOG_LEVEL": "INFO"}


def test_a_runbook_takes_literal_env_values(tmp_path: Path) -> None:
    data = yaml.safe_load(DRILL.read_text())
    data["workload"]["drill"]["runbook"]["env"]["MODE"] = {"value": "drill"}
    sc = _load(tmp_path, data, DRILL)
    assert sc.workload.drill is not None
    assert sc.workload.drill.runbook.env["MODE"] == scenario.EnvLiteral(value="drill")


@pytest.mark.parametrize("value, field", [
    ({"value": 3}, "workers.env.LOG_LEVEL.EnvLiteral.value: Input should be a valid string"),
    ({"value": "INFO", "extra": 1}, "workers.env.LOG_LEVEL.EnvLiteral.extra"),
    ({"val": "INFO"}, "workers.env.LOG_LEVEL.EnvLiteral.value: Field required"),
    ("INFO", "workers.env.LOG_LEVEL: unknown binding 'INFO'"),
])
def test_a_bad_env_value_names_the_field(tmp_path: Path, value: Any, field: str) -> None:
    data = yaml.safe_load(GOOD.read_text())
    data["workers"]["env"]["LOG_LEVEL"] = value
    with pytest.raises(InputError) as caught:
        _load(tmp_path, data)
    assert str(tmp_path / "scenario.yaml") in str(caught.value)
    assert field in str(caught.value)


def test_team_fields_load_in_team_mode(tmp_path: Path) -> None:
    data = _team(cwd="app/worker", service="ecs-tasks.amazonaws.com")
    sc = _load(tmp_path, data)
    assert sc.trust == "team"
    assert sc.workers is not None
    assert (sc.workers.cwd, sc.workers.service) == ("app/worker", "ecs-tasks.amazonaws.com")


@pytest.mark.parametrize("workers, field", [
    ({"cwd": "app"}, "field workers.cwd: only a `trust: team` scenario"),
    ({"service": "ecs-tasks.amazonaws.com"}, "field workers.service: only a `trust: team`"),
])
def test_team_fields_are_refused_for_untrusted_scenarios(tmp_path: Path, workers: Any,
                                                         field: str) -> None:
    data = _team(**workers)
    data.pop("trust")
    with pytest.raises(InputError) as caught:
        _load(tmp_path, data)
    assert str(tmp_path / "scenario.yaml") in str(caught.value)
    assert field in str(caught.value)


@pytest.mark.parametrize("workers, field", [
    ({"cwd": "../outside"}, "field workers.cwd: '../outside' must be a directory relative"),
    ({"cwd": "/etc"}, "field workers.cwd: '/etc' must be a directory relative"),
    ({"service": "ecs tasks"}, "field workers.service: 'ecs tasks' is not a service"),
    ({"service": "arn:aws:iam::123456789012:root"}, "field workers.service:"),
])
def test_bad_team_fields_are_named(tmp_path: Path, workers: Any, field: str) -> None:
    with pytest.raises(InputError) as caught:
        _load(tmp_path, _team(**workers))
    assert field in str(caught.value)


def test_a_service_needs_iam_required_access_listed(tmp_path: Path) -> None:
    data = _team(service="ecs-tasks.amazonaws.com")
    data["invariants"].pop("iam.required_access", None)
    with pytest.raises(InputError, match="field workers.service: .*iam.required_access"):
        _load(tmp_path, data)


def test_trust_narrowed_is_refused_beside_a_service(tmp_path: Path) -> None:
    data = _team(service="ecs-tasks.amazonaws.com")
    data["faults"]["narrow"] = {"kind": "trust_narrowed", "target": "role.worker",
                                "duration_seconds": 5}
    with pytest.raises(InputError, match="field faults.narrow.kind: trust_narrowed is not "
                                         "supported with workers.service"):
        _load(tmp_path, data)
