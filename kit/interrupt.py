"""Ctrl-C (or SIGTERM) always stops the kit: at once, or as the next stage of a run begins.

Python raises KeyboardInterrupt wherever the main thread happens to be. That can be inside
a garbage-collector callback, where it is printed as "Exception ignored" and dropped, or
inside logging's lock, which it then never releases; and the threads of `kit validate
--jobs` never see it at all. So the handler also sets a flag, and every run checks it as
each stage begins (`checkpoint`), in every thread. Where a resource is created and its
cleanup registered (a temp dir, a service process), `deferred` holds the interrupt back
until both are done, so nothing is created that nothing will remove.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

requested = threading.Event()
_deferring = threading.local()  # the handler runs in the main thread: it reads that one's


def _handler(signum: int, frame: FrameType | None) -> None:
    requested.set()
    # Raising between logging's `_lock.acquire()` and its `try:` would leak that lock and
    # deadlock every thread that logs (seen in CI). The next checkpoint raises instead, as
    # the end of a `deferred` block does.
    if logging._lock._is_owned() or getattr(_deferring, "depth", 0):  # type: ignore[attr-defined]
        return
    raise KeyboardInterrupt


def _unraisable(args: Any) -> None:
    if args.exc_type is not None and issubclass(args.exc_type, KeyboardInterrupt):
        return  # dropped where it landed; `checkpoint` raises it again
    sys.__unraisablehook__(args)


def install() -> None:
    """Route SIGINT and SIGTERM through the flag (the CLI calls this once)."""
    signal.signal(signal.SIGINT, _handler)
    signal.signal(signal.SIGTERM, _handler)
    sys.unraisablehook = _unraisable


def checkpoint() -> None:
    """Raise KeyboardInterrupt if an interrupt was requested, in whichever thread."""
    if requested.is_set():
        raise KeyboardInterrupt


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Hold Ctrl-C back for the block (create a resource, register its cleanup), then raise."""
    depth = getattr(_deferring, "depth", 0)
    _deferring.depth = depth + 1
    try:
        yield
    finally:
        _deferring.depth = depth
    if not depth:  # an enclosing block is not done yet: it raises when it ends
        checkpoint()
