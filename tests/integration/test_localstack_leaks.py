"""LocalStack leaves nothing behind: no process and no data directory after a run, after a
Ctrl-C at any stage (its start included) and after a start that fails; nothing in the
places LocalStack writes to by default (/var/lib/localstack, /tmp/localstack,
~/.localstack), since the kit keeps everything it writes under the sandbox."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from kit import scenario
from kit.errors import SandboxError
from kit.run.pipeline import run_once
from kit.run.sandbox import Sandbox
from kit.sandbox import localstack
from tests.integration.conftest import CtrlC

# Not serial: every check is of this test's own directory and processes, but for the
# default places, which are the machine's (tests/integration/conftest.py
# `no_localstack_left`). LocalStack boots within its bounds beside other tests as
# test_localstack.py's do. A whole run without a Ctrl-C is shown by the cross-check of
# test_localstack.py, under the same guard: its LocalStack run is one.


@pytest.mark.timeout(900)
@pytest.mark.parametrize("stage", [pytest.param(None, marks=pytest.mark.slow), "workload",
                                   pytest.param("apply", marks=pytest.mark.slow),
                                   pytest.param("teardown", marks=pytest.mark.slow)])
def test_a_run_and_a_ctrl_c_leave_no_localstack(no_localstack_left: Path, tmp_path: Path,
                                               ctrl_c: CtrlC, stage: str | None) -> None:
    sc = scenario.load("order-pipeline")
    ctrl_c.stage = stage
    with Sandbox(provider=True, emulator="localstack") as sandbox:
        assert sandbox.localstack is not None
        data = sandbox.localstack.root  # type: ignore[union-attr]
        try:
            result = run_once(sc, sc.golden, "none", 1, tmp_path, sandbox)
            assert stage is None and result.outcome == "pass", result.error
        except KeyboardInterrupt:
            assert ctrl_c.fired
    assert not data.exists()


@pytest.mark.timeout(300)
def test_a_failed_start_leaves_no_localstack(no_localstack_left: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # Its port is taken: LocalStack cannot listen and exits; the sandbox says so, with its
    # log, and removes everything it started.
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        monkeypatch.setattr(localstack, "free_port", lambda: taken.getsockname()[1])
        with pytest.raises(SandboxError, match="localstack") as failed:
            Sandbox(postgres=False, emulator="localstack").__enter__()
    assert "log" in str(failed.value)


@pytest.mark.timeout(300)
def test_a_ctrl_c_while_localstack_starts_leaves_nothing(
        no_localstack_left: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(self: localstack.LocalStackServer) -> bool:
        assert self.process.alive()  # it was started: the Ctrl-C lands while it boots
        raise KeyboardInterrupt

    monkeypatch.setattr(localstack.LocalStackServer, "_ready", interrupted)
    with pytest.raises(KeyboardInterrupt):
        Sandbox(postgres=False, emulator="localstack").__enter__()
