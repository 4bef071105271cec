"""The drill workload: the kit's application writes, one fault strikes, the solution's runbook
recovers.

Timeline (every wait bounded): the application writes; the fault's trigger fires after the
k-th acknowledged write; the fault reports its incident; the runbook runs; once it has
exited and the application has had `settle_writes` more writes acknowledged (or the
recovery timeout passed), the drill has settled: the fault heals, the application stops.
Without a fault, the drill ends after `writes` acknowledged writes. What the application is
left with is read by the observe stage (kit/run/observe.py).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import psycopg

from kit import aws
from kit.errors import KitError
from kit.faults.hooks import DrillHooks, RotationHooks
from kit.faults.nemesis import Nemesis
from kit.lambdas.direct import Invoker
from kit.run import lambdas as lambda_wiring
from kit.run.bind import Bound, worker_env
from kit.run.context import RunContext
from kit.run.fault import FaultHooks
from kit.scenario import Scenario
from kit.workload.app import AppWriter, Reader, by_epoch, endpoint_reader
from kit.workload.runbook import RunbookRunner

MARGIN = 10.0


def app_secret(scenario: Scenario, bound: Bound) -> str:
    """The ARN of the secret that tells the application where its database is."""
    spec = scenario.workload.drill
    assert spec is not None
    return bound.values[f"{spec.app.endpoint}.arn"]


def app_endpoint(scenario: Scenario, bound: Bound, endpoint: str,
                 creds: aws.Credentials = aws.ADMIN) -> Reader:
    """How the application reads where its database is: its endpoint secret, and its
    standby endpoint secret when it has one (each in its own Region), through `endpoint`
    (the gateway, or the emulator itself) with `creds`."""
    spec = scenario.workload.drill
    assert spec is not None

    def reader(resource: str) -> Reader:
        arn = bound.values[f"{resource}.arn"]
        return endpoint_reader(aws.client("secretsmanager", endpoint, creds,
                                          aws.region_of(arn)), arn)

    standby = spec.app.standby_endpoint
    return by_epoch(reader(spec.app.endpoint), reader(standby) if standby else None)


class DrillWorkload:
    """The application, the runbook's runner and the drill's end of one run
    (kit/run/workload.py drives them)."""

    def __init__(self, ctx: RunContext, bound: Bound) -> None:
        spec = ctx.scenario.workload.drill
        assert spec is not None
        self.ctx, self.bound, self.spec = ctx, bound, spec
        self.plane = ctx.sandbox.rds.plane
        self.fault = ctx.scenario.faults[ctx.fault]
        module = ctx.scenario.workload_module
        self.app = AppWriter(ctx.recorder, module.plan(ctx.seed, ctx.scenario.workload_params),
                             module.describe,
                             app_endpoint(ctx.scenario, bound, bound.gateway.url,
                                          bound.session(spec.app.role, "app")),
                             spec.app.interval_seconds, self._password,
                             spec.app.connection_writes)
        self.runner = None if spec.runbook is None else RunbookRunner(
            spec.runbook.command, bound.confinement, self._runbook_env,
            ctx.run_dir / "runbook.log", ctx.recorder, spec.runbook.timeout_seconds,
            self.app.resume)
        self.invoker: Invoker | None = None
        self.settled, self.stopping = threading.Event(), threading.Event()
        self._nemesis: Nemesis | None = None

    def fault_hooks(self) -> FaultHooks:
        """The data plane, the application, the admin, the instances, where the incident
        goes, and the drill's end."""
        instances = {name: self.bound.values[f"{name}.instance"]
                     for name in self.ctx.scenario.resources if name.startswith("database.")}
        admin = aws.client("rds", self.ctx.sandbox.rds.url)
        rotation = None
        if self.spec.app.credentials == "secret":
            self.invoker = lambda_wiring.invoker(self.ctx, self.bound)
            rotation = RotationHooks(self.app, self.ctx.admin("secretsmanager"), self.invoker,
                                     self._login)
        return FaultHooks(drill=DrillHooks(self.plane, self.app, admin, instances,
                                           self._report, self.settled), rotation=rotation)

    def _report(self, fault: str, incident: dict[str, Any]) -> None:
        if self.runner is None:
            raise KitError(f"fault {fault} reports an incident, and the drill has no runbook "
                           "(workload.drill.runbook)")
        self.runner.report(fault, incident)

    def start(self) -> None:
        """The application and the runbook's runner (which waits for an incident)."""
        self.plane.listeners.append(self._record_event)
        if self.spec.app.provision_user:
            self._provision()
        for thread in (self.app, self.runner):
            if thread is not None:
                thread.start()

    def drive(self, nemesis: Nemesis) -> None:
        """Until the incident is reported (or the fault ended); without a fault, until
        `writes` writes were acknowledged."""
        trigger = self.fault.trigger.timeout_seconds
        if self.fault.kind == "none":
            # An application that cannot write at all is judged (workload.app_writes).
            self._until(lambda: self.ctx.recorder.count("write") >= self.spec.writes,
                        trigger + self.spec.writes * (self.spec.app.interval_seconds + 1),
                        required=False)
            return
        runner, self._nemesis = self.runner, nemesis
        self._until(lambda: (runner is not None and runner.reported.is_set())
                    or nemesis.done.is_set(), trigger + MARGIN)

    def recovers(self) -> bool:
        """A recovery follows an incident the runbook was told of."""
        return (self.fault.kind != "none" and self.runner is not None
                and self.runner.reported.is_set())

    def recover(self) -> None:
        """Until the runbook exited and `settle_writes` writes were acknowledged after it."""
        started = time.monotonic()
        assert self.runner is not None
        self._until(self.runner.finished.is_set, self.spec.runbook.timeout_seconds + MARGIN)
        nemesis = self._nemesis
        if self.spec.settle_after_heal and nemesis is not None:
            self._until(nemesis.done.is_set, self.fault.duration_seconds + MARGIN)
        baseline = self.ctx.recorder.count("write")
        left = max(self.spec.recovery_timeout_seconds - (time.monotonic() - started), MARGIN)
        self._until(lambda: self.ctx.recorder.count("write") >= baseline
                    + self.spec.settle_writes, left, required=False)

    def stop(self, nemesis: Nemesis) -> None:
        """The drill has settled: the fault heals, then the runner and the application stop."""
        self.settled.set()
        self.stopping.set()
        nemesis.done.wait(60)
        if self.runner is not None:
            self.runner.stop()
        self.app.stop()
        if self.invoker is not None:
            self.invoker.close()
        if self._record_event in self.plane.listeners:
            self.plane.listeners.remove(self._record_event)

    def raise_errors(self, nemesis: Nemesis) -> None:
        """The first error of the application, the runner, the nemesis or the data plane."""
        for name, error in (("the application", self.app.error),
                            ("the runbook runner", self.runner and self.runner.error),
                            ("the nemesis", nemesis.error)):
            if error is not None:
                raise error if isinstance(error, KitError) else KitError(
                    f"{name} failed: {error!r}")
        if self.plane.errors:
            raise KitError("the RDS data plane failed: " + "; ".join(self.plane.errors))

    def _until(self, condition: Callable[[], bool], timeout: float,
               required: bool = True) -> None:
        """Wait (bounded), woken by every recorded op."""
        changed = self.ctx.recorder.changed
        with changed:
            met = changed.wait_for(condition, timeout=timeout)
        if not met and required:
            raise KitError(f"the drill stalled: a step did not happen within {timeout:.0f} s "
                           "(history in the run directory)")

    def _record_event(self, instance: str, event: str, detail: dict[str, Any]) -> None:
        self.ctx.recorder.record("rds", "rds_event", instance=instance, event=event, **detail)

    def _served(self, found: dict[str, Any]) -> bool:
        """Whether the secret's host:port is an endpoint of the data plane."""
        try:
            host, port = str(found["host"]), int(found["port"])
        except (KeyError, TypeError, ValueError):
            return False
        return host in ("127.0.0.1", "localhost") and self.plane.by_port(port) is not None

    def _password(self, found: dict[str, Any]) -> str | None:
        """The password the application logs in with, given the secret's value: the secret's
        own (credentials: secret), else the kit's for its username; None for an address the
        data plane does not serve (the application gives a password to no one else)."""
        if not self._served(found):
            return None
        if self.spec.app.credentials == "secret":
            given = found.get("password")
            return given if isinstance(given, str) else None
        return self.plane.password(str(found.get("username")))

    def _login(self, found: dict[str, Any]) -> str:
        """Log in once with a secret value's credentials: "" when accepted, else why not."""
        if not self._served(found):
            return "not an endpoint of the data plane"
        try:
            with psycopg.connect(host=str(found["host"]), port=int(found["port"]),
                                 user=str(found.get("username")),
                                 password=str(found.get("password")),
                                 dbname=str(found.get("dbname") or "postgres"),
                                 connect_timeout=2):
                return ""
        except psycopg.Error as exc:
            return f"{type(exc).__name__}: {exc}".strip()[:300]

    def _provision(self) -> None:
        """The application's database user, as its secret names it (and its alternate, when
        the app names one), created by the DBA (the kit) before the application starts; a
        secret without one is recorded, not fixed."""
        arn = app_secret(self.ctx.scenario, self.bound)
        instance = self.plane.get(self.bound.values[f"{self.spec.app.database}.instance"])
        try:
            found = json.loads(self.ctx.admin("secretsmanager").get_secret_value(
                SecretId=arn)["SecretString"])
            user, password = str(found["username"]), str(found["password"])
        except Exception as exc:  # noqa: BLE001 - the solution's secret: recorded as such
            self.ctx.recorder.record("kit", "provision_user", type="fail",
                                     error=f"the secret holds no username and password: {exc}")
            return
        if instance is None:
            raise KitError(f"{self.spec.app.database} is not an instance of the data plane")
        alternate = user + self.spec.app.alternate_user if self.spec.app.alternate_user \
            else None
        try:
            instance.add_user(user, password, found.get("dbname"))
            if alternate:
                instance.add_user(alternate, password, None, member_of=user)
        except psycopg.Error as exc:  # e.g. the secret names the master user, or no database
            self.ctx.recorder.record("kit", "provision_user", type="fail", user=user,
                                     error=f"{type(exc).__name__}: {exc}".strip()[:300])
            return
        self.ctx.recorder.record("kit", "provision_user", user=user, alternate=alternate,
                                 database=found.get("dbname"))

    def _runbook_env(self) -> dict[str, str]:
        home = self.ctx.work / "runbook-home"
        home.mkdir(exist_ok=True)
        creds = self.bound.session(self.spec.runbook.role, "runbook")
        return {**worker_env(self.ctx.scenario, self.bound, str(home), self.spec.runbook.env),
                "AWS_ACCESS_KEY_ID": creds.access_key_id,
                "AWS_SECRET_ACCESS_KEY": creds.secret_access_key,
                "AWS_SESSION_TOKEN": creds.token or ""}
