"""DynamoDB as the effect store: the `table` kind, `workload.effects.dynamodb` (validated at
load), items read back from DynamoDB JSON, and the effect checkers judging them."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml
from boto3.dynamodb.types import TypeSerializer
from botocore.exceptions import ClientError
from pydantic import ValidationError

from kit import bindings, scenario
from kit.checks.delivery import check_no_loss
from kit.checks.idempotency import check_effects_once
from kit.errors import InputError
from kit.history import FinalState, History
from kit.iam.effective import _fits
from kit.run.bind import table_arn
from kit.scenario import Effects
from kit.workload import final
from tests.conftest import ROOT
from tests.unit.checks.builder import healthy_run, params_of

FIXTURE = ROOT / "tests" / "fixtures" / "dynamodb-orders" / "scenarios" / "dynamodb-orders"
TOTALS = {"table": "table.balances", "key": "customer_id", "value": "balance_cents",
          "sum": "amount_cents"}
_SERIALIZE = TypeSerializer()


# --- the kind and the field ----------------------------------------------------------------


def test_a_table_is_named_and_has_an_arn_in_dynamodb() -> None:
    assert bindings.ATTRIBUTES["table"] == ("name", "arn")
    assert bindings.declared_attribute("table") == "name"
    assert bindings.SERVICES["table"] == ("dynamodb",)
    bindings.check("table.effects.arn", outputs=(), resources=["table.effects"], params=())
    with pytest.raises(bindings.BindingError, match="a table has name, arn"):
        bindings.check("table.effects.url", outputs=(), resources=["table.effects"],
                       params=())
    assert table_arn("order-effects") == \
        "arn:aws:dynamodb:us-east-1:123456789012:table/order-effects"


@pytest.mark.parametrize("given", [
    {"dynamodb": "table.effects", "bucket": "bucket.results"},
    {"dynamodb": "table.effects", "database": "database.main", "table": "orders"},
    {"dynamodb": "table.effects", "prefix": "results/"},
    {},
])
def test_exactly_one_store(given: dict[str, str]) -> None:
    with pytest.raises(ValidationError):
        Effects.model_validate(given)


def test_a_dynamodb_store_is_a_table_resource() -> None:
    effects = Effects.model_validate({"dynamodb": "table.effects"})
    assert (effects.kind, effects.field, effects.resource) == (
        "table", "dynamodb", "table.effects")


def _fixture_variant(tmp_path: Path, change: Any) -> Path:
    """The fixture scenario, changed, in a root of its own."""
    data = yaml.safe_load((FIXTURE / "scenario.yaml").read_text())
    change(data)
    folder = tmp_path / "scenarios" / "dynamodb-orders"
    folder.mkdir(parents=True)
    (folder / "scenario.yaml").write_text(yaml.safe_dump(data))
    (folder / "workload.py").write_text((FIXTURE / "workload.py").read_text())
    return folder / "scenario.yaml"


def test_the_fixture_loads_and_reaches_dynamodb() -> None:
    loaded = scenario.load(FIXTURE / "scenario.yaml")
    assert loaded.workload.effects is not None
    assert loaded.workload.effects.dynamodb == "table.effects"
    assert "dynamodb" in loaded.aws_services


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["workload"].update(effects={"dynamodb": "queue.orders"}),
     "field workload.effects.dynamodb: 'queue.orders' is not a declared table"),
    (lambda d: d["invariants"]["idempotency.effects_once"]["totals"].update(
        table="customer_balances"),
     "field invariants.idempotency.effects_once.totals.table: with workload.effects.dynamodb"),
])
def test_bad_dynamodb_fields_name_the_file_and_field(tmp_path: Path, change: Any,
                                                     message: str) -> None:
    path = _fixture_variant(tmp_path, change)
    with pytest.raises(InputError) as refused:
        scenario.load(path)
    assert str(path) in str(refused.value) and message in str(refused.value)


# --- items read back -----------------------------------------------------------------------


def test_items_are_read_as_plain_rows() -> None:
    item = {"order_id": {"S": "o-1"}, "amount_cents": {"N": "1250"}, "rate": {"N": "0.5"},
            "tags": {"SS": ["b", "a"]}, "raw": {"B": b"hi"}, "done": {"BOOL": True},
            "none": {"NULL": True}, "nested": {"M": {"n": {"N": "2"}, "l": {"L": [
                {"S": "x"}]}}}}
    assert final.item_row(item) == {
        "order_id": "o-1", "amount_cents": 1250, "rate": 0.5, "tags": ["a", "b"],
        "raw": "aGk=", "done": True, "none": None, "nested": {"n": 2, "l": ["x"]}}


class _Pages:
    """A scan paginator over fixed pages, or one whose first request DynamoDB refuses."""

    def __init__(self, pages: list[list[dict[str, Any]]] | None, status: int = 400) -> None:
        self.pages, self.status = pages, status
        self.asked: dict[str, Any] = {}

    def get_paginator(self, name: str) -> _Pages:
        assert name == "scan"
        return self

    def paginate(self, **params: Any) -> Any:
        self.asked = params
        return self._pages()

    def _pages(self) -> Any:  # lazy, as boto3's: the first page's request raises
        if self.pages is None:
            raise ClientError({"Error": {"Code": "ResourceNotFoundException"},
                               "ResponseMetadata": {"HTTPStatusCode": self.status}}, "Scan")
        yield from ({"Items": page} for page in self.pages)


def test_every_page_is_read_consistently_and_a_missing_table_has_no_items() -> None:
    pages = _Pages([[{"order_id": {"S": "a"}}], [{"order_id": {"S": "b"}}]])
    assert final.items(pages, "effects") == [{"order_id": "a"}, {"order_id": "b"}]
    assert pages.asked == {"TableName": "effects", "ConsistentRead": True}
    assert final.items(_Pages(None), "gone") == []
    with pytest.raises(ClientError):  # the emulator broke: the kit's error, not no effects
        final.items(_Pages(None, status=500), "effects")


# --- the checkers over items ---------------------------------------------------------------


def _as_items(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows as a DynamoDB table would hold them, read back through item_row."""
    def to_item(row: dict[str, Any]) -> dict[str, Any]:
        return {k: _SERIALIZE.serialize(Decimal(v) if isinstance(v, int) else v)
                for k, v in row.items()}
    return [final.item_row(to_item(row)) for row in rows]


def _dynamodb_history(spoil: Any = None) -> History:
    """A healthy run whose effects and balances were read from DynamoDB tables."""
    run = healthy_run(seed=7)
    orders = [dict(r) for r in run.final["orders"]]
    balances = [{"customer_id": c, "balance_cents": b}
                for c, b in run.final["balances"].items()]
    if spoil is not None:
        spoil(orders, balances)
    built = run.build()
    rows = _as_items(orders)
    state = FinalState(effects=final.effects(rows, "order_id"),
                       tables={"table.effects": rows, "table.balances": _as_items(balances)})
    return built.model_copy(update={"final": state})


def test_effects_once_and_no_loss_pass_on_items() -> None:
    history = _dynamodb_history()
    assert check_effects_once(history, params_of("idempotency.effects_once",
                                                 totals=TOTALS)).verdict == "pass"
    assert check_no_loss(history, params_of("delivery.no_loss")).verdict == "pass"


def test_a_counter_added_twice_fails_effects_once() -> None:
    def twice(orders: list[dict[str, Any]], balances: list[dict[str, Any]]) -> None:
        order = orders[0]
        row = next(b for b in balances if b["customer_id"] == order["customer_id"])
        row["balance_cents"] += order["amount_cents"]  # a redelivery ADDed again
    result = check_effects_once(_dynamodb_history(twice),
                                params_of("idempotency.effects_once", totals=TOTALS))
    assert result.verdict == "fail" and result.evidence["wrong_total"]["count"] == 1


def test_a_missing_item_fails_no_loss_and_a_changed_one_effects_once() -> None:
    lost = _dynamodb_history(lambda orders, _: orders.pop(0))
    assert check_no_loss(lost, params_of("delivery.no_loss")).verdict == "fail"
    changed = _dynamodb_history(lambda orders, _: orders[1].update(amount_cents=1))
    result = check_effects_once(changed, params_of("idempotency.effects_once"))
    assert result.verdict == "fail" and result.evidence["wrong_value"]["count"] == 1


# --- least privilege probes a table's actions on the table ---------------------------------


def test_table_actions_fit_tables_and_index_actions_indexes() -> None:
    table = "arn:aws:dynamodb:us-east-1:123456789012:table/t"
    assert _fits({"table"}, table) and not _fits({"stream"}, table)
    assert _fits({"index", "table"}, f"{table}/index/i")
    assert not _fits({"table"}, f"{table}/index/i")
