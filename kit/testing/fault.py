"""A fault as a context manager: the scenario's fault starts as the block is entered and
heals as it is left (even when the block raises), both recorded as the nemesis records
them (fault_start, fault_end), so the checkers see the window the test held."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from kit.errors import InputError
from kit.faults import FAULTS
from kit.run import fault
from kit.testing.stack import Stack


@contextlib.contextmanager
def inject(stack: Stack, name: str) -> Iterator[None]:
    """Hold the scenario's fault `name` on `stack` for the block. A timed fault (an outage,
    latency) lasts as long as the block; one that must act first (a worker's crash) is
    waited for at the block's end, as the nemesis waits for it."""
    spec = stack.scenario.faults.get(name)
    if spec is None or spec.kind == "none":
        known = [f for f, s in stack.scenario.faults.items() if s.kind != "none"]
        raise InputError(f"inject({name!r}): not a fault of {stack.scenario.name} "
                         f"(scenario.yaml, field faults); its faults: {', '.join(known)}")
    kind = FAULTS[spec.kind](fault.context(stack.ctx, stack.bound, stack.stopping(),
                                           stack.fault_hooks(), name))
    detail = kind.start()
    stack.recorder.record("nemesis", "fault_start", fault=spec.kind, detail=detail)
    try:
        yield
        if not kind.timed:
            kind.window()
    finally:
        restored = kind.heal()
        stack.recorder.record("nemesis", "fault_end", fault=spec.kind,
                              detail=restored if restored is not None else detail)
