"""Ctrl-C handling: held back inside `deferred` and while logging's lock is held, raised
right after; a flag left for every stage checkpoint."""

from __future__ import annotations

import logging
import os
import signal
import sys
from collections.abc import Iterator

import pytest

from kit import interrupt

# Parallel-safe: the SIGINT goes to the test process itself and the handlers it swaps are
# that process's (an xdist worker runs its tests in its main thread, as signals need).


@pytest.fixture
def installed() -> Iterator[None]:
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    hook = sys.unraisablehook
    interrupt.install()
    try:
        yield
    finally:
        for s, h in handlers.items():
            signal.signal(s, h)
        sys.unraisablehook = hook
        interrupt.requested.clear()


def _ctrl_c() -> None:
    os.kill(os.getpid(), signal.SIGINT)  # delivered to the main thread before kill returns


def test_outside_deferred_ctrl_c_raises_at_once(installed: None) -> None:
    with pytest.raises(KeyboardInterrupt):
        _ctrl_c()
    assert interrupt.requested.is_set()
    with pytest.raises(KeyboardInterrupt):
        interrupt.checkpoint()


def test_deferred_finishes_the_block_then_raises(installed: None) -> None:
    done = []
    with pytest.raises(KeyboardInterrupt), interrupt.deferred():
        _ctrl_c()
        done.append("registered")  # the cleanup registration still happens
    assert done == ["registered"]


def test_nested_deferred_raises_only_when_the_outer_block_ends(installed: None) -> None:
    done = []
    with pytest.raises(KeyboardInterrupt), interrupt.deferred():
        with interrupt.deferred():
            _ctrl_c()
        done.append("inner ended")
    assert done == ["inner ended"]


def test_held_logging_lock_defers_to_the_next_checkpoint(installed: None) -> None:
    logging._acquireLock()  # type: ignore[attr-defined]
    try:
        _ctrl_c()  # must not raise here: the lock would never be released
    finally:
        logging._releaseLock()  # type: ignore[attr-defined]
    with pytest.raises(KeyboardInterrupt):
        interrupt.checkpoint()


def test_no_request_no_raise() -> None:
    with interrupt.deferred():
        pass
    interrupt.checkpoint()
