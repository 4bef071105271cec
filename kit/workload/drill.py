"""The drill workload: the kit's application writes, one fault strikes, the solution's runbook
recovers; then what the application is left with.

Timeline (every wait bounded): the application writes; the fault's trigger fires after the
k-th acknowledged write; the fault reports its incident; the runbook runs; once it has
exited and the application has had `settle_writes` more writes acknowledged (or the
recovery timeout passed), the drill has settled: the fault heals, the application stops.
Without a fault, the drill ends after `writes` acknowledged writes.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kit import aws
from kit.bind import Bound, worker_env
from kit.errors import KitError
from kit.faults import FAULTS, FaultContext, Nemesis
from kit.faults.rds import DrillHooks
from kit.rds.plane import DataPlane
from kit.recorder import Recorder
from kit.scenario import Scenario
from kit.workload import final
from kit.workload.app import AppWriter, endpoint_reader
from kit.workload.runbook import RunbookRunner

Stage = Callable[[str], contextlib.AbstractContextManager[None]]
MARGIN = 10.0


@dataclass
class Drill:
    """One drill run's pieces (built by kit.run after bind)."""

    scenario: Scenario
    fault: str
    seed: int
    bound: Bound
    plane: DataPlane
    recorder: Recorder
    run_dir: Path
    work: Path
    admin: Any  # boto3 RDS client to the front (the kit's admin)

    def run(self, stage: Stage) -> None:
        """Write, inject, recover, settle; every wait bounded."""
        spec = self.scenario.workload.drill
        assert spec is not None
        module = self.scenario.workload_module
        app_creds = self.bound.session(spec.app.role, "app")
        secrets = aws.client("secretsmanager", self.bound.gateway.url, app_creds)
        app = AppWriter(self.recorder, module.plan(self.seed, self.scenario.workload_params),
                        module.describe, endpoint_reader(secrets, self._secret()),
                        spec.app.interval_seconds, self._password)
        runner = RunbookRunner(spec.runbook.command, self.bound.confinement, self._runbook_env,
                               self.run_dir / "runbook.log", self.recorder,
                               spec.runbook.timeout_seconds, app.resume)
        settled, stopping = threading.Event(), threading.Event()
        fault = self.scenario.faults[self.fault]
        params = FAULTS[fault.kind].Params.model_validate(fault.params) \
            if fault.kind in FAULTS else None
        hooks = DrillHooks(self.plane, app, self.admin, self._instances(), runner.report,
                           settled)
        nemesis = Nemesis(FaultContext(fault, params, self.recorder, None, self.bound.gateway,
                                       stopping, self.bound.proxies, self.bound.roles,
                                       drill=hooks))
        self.plane.listeners.append(self._record_event)
        try:
            with stage("workload"):
                self.recorder.record("kit", "phase", name="workload")
                for thread in (app, runner, nemesis):
                    thread.start()
                if fault.kind == "none":
                    # An application that cannot write at all is judged (workload.app_writes).
                    self._until(lambda: self.recorder.count("write") >= spec.writes,
                                fault.trigger.timeout_seconds
                                + spec.writes * (spec.app.interval_seconds + 1), required=False)
                    return
                self._until(lambda: runner.reported.is_set() or nemesis.done.is_set(),
                            fault.trigger.timeout_seconds + MARGIN)
            if runner.reported.is_set():
                with stage("recover"):
                    self.recorder.record("kit", "phase", name="recover")
                    self._settle(spec.settle_writes, spec.recovery_timeout_seconds,
                                 spec.runbook.timeout_seconds, runner)
        finally:
            settled.set()
            stopping.set()
            nemesis.done.wait(60)
            runner.stop()
            app.stop()
            if self._record_event in self.plane.listeners:
                self.plane.listeners.remove(self._record_event)
        self._raise_errors(app, runner, nemesis)

    def _settle(self, settle: int, timeout: float, runbook_timeout: float,
                runner: RunbookRunner) -> None:
        """Until the runbook exited and `settle` writes were acknowledged after it."""
        started = time.monotonic()
        self._until(runner.finished.is_set, runbook_timeout + MARGIN)
        baseline = self.recorder.count("write")
        left = max(timeout - (time.monotonic() - started), MARGIN)
        self._until(lambda: self.recorder.count("write") >= baseline + settle, left,
                    required=False)

    def _until(self, condition: Callable[[], bool], timeout: float,
               required: bool = True) -> None:
        """Wait (bounded), woken by every recorded op."""
        with self.recorder.changed:
            met = self.recorder.changed.wait_for(condition, timeout=timeout)
        if not met and required:
            raise KitError(f"the drill stalled: a step did not happen within {timeout:.0f} s "
                           "(history in the run directory)")

    def _raise_errors(self, app: AppWriter, runner: RunbookRunner, nemesis: Nemesis) -> None:
        for name, error in (("the application", app.error), ("the runbook runner", runner.error),
                            ("the nemesis", nemesis.error)):
            if error is not None:
                raise error if isinstance(error, KitError) else KitError(
                    f"{name} failed: {error!r}")
        if self.plane.errors:
            raise KitError("the RDS data plane failed: " + "; ".join(self.plane.errors))

    def _record_event(self, instance: str, event: str, detail: dict[str, Any]) -> None:
        self.recorder.record("rds", "rds_event", instance=instance, event=event, **detail)

    def _password(self, host: str, port: int, user: str) -> str | None:
        """The kit's password of `user` on the data plane's endpoint host:port (None for an
        address it does not serve: the application gives its password to no one else)."""
        served = host in ("127.0.0.1", "localhost") and self.plane.by_port(port) is not None
        return self.plane.password(user) if served else None

    def _secret(self) -> str:
        spec = self.scenario.workload.drill
        assert spec is not None
        return self.bound.values[f"{spec.app.endpoint}.arn"]

    def _instances(self) -> dict[str, str]:
        return {name: self.bound.values[f"{name}.instance"] for name in self.scenario.resources
                if name.startswith("database.")}

    def _runbook_env(self) -> dict[str, str]:
        spec = self.scenario.workload.drill
        assert spec is not None
        home = self.work / "runbook-home"
        home.mkdir(exist_ok=True)
        creds = self.bound.session(spec.runbook.role, "runbook")
        return {**worker_env(self.scenario, self.bound, str(home), spec.runbook.env),
                "AWS_ACCESS_KEY_ID": creds.access_key_id,
                "AWS_SECRET_ACCESS_KEY": creds.secret_access_key,
                "AWS_SESSION_TOKEN": creds.token or ""}

    # --- observe ---------------------------------------------------------------------

    def database_in_use(self) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]] | None]:
        """The database the application's secret names at the end, and its tables (None:
        it names nothing the data plane holds, or nothing readable)."""
        secrets = aws.client("secretsmanager", self.bound.gateway.upstream)
        in_use: dict[str, Any] = {"endpoint": None, "instance": None, "description": None}
        try:
            found = json.loads(secrets.get_secret_value(SecretId=self._secret())["SecretString"])
            host, port = str(found["host"]), int(found["port"])
        except Exception:  # noqa: BLE001 - a secret that names no endpoint names no database
            return in_use, None
        in_use["endpoint"] = f"{host}:{port}"
        instance = self.plane.by_port(port) if host in ("127.0.0.1", "localhost") else None
        if instance is None:
            return in_use, None
        in_use["instance"] = instance.identifier
        in_use["description"] = final.db_instance(self.admin, instance.identifier)
        server = instance.primary
        if server is None or not server.alive():
            return in_use, None
        return in_use, final.tables(server.dsn(instance.spec.db_name or "postgres"))
