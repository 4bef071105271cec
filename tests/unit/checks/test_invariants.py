"""The invariant table is the one source of what the kit knows of an invariant: the checkers'
registry, the reward's gates and the judge's static and always-judged sets are read off it,
and an invariant's params are resolved once, at load, with errors naming file and field."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

import kit.checks
from kit import reward, scenario
from kit.checks import INVARIANTS, invariants
from kit.errors import InputError
from kit.history import History
from kit.reward import RewardSpec
from kit.run.judge import judge

from .builder import SCENARIO, HistoryBuilder

DRILL = scenario.load("rds-recovery")


def _checker_functions() -> dict[str, object]:
    """Every public `check_*` function of the kit's checker modules."""
    found = {}
    for module in pkgutil.iter_modules(kit.checks.__path__):
        loaded = importlib.import_module(f"kit.checks.{module.name}")
        found |= {f"{module.name}.{name}": f for name, f in inspect.getmembers(
            loaded, inspect.isfunction) if name.startswith("check_") and f.__module__ ==
            loaded.__name__}
    return found


def test_every_checker_of_the_kit_has_its_row_and_every_row_its_own_checker() -> None:
    rows = {row.check for row in INVARIANTS.values()}
    assert set(_checker_functions().values()) == rows
    assert len(rows) == len(INVARIANTS)  # no checker serves two ids
    assert all(row.id == i for i, row in INVARIANTS.items())
    assert invariants.checkers() == {i: row.check for i, row in INVARIANTS.items()}


def test_the_rows_say_what_the_kit_said_before_the_table() -> None:
    # The sets the kit listed in four places before (kit/checks REGISTRY/DEFAULT_PARAMS/
    # ALWAYS/DRILL_GATES, reward GATES, run STATIC/GATE_AND_DEPLOY), pinned: same verdicts.
    assert invariants.gates() == (
        "deploy.allowed_constructs", "deploy.applies", "workload.workers_start",
        "workload.fault_injected", "workload.producer_sends", "workload.kit_unharmed")
    assert set(invariants.static()) == {
        "iam.required_access", "iam.least_privilege", "iam.resource_exposure",
        "iam.permissions_boundary", "encryption.at_rest", "delivery.retention",
        "rds.hardening"}
    assert invariants.always("queue") == (
        "deploy.allowed_constructs", "deploy.applies", "workload.workers_start",
        "workload.fault_injected")
    assert invariants.always("drill") == (
        "deploy.allowed_constructs", "deploy.applies", "workload.fault_injected",
        "workload.app_writes")
    assert invariants.before_workload() == ("deploy.allowed_constructs", "deploy.applies")
    assert dict(INVARIANTS["recovery.within_rto"].defaults) == {"rto_seconds": 60.0}
    assert not hasattr(reward, "GATES") and not hasattr(kit.checks, "REGISTRY")


def test_defaults_are_read_only_and_each_resolution_a_fresh_copy() -> None:
    row = INVARIANTS["iam.least_privilege"]
    with pytest.raises(TypeError):
        row.defaults["services"] = []  # type: ignore[index]
    resolved = row.params()
    resolved["services"].append("s3")  # the caller's copy, not the table's
    assert "s3" not in row.params()["services"]


def test_the_reward_reads_each_rows_severity(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = RewardSpec()
    assert {i for i in INVARIANTS if spec.severity(i) == "gate"} == set(invariants.gates())
    assert spec.severity("ledger.per_group_order") == "major"  # a scenario's own: major
    # Change the row and the reward follows: it keeps no list of its own.
    row = INVARIANTS["delivery.no_loss"]
    monkeypatch.setitem(INVARIANTS, row.id, replace(row, severity="gate"))
    assert spec.severity(row.id) == "gate"
    assert RewardSpec(severities={row.id: "minor"}).severity(row.id) == "minor"


def _crash_looped() -> History:
    b = HistoryBuilder(seed=1)
    b.gate()
    b.deploy()
    b.worker_start("worker-0#0")
    b.op("kit", "crash_loop", exits=[{"worker": "worker-0#0", "code": 3, "lived_seconds": 0.1}],
         output={"worker-0": ["boom"]})
    return b.build()


def _fresh(sc: scenario.Scenario) -> scenario.Scenario:
    """A copy whose cached table, registry and params are read again from INVARIANTS."""
    return scenario.load(sc.directory / "scenario.yaml")


def test_the_judge_reads_the_static_and_always_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    # Nothing ran: judged on what needs no workload, the table's always and static rows.
    results, error = judge(SCENARIO, _crash_looped())
    assert error is None
    static = [i for i in SCENARIO.params if INVARIANTS[i].static]
    assert list(results) == [*invariants.always("queue"), *static]
    # A row made static is judged there too: the judge keeps no list of its own.
    row = INVARIANTS["delivery.no_loss"]
    monkeypatch.setitem(INVARIANTS, row.id, replace(row, stage="configuration"))
    results, _ = judge(_fresh(SCENARIO), _crash_looped())
    assert row.id in results


def test_the_judge_of_a_failed_deploy_and_of_a_drill_reads_the_rows() -> None:
    b = HistoryBuilder(seed=1)
    b.gate()
    b.deploy(ok=False)
    results, _ = judge(SCENARIO, b.build())
    assert tuple(results) == invariants.before_workload()
    b = HistoryBuilder(seed=1)
    b.gate()
    b.deploy()
    results, _ = judge(DRILL, b.build())  # it never wrote: nothing else to judge
    static = [i for i in DRILL.params if INVARIANTS[i].static]
    assert list(results) == [*invariants.always("drill"), *static]


def test_checkers_receive_the_params_the_scenario_resolved_once() -> None:
    assert SCENARIO.params["recovery.within_rto"] == {"rto_seconds": 30}
    assert SCENARIO.params["delivery.poison_to_dlq"] == INVARIANTS[
        "delivery.poison_to_dlq"].params({"max_receives": 5, "dlq": "queue.dlq"})
    results, _ = judge(SCENARIO, _crash_looped())
    assert all(results[i].params == SCENARIO.params[i] for i in results if i in SCENARIO.params)


def test_no_checker_resolves_its_params_again() -> None:
    # Resolved once, by the table's row at load: a checker module that resolves again
    # (kit.checks.params.resolve) would keep a second copy of the defaults.
    modules = {f.__module__ for f in _checker_functions().values()}
    again = [m for m in modules if "resolve(" in inspect.getsource(importlib.import_module(m))]
    assert not again, again


def test_a_scenarios_own_checks_are_rows_of_its_table() -> None:
    fifo = scenario.load("fifo-ledger")
    own = fifo.table["ledger.per_group_order"]
    assert own.severity == "major" and not own.static and own.always == ()
    assert fifo.registry["ledger.per_group_order"] is own.check
    assert set(fifo.table) == set(INVARIANTS) | set(fifo.own_checks)


@pytest.mark.parametrize(("given", "said"), [
    ({"recovery.within_rto": {"rto_secs": 3}},
     "invariants.recovery.within_rto: unknown parameter(s) rto_secs; valid: rto_seconds "
     "(default 60.0)"),
    ({"rds.hardening": {"min_backup_retention_days": "7", "database": "database.main"}},
     "invariants.rds.hardening: parameter min_backup_retention_days is '7', expected a "
     "positive integer (default 7)"),
    ({"delivery.poison_to_dlq": {"max_receives": 5, "dlq": ""}},
     "invariants.delivery.poison_to_dlq: parameter dlq is '', expected a name like"),
])
def test_a_bad_param_in_scenario_yaml_names_the_file_and_the_field(
        tmp_path: Path, given: dict, said: str) -> None:
    good = scenario.SCENARIOS / "order-pipeline" / "scenario.yaml"
    data = yaml.safe_load(good.read_text())
    data["invariants"] |= given
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(data))
    shutil.copy(good.with_name("workload.py"), tmp_path)
    with pytest.raises(InputError) as caught:
        scenario.load(path)
    assert str(caught.value).startswith(f"{path}: {said}"), caught.value


@pytest.mark.parametrize(("name", "named", "ok"), [
    ("order-pipeline", "workload.workers_start", True),
    ("rds-recovery", "workload.app_writes", True),  # a drill's always-judged gate
    ("rds-recovery", "workload.workers_start", False),  # no worker runs in a drill
])
def test_reward_severities_may_name_what_every_run_of_the_kind_judges(
        name: str, named: str, ok: bool) -> None:
    path = scenario.SCENARIOS / name / "scenario.yaml"
    raw = yaml.safe_load(path.read_text())
    raw["invariants"].pop(named, None)
    raw["reward"] = {"severities": {named: "minor"}}
    data = {**raw, "root": scenario.ROOT, "directory": path.parent}
    if ok:
        assert scenario.Scenario.model_validate(data).reward.severity(named) == "minor"
    else:
        with pytest.raises(ValueError, match="does not check: workload.workers_start"):
            scenario.Scenario.model_validate(data)


def test_a_new_invariant_is_its_checker_and_one_row(tmp_path: Path) -> None:
    # A scenario's own invariant: one Check in its checks.py (checker, defaults, the
    # behaviours it rests on) and its line under `invariants:`. Nothing else names it: the
    # registry, its resolved params and what a cross-check probes all come from that row.
    good = scenario.SCENARIOS / "order-pipeline"
    data = yaml.safe_load((good / "scenario.yaml").read_text())
    data["invariants"]["orders.dummy"] = {"limit": 3}
    (tmp_path / "scenario.yaml").write_text(yaml.safe_dump(data))
    shutil.copy(good / "workload.py", tmp_path)
    (tmp_path / "checks.py").write_text(
        "from kit.workload.api import Check\n\n"
        "def check_dummy(history, params):\n    raise NotImplementedError\n\n"
        "CHECKS = {'orders.dummy': Check(check_dummy, {'limit': 1},\n"
        "                                relied_on=('sqs.visibility_timeout',))}\n")
    sc = scenario.load(tmp_path / "scenario.yaml")
    row = sc.table["orders.dummy"]
    assert sc.registry["orders.dummy"] is row.check
    assert sc.params["orders.dummy"] == {"limit": 3}
    assert row.relied_on == ("sqs.visibility_timeout",) and row.category == "behaviour"
    assert "orders.dummy" not in invariants.hardening_ids(sc.table)
