"""Fixtures the leak tests share."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


class CtrlC(logging.Handler):
    """Interrupts the run (KeyboardInterrupt, as Ctrl-C raises) as it logs the start of
    `stage`. Raised here, not sent as a signal: a signal may land in a garbage-collector
    callback and be dropped (the CLI's own handler covers that, tested through the CLI)."""

    def __init__(self) -> None:
        super().__init__()
        self.stage: str | None = None
        self.fired = False

    def emit(self, record: logging.LogRecord) -> None:
        if self.stage and record.getMessage().endswith(f": stage {self.stage}"):
            self.fired = True
            raise KeyboardInterrupt


@pytest.fixture
def ctrl_c() -> Iterator[CtrlC]:
    """A CtrlC on kit.run's logger (set its `stage` to interrupt a run as that stage
    begins); the logger is restored afterwards."""
    handler = CtrlC()
    logger = logging.getLogger("kit.run")
    logger.addHandler(handler)
    level = logger.level
    # setLevel, not the attribute: it also clears the cached "INFO is off" an earlier test left.
    logger.setLevel(logging.INFO)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
