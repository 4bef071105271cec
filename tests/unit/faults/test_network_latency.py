"""network_latency: every round trip to the target is slowed by `latency_ms` (half each
way) for the window; heal takes both toxics away."""

from __future__ import annotations

from tests.unit.faults.proxy_double import ProxyState, network_fault


def test_both_directions_are_slowed_by_half_the_round_trip() -> None:
    proxy = ProxyState()
    fault = network_fault("network_latency", proxy, {"latency_ms": 800})
    assert fault.start() == {"target": "database", "latency_ms": 800}
    assert proxy.toxics == {
        "latency-upstream": ("latency", {"latency": 400, "jitter": 0}, "upstream"),
        "latency-downstream": ("latency", {"latency": 400, "jitter": 0}, "downstream")}
    assert proxy.enabled  # slowed, not cut
    fault.heal()
    assert proxy.toxics == {}


def test_the_default_is_a_second_per_round_trip() -> None:
    proxy = ProxyState()
    network_fault("network_latency", proxy, target="endpoint.aws").start()
    assert sum(attrs["latency"] for _, attrs, _ in proxy.toxics.values()) == 1000
