"""Drills leave nothing behind: after each run, finished or interrupted (Ctrl-C as a stage
begins), no PostgreSQL server of the data plane runs, no WAL archive, base backup or
snapshot is left, no Toxiproxy proxy listens, and no temp dir remains; after the sandbox,
nothing at all."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from kit import scenario
from kit.run.pipeline import run_once
from kit.run.sandbox import Sandbox
from tests.integration.conftest import CtrlC
from tests.integration.procs import eventually, listening_ports, living_under, tree

# (fault, the stage a Ctrl-C interrupts or None): a few in `make test`, all in the slow tier.
QUICK = [("reboot_failover", None), ("bad_migration", "recover"), ("none", "apply")]
EVERY = [("instance_crash", None), ("az_loss", None), ("bad_migration", None),
         ("instance_delete", None), ("reboot_failover", None), ("bad_migration", "recover"),
         ("az_loss", "workload"), ("none", "apply")]


def _small() -> scenario.Scenario:
    """rds-recovery with a short history: the plumbing is what counts here."""
    data = scenario.load("rds-recovery").model_dump()
    for fault in data["faults"].values():
        fault["trigger"]["after_acknowledged"] = 20
    data["faults"]["bad_migration"]["params"]["found_after_seconds"] = 1
    data["workload"]["drill"]["writes"] = 30
    data["workload"]["drill"]["settle_writes"] = 5
    return scenario.Scenario.model_validate(data)


def _servers(root: Path) -> list[int]:
    """Live postgres processes of the data plane (their data directories are under root)."""
    import psutil

    return [p.pid for p in psutil.process_iter(["cmdline", "status"])
            if p.info["status"] != psutil.STATUS_ZOMBIE
            and any(str(root) in part for part in p.info["cmdline"] or [])]


@pytest.mark.timeout(1200)
@pytest.mark.parametrize("runs", [QUICK, pytest.param(EVERY, marks=pytest.mark.slow)],
                         ids=["quick", "every-fault"])
def test_drills_leave_no_server_archive_proxy_or_temp_dir(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ctrl_c: CtrlC,
        runs: list[tuple[str, str | None]]) -> None:
    sc = _small()
    temp = Path(tempfile.mkdtemp(prefix="drill-leaks-"))
    temp.chmod(0o711)
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    try:
        with Sandbox(provider=True) as sandbox:
            kept = set(os.listdir(temp))
            plane = sandbox.rds.plane.root
            services = [pid for s in (sandbox.moto, sandbox.toxiproxy, sandbox.postgres)
                        for pid in tree(s.process.pid)]
            service_ports = listening_ports(services)
            for n, (fault, stage) in enumerate(runs):
                ctrl_c.stage, ctrl_c.fired = stage, False
                label = f"run {n} ({fault}, Ctrl-C at {stage})"
                try:
                    result = run_once(sc, sc.golden, fault, n + 1, tmp_path / str(n), sandbox)
                    assert result.outcome != "error", f"{label}: {result.error}"
                except KeyboardInterrupt:
                    assert stage is not None and ctrl_c.fired, label
                assert eventually(lambda: not _servers(plane), timeout=15), \
                    f"{label}: {_servers(plane)}"
                assert not plane.exists() or not any(plane.iterdir()), \
                    f"{label}: {list(plane.iterdir())}"
                assert set(os.listdir(temp)) == kept, label
                assert listening_ports(services) == service_ports, label
        assert eventually(lambda: not living_under(temp), timeout=15), living_under(temp)
        assert os.listdir(temp) == []
    finally:
        shutil.rmtree(temp, ignore_errors=True)
