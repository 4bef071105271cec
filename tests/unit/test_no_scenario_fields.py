"""Nothing under kit/ knows a shipped scenario's own field names (issue 23).

A scenario declares its names in its own files: the message key and fields, its effects
table and the columns its invariants read, the outputs and variables of its contract, the
resources they bind, the environment of its workers and runbook, its workload params and
the fields its workload.py describes. The kit reads them from there; a name of one of them
written into kit/ (a string literal, an attribute or a keyword argument) is a scenario
leaking into the kit, and the next scenario would silently not get it.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from kit import scenario

REPO = Path(__file__).resolve().parents[2]
KIT = REPO / "kit"
SHIPPED = ("order-pipeline", "fifo-ledger", "iam-boundary", "rds-recovery")
# Invariant parameters that name a table or its columns (idempotency.effects_once's totals).
COLUMN_PARAMS = {"table", "key", "value", "sum", "count", "column"}

# Words a scenario uses that are not its own: each is the kit's (or AWS's) vocabulary.
ALLOWED = {
    # AWS's and moto's own terms, which a contract's output names echo.
    "queue_url": "the producer's queue URL (kit/workload/producer.py); the SQS API term",
    "db_instance_identifier": "RDS's DBInstanceIdentifier (incidents, moto's attributes)",
    "bucket_name": "moto's S3 bucket attribute (kit/sandbox/fidelity/s3.py)",
    "account_id": "the AWS account id (moto's attribute)",
    # The kit's own concepts, which a workload param happens to count.
    "poison": "the kit's name for a message describe() says is not valid",
    "jobs": "`kit validate --jobs` (parallel rows)",
    # The kit's drill application writes its own schema (kit/workload/app.py SCHEMA, read by
    # kit/checks/consistency.py and recovery_point.py); a drill's workload.py plans bodies
    # in that shape, so rds-recovery's describe() fields are the kit's names, not its own.
    "txn_id": "column of the drill app's ledger table (kit/workload/app.py)",
    "account": "column of the drill app's ledger and accounts tables",
    "amount": "column of the drill app's ledger table",
    "accounts": "the drill app's totals table (rds-recovery's param counts its rows)",
    # Conventional resource names the kit's invariants take as defaults (kit/checks:
    # delivery's dlq, deletion's and hardening's database, boundary's policy); every
    # shipped scenario names them in scenario.yaml. Owned by the invariant table (issue 23
    # point 3): dropping the defaults is that part's call, not this test's.
    "queue.dlq": "delivery.poison_to_dlq / no_valid_in_dlq default dlq",
    "database.main": "rds.hardening / rds.deletion_protected default database",
    "policy.boundary": "iam.boundary default policy",
}


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        yield from (k for k in value if isinstance(k, str))
    elif isinstance(value, list):
        yield from (v for v in value if isinstance(v, str))


def _columns(params: Any) -> Iterator[str]:
    """Table and column names among an invariant's parameters (at any depth)."""
    if isinstance(params, dict):
        for key, value in params.items():
            if key in COLUMN_PARAMS and isinstance(value, str):
                yield value
            yield from _columns(value)
    elif isinstance(params, list):
        for value in params:
            yield from _columns(value)


def scenario_fields(name: str) -> dict[str, str]:
    """Every name scenario `name` defines -> where it defines it."""
    doc = yaml.safe_load((REPO / "scenarios" / name / "scenario.yaml").read_text())
    contract, workload = doc.get("contract") or {}, doc.get("workload") or {}
    messages, drill = doc.get("messages") or {}, workload.get("drill") or {}
    declared = {
        "contract.variables": contract.get("variables"),
        "contract.outputs": contract.get("outputs"),
        "resources": doc.get("resources"),
        "workers.env": (doc.get("workers") or {}).get("env"),
        "messages.key": messages.get("key"), "messages.fields": messages.get("fields"),
        "workload.effects.table": (workload.get("effects") or {}).get("table"),
        "workload.params": workload.get("params"),
        "workload.drill.runbook.env": (drill.get("runbook") or {}).get("env"),
        "invariants (tables and columns)": list(_columns(doc.get("invariants"))),
    }
    found: dict[str, str] = {}
    for where, value in declared.items():
        for field in _strings(value):
            found.setdefault(field, where)
    loaded = scenario.load(name)
    module = loaded.workload_module
    for field in module.params_model.model_fields:
        found.setdefault(field, "workload.py Params")
    for send in module.plan(1, loaded.workload_params):
        for field in module.describe(send.body).fields:
            found.setdefault(field, "workload.py describe() fields")
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, kinds) and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}


@functools.cache  # one parse of kit/ for all the scenarios
def names_used(root: Path) -> dict[str, list[str]]:
    """Every string literal (docstrings aside), attribute and keyword argument name in the
    Python files under `root` -> where ("path:line")."""
    used: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        prose = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in prose:
                name = node.value
            elif isinstance(node, ast.Attribute):
                name = node.attr
            elif isinstance(node, ast.keyword) and node.arg:
                name = node.arg
            else:
                continue
            used.setdefault(name, []).append(f"{path.relative_to(root.parent)}:{node.lineno}")
    return used


def leaks(root: Path, fields: dict[str, str]) -> list[str]:
    """The scenario names (not allowed) used under `root`, each with where."""
    used = names_used(root)
    return [f"{name!r} ({where}) at {', '.join(used[name][:3])}"
            for name, where in sorted(fields.items()) if name in used and name not in ALLOWED]


@pytest.mark.parametrize("name", SHIPPED)
def test_kit_names_no_field_of_a_shipped_scenario(name: str) -> None:
    found = leaks(KIT, scenario_fields(name))
    assert not found, (f"kit/ names {name}'s own fields: {found}; read them from the "
                       "scenario (scenario.yaml, its workload.py) instead")


def test_the_scenario_fields_are_collected() -> None:
    fields = scenario_fields("order-pipeline")
    assert {fields["order_id"], fields["amount_cents"]} == {"messages.key", "messages.fields"}
    assert fields["customer_balances"] == fields["balance_cents"] == \
        "invariants (tables and columns)"
    assert fields["orders"] == "workload.effects.table"
    assert fields["queue_url"] == "contract.outputs" and fields["QUEUE_URL"] == "workers.env"
    assert scenario_fields("rds-recovery")["ENDPOINT_SECRET_ARN"] == \
        "workload.drill.runbook.env"


def test_a_planted_name_fails(tmp_path: Path) -> None:
    kit = tmp_path / "kit"
    (kit / "checks").mkdir(parents=True)
    (kit / "checks" / "planted.py").write_text(
        '"""Mentions customer_id in prose only: fine."""\n'
        "def total(row, op):\n"
        '    return row["customer_id"] + op.value.amount_cents\n'
        "def send(recorder):\n"
        "    recorder.record('p', 'send', order_id='o-1', queue_url='kept: allowed')\n")
    found = leaks(kit, scenario_fields("order-pipeline"))
    assert [f.split(" ")[0] for f in found] == ["'amount_cents'", "'customer_id'",
                                                "'order_id'"]
    assert "kit/checks/planted.py:3" in found[0]
