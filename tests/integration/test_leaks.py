"""Twenty consecutive runs (the slow tier), every fault, every other one interrupted (Ctrl-C)
at a different stage: after each run nothing of it is left (process, listening port, Toxiproxy
proxy, temp dir, cgroup), and after each sandbox nothing at all. `make test`'s tier is six
runs in one sandbox: worker_crash, db_outage and sqs_outage (a restarted worker, a proxy's
outage) run whole; duplicate_delivery, db_latency and iam_revoke are interrupted before the
sandbox, at apply and at recover (after the fault: a toxic, a policy). test_bad_input's
Ctrl-Cs through the CLI land at start, apply and workload."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from kit.run.pipeline import run_once
from kit.run.sandbox import Sandbox
from tests.integration.conftest import CtrlC
from tests.integration.procs import kit_cgroups, listening_ports, living_under, tree
from tests.integration.small import small_order_pipeline

# Every other run is interrupted: with twenty (the slow tier), once at each stage of a
# run; with six, at every third stage.
PER_SANDBOX, INTERRUPT_EVERY = 10, 2
STAGES = ["sandbox", "gate", "init", "apply", "bind", "workload", "recover",
          "observe", "teardown", "check"]


@pytest.mark.timeout(1500)
@pytest.mark.parametrize("runs", [6, pytest.param(20, marks=pytest.mark.slow)])
def test_runs_leave_no_process_port_or_temp_dir(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ctrl_c: CtrlC, runs: int) -> None:
    sc = small_order_pipeline()
    temp = Path(tempfile.mkdtemp(prefix="leaks-"))
    temp.chmod(0o711)  # the sandbox's PostgreSQL user must traverse it
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    own_ports = listening_ports([os.getpid()])
    faults = list(sc.faults)
    outcomes: dict[str, int] = {}
    try:
        step = len(STAGES) * INTERRUPT_EVERY // runs  # 1: every stage, 3: every third one
        for first in range(0, runs, PER_SANDBOX):
            with Sandbox(provider=True) as sandbox:
                kept = set(os.listdir(temp))
                services = [pid for s in (sandbox.moto, sandbox.toxiproxy, sandbox.postgres)
                            for pid in tree(s.process.pid)]
                service_ports = listening_ports(services)  # Toxiproxy's: its API only
                groups = kit_cgroups()
                kit_ports = listening_ports([os.getpid()])  # and the sandbox's RDS front
                assert sandbox.provider is not None
                provider = set(tree(sandbox.provider.process.pid))  # shown the runs dir
                for n in range(first, min(first + PER_SANDBOX, runs)):
                    # Shifted by one: six runs start with worker_crash, not `none` (twenty
                    # still run every fault whole).
                    fault = faults[(n + 1) % len(faults)]
                    interrupted = n % INTERRUPT_EVERY == INTERRUPT_EVERY - 1
                    ctrl_c.stage = STAGES[n // INTERRUPT_EVERY * step % len(STAGES)] \
                        if interrupted else None
                    ctrl_c.fired = False
                    label = f"run {n} ({fault}, Ctrl-C at {ctrl_c.stage})"
                    try:
                        result = run_once(sc, sc.golden, fault, n, tmp_path / str(n), sandbox)
                        outcome = result.outcome
                    except KeyboardInterrupt:
                        outcome = "interrupted"
                    assert (outcome == "interrupted") == interrupted == ctrl_c.fired, label
                    assert outcome != "error", f"{label}: {result.error}"
                    outcomes[outcome] = outcomes.get(outcome, 0) + 1
                    # Only the sandbox's own services and directory outlive a run.
                    stray = [p for p in living_under(temp) if int(p.split()[0]) not in provider
                             and (str(sandbox.workdir) not in p or str(sandbox.runs_dir) in p)]
                    assert not stray, f"{label}: {stray}"
                    assert set(os.listdir(temp)) == kept, label
                    assert os.listdir(sandbox.runs_dir) == [], label
                    assert kit_cgroups() == groups, label  # only the provider's is left
                    assert listening_ports([os.getpid()]) == kit_ports, label
                    assert listening_ports(services) == service_ports, label  # no proxy left
            assert not living_under(temp), living_under(temp)
            assert os.listdir(temp) == []
            assert not kit_cgroups()
            assert listening_ports([os.getpid()]) == own_ports
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    assert outcomes.get("interrupted") == runs // INTERRUPT_EVERY
