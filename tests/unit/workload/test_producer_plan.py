from __future__ import annotations

from collections import Counter

from kit.history import describe_body
from kit.workload.producer import plan


def test_plan_is_deterministic_per_seed_and_differs_across_seeds() -> None:
    assert plan(7, 30, 4, 5, 3) == plan(7, 30, 4, 5, 3)
    assert plan(7, 30, 4, 5, 3) != plan(8, 30, 4, 5, 3)


def test_plan_has_the_requested_orders_duplicates_and_poison() -> None:
    p = plan(3, 40, 5, 6, 4)
    facts = [describe_body(body) for body, _ in p.bodies]
    assert len(p.valid_order_ids) == 40
    assert sum(1 for f in facts if not f["valid"]) == 4
    counts = Counter(f["order_id"] for f in facts if f["valid"])
    assert sorted(counts.values()).count(2) == 6
    assert {f["customer_id"] for f in facts if f["valid"]} <= {f"c-{i}" for i in range(5)}


def test_each_duplicate_points_at_an_earlier_send_of_the_same_body() -> None:
    p = plan(11, 20, 3, 5, 2)
    duplicates = [(i, dup) for i, (_, dup) in enumerate(p.bodies) if dup is not None]
    assert len(duplicates) == 5
    for index, original in duplicates:
        assert original < index
        assert p.bodies[original][0] == p.bodies[index][0]
