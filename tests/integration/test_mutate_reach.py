"""kit/mutate/reach.py in a real run: order-pipeline's golden under a database outage, its
workers traced in their sandbox. The handler of psycopg.Error around an order's
transaction runs (the outage fails it), so its mutant is drawn that fault; the handler of
a failed SQS delete never runs (the queue is up), so none reaches it."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit import scenario
from kit.mutate import generate, reach
from tests.integration.conftest import traversable_tmp

pytestmark = pytest.mark.integration
tmp_path = traversable_tmp("reach-")

DB_HANDLER = "py.handler-raise:worker/consumer.py:126"
DELETE_HANDLER = "py.handler-raise:worker/lease.py:109"


def test_a_database_outage_reaches_the_database_handler_and_not_the_delete_retry(
        tmp_path: Path) -> None:
    full = scenario.load("order-pipeline")
    sc = full.model_copy(update={"faults": {"db_outage": full.faults["db_outage"]}})
    found = reach.measure(sc, sc.golden, tmp_path, seed=1, jobs=1)
    assert found is not None and reach.load(tmp_path) == found
    files = {line.rsplit(":", 1)[0] for line in found["db_outage"]}
    assert files and all(f.startswith("worker/") and f.endswith(".py") for f in files), files
    mutants = {m.id: m for m in generate.mutants(sc.golden)}
    assert reach.reaching(sc, mutants[DB_HANDLER], found) == ["db_outage"]
    assert reach.reaching(sc, mutants[DELETE_HANDLER], found) == []
