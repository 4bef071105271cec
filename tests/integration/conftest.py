"""Fixtures the integration tests share."""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kit.gateway.server import Gateway
from kit.toolchain import localstack_install
from tests.integration.iam_env import Env, gateway, sandbox_env
from tests.integration.procs import living_under


def traversable_tmp(prefix: str) -> Callable[[], Iterator[Path]]:
    """A `tmp_path` fixture for a test module, outside pytest's own (0700) tree: the
    sandbox's services (PostgreSQL, the workers) run as other users and must traverse every
    parent of their directories, as they must on a user's machine."""

    @pytest.fixture
    def tmp_path() -> Iterator[Path]:
        path = Path(tempfile.mkdtemp(prefix=prefix))
        path.chmod(0o711)
        yield path
        shutil.rmtree(path, ignore_errors=True)

    return tmp_path


# Where LocalStack writes by default: no LocalStack the kit starts may write there (it keeps
# everything under the sandbox), so one appearing is the kit's fault whoever started it.
LOCALSTACK_PLACES = [Path("/var/lib/localstack"), Path("/tmp/localstack"),
                     Path.home() / ".localstack"]


@pytest.fixture
def no_localstack_left(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A temp dir of the test's own (`tempfile.tempdir`, so the sandboxes and LocalStack's
    directory are made under it): at the end nothing runs under it, it is empty, and
    nothing appeared in LocalStack's default places."""
    if localstack_install.python() is None:
        pytest.fail(f"LocalStack is not installed: run `{localstack_install.FIX}`")
    before = {p: p.exists() for p in LOCALSTACK_PLACES}
    root = Path(tempfile.mkdtemp(prefix="leaks-ls-"))
    root.chmod(0o711)
    monkeypatch.setattr(tempfile, "tempdir", str(root))
    yield root
    try:
        assert not living_under(root), living_under(root)
        assert os.listdir(root) == []
        assert {p: p.exists() for p in LOCALSTACK_PLACES} == before
    finally:
        shutil.rmtree(root, ignore_errors=True)


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


@pytest.fixture(scope="module")
def env() -> Iterator[Env]:
    """A moto sandbox for the IAM and gateway tests, one per test module (iam_env's
    fresh names keep its tests apart)."""
    yield from sandbox_env()


@pytest.fixture
def gw(env: Env) -> Iterator[Gateway]:
    """An enforcing gateway in front of `env`'s moto, with a ledger of its own per test."""
    yield from gateway(env)
