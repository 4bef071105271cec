"""A run that broke keeps the end of each sandbox service's log; one that did not, none."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from kit.errors import KitError
from kit.run import pipeline as run


@pytest.fixture
def sandbox(tmp_path: Path) -> SimpleNamespace:
    workdir = tmp_path / "sandbox"
    workdir.mkdir()
    (workdir / "moto.log").write_bytes(b"old\n" * run.SERVICE_LOG_TAIL + b"CreateAlias 400\n")
    (workdir / "provider-aws.log").write_text("attached\n")
    return SimpleNamespace(workdir=workdir)


def test_a_kit_error_keeps_the_end_of_every_service_log(sandbox: SimpleNamespace,
                                                        tmp_path: Path) -> None:
    run._keep_service_logs(sandbox, tmp_path, KitError, KitError("broke"), None)
    kept = tmp_path / "service-logs"
    assert sorted(p.name for p in kept.iterdir()) == ["moto.log", "provider-aws.log"]
    moto = (kept / "moto.log").read_bytes()
    assert len(moto) == run.SERVICE_LOG_TAIL and moto.endswith(b"CreateAlias 400\n")


@pytest.mark.parametrize("kind", [None, KeyboardInterrupt])
def test_a_run_that_ended_or_was_interrupted_keeps_none(
        sandbox: SimpleNamespace, tmp_path: Path, kind: type[BaseException] | None) -> None:
    run._keep_service_logs(sandbox, tmp_path, kind, None, None)
    assert not (tmp_path / "service-logs").exists()
