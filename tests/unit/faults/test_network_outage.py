"""network_outage: the target's proxy refuses and cuts connections for the window, and
passes them again once healed."""

from __future__ import annotations

from tests.unit.faults.proxy_double import ProxyState, network_fault


def test_the_path_is_cut_for_the_window_then_restored() -> None:
    proxy = ProxyState()
    fault = network_fault("network_outage", proxy)
    assert fault.start() == {"target": "database", "effect": "connections refused and cut"}
    assert not proxy.enabled
    fault.heal()
    assert proxy.enabled


def test_the_aws_endpoint_is_a_target_too_and_heal_is_idempotent() -> None:
    proxy = ProxyState()
    fault = network_fault("network_outage", proxy, target="endpoint.aws")
    fault.start()
    assert not proxy.enabled
    fault.heal()
    fault.heal()
    assert proxy.enabled
