"""order-pipeline made small and quick: fewer orders, short faults and timeouts. For tests
of the kit's plumbing and blame, where the scenario's scale is not what is tested."""

from __future__ import annotations

from kit import scenario


def small_order_pipeline(quiescence_seconds: float = 60,
                         patience_seconds: float = 60) -> scenario.Scenario:
    """order-pipeline with 10 orders, faults (but one at the start) after 3 recorded and
    held at most 2 s; a fault waits at most `patience_seconds` for its trigger and for what
    it acts on."""
    data = scenario.load("order-pipeline").model_dump()
    for fault in data["faults"].values():
        fault["trigger"].update(timeout_seconds=patience_seconds)
        if not fault["trigger"]["at_start"]:
            fault["trigger"]["after_recorded"] = 3
        fault["duration_seconds"] = min(fault["duration_seconds"], 2.0)
        if fault["kind"] in ("lost_deletes", "worker_crash"):
            fault["params"]["within_seconds"] = patience_seconds
    data["workload"]["params"].update(orders=10, duplicate_sends=2, poison=2)
    data["workload"]["producer"]["interval_seconds"] = 0.05
    data["quiescence_timeout_seconds"] = quiescence_seconds
    return scenario.Scenario.model_validate(data)
