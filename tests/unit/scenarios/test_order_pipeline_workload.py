"""order-pipeline's workload module: the seeded plan and the poison rule."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from kit import scenario

SC = scenario.load("order-pipeline")
MODULE = SC.workload_module
PLAN_SEED_1 = "4bd81a93b00d22ce"


def _plan(seed: int, **params: int) -> list:
    return MODULE.plan(seed, SC.workload_params.model_copy(update=params))


def test_plan_is_deterministic_per_seed_and_differs_across_seeds() -> None:
    assert _plan(7) == _plan(7)
    assert _plan(7) != _plan(8)


def test_plan_is_the_one_the_kill_matrix_was_measured_with() -> None:
    # The bodies of seed 1, as the kit sent them before scenarios became plugins: the
    # 10-seed kill matrix in docs/benchmarks.md was measured with this plan.
    text = "\n".join(f"{s.body}|{s.duplicate_of}" for s in _plan(1))
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == PLAN_SEED_1


def test_plan_has_the_requested_orders_duplicates_and_poison() -> None:
    facts = [MODULE.describe(s.body) for s in _plan(3)]
    assert len({f.key for f in facts if f.valid}) == 40
    assert sum(1 for f in facts if not f.valid) == 4
    counts = Counter(f.key for f in facts if f.valid)
    assert sorted(counts.values()).count(2) == 6
    assert {f.fields["customer_id"] for f in facts if f.valid} <= {f"c-{i}" for i in range(5)}


def test_each_duplicate_points_at_an_earlier_send_of_the_same_body() -> None:
    plan = _plan(11, orders=20, duplicate_sends=5)
    duplicates = [(i, s.duplicate_of) for i, s in enumerate(plan) if s.duplicate_of is not None]
    assert len(duplicates) == 5
    for index, original in duplicates:
        assert original < index and plan[original].body == plan[index].body


@pytest.mark.parametrize(("body", "valid"), [
    ('{"order_id": "o", "customer_id": "c", "amount_cents": 1}', True),
    ('{"order_id": "o", "customer_id": "c", "amount_cents": 0}', False),
    ('{"order_id": "o", "customer_id": "c", "amount_cents": -5}', False),
    ('{"order_id": "o", "customer_id": "c", "amount_cents": "1"}', False),
    ('{"order_id": "o", "customer_id": "c", "amount_cents": 1.0}', False),
    ('{"order_id": "o", "customer_id": "c", "amount_cents": true}', False),
    ('{"order_id": 7, "customer_id": "c", "amount_cents": 1}', False),
    ('{"customer_id": "c", "amount_cents": 1}', False),
    ('[1, 2]', False),
    ('"a string"', False),
    ('not json', False),
    ('', False),
])
def test_poison_rule(body: str, valid: bool) -> None:
    assert MODULE.describe(body).valid is valid
