"""function_timeout: every dependency of the function (its AWS endpoint, its databases)
answers one round trip later than the function's deployed timeout for the window, so an
invocation that calls one is killed at its timeout; heal takes every toxic away."""

from __future__ import annotations

import threading
import time

from kit.faults import FAULTS, FaultContext
from kit.faults.spec import Fault
from kit.recorder import Recorder
from tests.unit.faults.iam_moto import Admin
from tests.unit.faults.proxy_double import ProxyState
from tests.unit.lambdas.moto_function import function


def _fault(admin: Admin, arn: str, proxies: dict[str, ProxyState], **params: float) -> object:
    spec = Fault(kind="function_timeout", target="function.consumer", duration_seconds=1,
                 params=params)
    ctx = FaultContext(spec=spec, params=FAULTS["function_timeout"].Params(**params),
                       recorder=Recorder(), supervisor=None,
                       gateway=admin,  # type: ignore[arg-type]
                       stopping=threading.Event(), values={"function.consumer.arn": arn},
                       proxies=proxies)  # type: ignore[arg-type]
    return FAULTS["function_timeout"](ctx)


def test_every_dependency_is_slower_than_the_function_timeout(admin: Admin) -> None:
    arn = function(Timeout=4)
    proxies = {"endpoint.aws": ProxyState(), "database.main": ProxyState()}
    detail = _fault(admin, arn, proxies, beyond_seconds=2).start()  # type: ignore[attr-defined]
    assert detail["function_timeout_seconds"] == 4
    assert detail["dependency_latency_ms"] == 6000
    for proxy in proxies.values():
        round_trip = sum(attrs["latency"] for _, attrs, _ in proxy.toxics.values())
        assert round_trip == 6000 > 4 * 1000
        assert proxy.enabled  # slowed, not cut


def test_heal_takes_every_toxic_away(admin: Admin) -> None:
    arn = function(Timeout=3)
    proxies = {"endpoint.aws": ProxyState(), "database.main": ProxyState()}
    fault = _fault(admin, arn, proxies)
    fault.start()  # type: ignore[attr-defined]
    fault.heal()  # type: ignore[attr-defined]
    assert all(proxy.toxics == {} for proxy in proxies.values())


def test_the_default_runs_a_second_past_the_timeout(admin: Admin) -> None:
    arn = function(Timeout=3)
    proxy = ProxyState()
    _fault(admin, arn, {"endpoint.aws": proxy}).start()  # type: ignore[attr-defined]
    assert sum(a["latency"] for _, a, _ in proxy.toxics.values()) == 4000


def test_the_window_outlasts_the_function_timeout(admin: Admin) -> None:
    # Healing lets the delayed answers through at once: a window shorter than the timeout
    # would end before any invocation timed out, so it holds at least timeout + margin.
    arn = function(Timeout=1)
    fault = _fault(admin, arn, {"endpoint.aws": ProxyState()}, beyond_seconds=0.5)
    fault.start()  # type: ignore[attr-defined]
    assert fault._hold == 1.5  # type: ignore[attr-defined]  # the spec's window is 1 s
    started = time.monotonic()
    fault.window()  # type: ignore[attr-defined]
    assert time.monotonic() - started >= 1.5
