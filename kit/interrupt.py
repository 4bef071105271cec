"""Ctrl-C (or SIGTERM) always stops the kit: at once, or as the next stage of a run begins.

Python raises KeyboardInterrupt wherever the main thread happens to be. That can be inside
a garbage-collector callback, where it is printed as "Exception ignored" and dropped, or
inside logging's lock, which it then never releases; and the threads of `kit validate
--jobs` never see it at all. So the handler also sets a flag, and every run checks it as
each stage begins (`checkpoint`), in every thread.
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
from types import FrameType
from typing import Any

requested = threading.Event()


def _handler(signum: int, frame: FrameType | None) -> None:
    requested.set()
    # Raising between logging's `_lock.acquire()` and its `try:` would leak that lock and
    # deadlock every thread that logs (seen in CI). The next checkpoint raises instead.
    if logging._lock._is_owned():  # type: ignore[attr-defined]
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
