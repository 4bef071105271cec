"""`workers: {kind: lambda, function, source}` in scenario.yaml: validated at load, each
error naming the file and the field; `function` is a resource of the kind `function`."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from kit import bindings, scenario
from kit.errors import InputError

GOOD = scenario.SCENARIOS / "order-pipeline" / "scenario.yaml"


def _lambda(data: dict[str, Any]) -> dict[str, Any]:
    data["resources"]["function.consumer"] = {"arn": "outputs.queue_url"}
    data["workers"] = {"kind": "lambda", "function": "function.consumer",
                       "role": "role.worker", "source": "app"}
    for fault in ("worker_crash", "lost_deletes"):
        data["faults"].pop(fault, None)
    return data


def _load(tmp_path: Path, mutate: Any) -> scenario.Scenario:
    data = mutate(yaml.safe_load(GOOD.read_text()))
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(data))
    shutil.copy(GOOD.with_name("workload.py"), tmp_path)
    return scenario.load(path)


def test_a_lambda_consumer_loads(tmp_path: Path) -> None:
    loaded = _load(tmp_path, _lambda)
    assert loaded.workers is not None
    assert (loaded.workers.kind, loaded.workers.function, loaded.workers.source) == (
        "lambda", "function.consumer", "app")
    assert "lambda" in loaded.aws_services


def test_process_stays_the_default(tmp_path: Path) -> None:
    loaded = _load(tmp_path, lambda d: d)
    assert loaded.workers is not None and loaded.workers.kind == "process"


def _set(**workers: Any) -> Any:
    def mutate(data: dict[str, Any]) -> dict[str, Any]:
        data = _lambda(data)
        data["workers"].update(workers)
        data["workers"] = {k: v for k, v in data["workers"].items() if v is not None}
        return data
    return mutate


@pytest.mark.parametrize("mutate, field", [
    (_set(function=None), "workers: Value error, kind lambda needs `function`"),
    (_set(function="function.nope"),
     "workers.function: 'function.nope' is not a declared function"),
    (_set(function="queue.orders"), "workers.function: 'queue.orders' is not a declared"),
    (_set(source="../elsewhere"), "workers: Value error, source '../elsewhere' must be"),
    (_set(env={"X": "queue.orders.url"}), "kind lambda takes its environment"),
    (_set(kind="container"), "workers.kind"),
    (lambda d: {**d, "workers": {**d["workers"], "function": "function.consumer"}},
     "`function` and `source` are for kind lambda only"),
])
def test_a_bad_lambda_field_names_the_file_and_field(tmp_path: Path, mutate: Any,
                                                     field: str) -> None:
    with pytest.raises(InputError) as caught:
        _load(tmp_path, mutate)
    assert str(tmp_path / "scenario.yaml") in str(caught.value)
    assert field in str(caught.value)


def test_function_is_a_resource_kind_of_the_lambda_service() -> None:
    assert bindings.ATTRIBUTES["function"] == ("arn", "name")
    assert bindings.SERVICES["function"] == ("lambda",)
    assert bindings.check_resource_name("function.consumer") == "function"


@pytest.mark.parametrize("kind", ["function_timeout", "function_throttle"])
def test_function_faults_aim_at_a_function(tmp_path: Path, kind: str) -> None:
    def mutate(data: dict[str, Any]) -> dict[str, Any]:
        data = _lambda(data)
        data["faults"]["slow"] = {"kind": kind, "target": "queue.orders",
                                  "duration_seconds": 5}
        return data
    with pytest.raises(InputError, match=f"faults.slow.target: {kind} aims at a function"):
        _load(tmp_path, mutate)
    ok = _lambda
    assert _load(tmp_path, lambda d: (ok(d), d["faults"].update(slow={
        "kind": kind, "target": "function.consumer", "duration_seconds": 5})) and d)


def test_clock_skew_is_refused_for_a_lambda_consumer(tmp_path: Path) -> None:
    def mutate(data: dict[str, Any]) -> dict[str, Any]:
        data = _lambda(data)
        data["faults"]["skew"] = {"kind": "clock_skew", "target": "workers",
                                  "duration_seconds": 5}
        return data
    with pytest.raises(InputError, match="faults.skew.kind: clock_skew is not supported"):
        _load(tmp_path, mutate)
