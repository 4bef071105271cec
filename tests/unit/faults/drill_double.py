"""Stand-ins for what the RDS fault kinds act on in a drill (kit.faults.rds.DrillHooks):
the data plane and its instance, the application, the admin's RDS client, the incident
sink. Each keeps what was done to it, so a test says what a fault did. The same faults on
the real data plane are tests/integration/test_rds_plane.py and rds-recovery's runs."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from botocore.exceptions import ClientError

from kit.faults import FAULTS, FaultContext
from kit.faults.hooks import DrillHooks
from kit.faults.spec import Fault
from kit.recorder import Recorder

IDENTIFIER = "orders-db"


@dataclass
class Instance:
    """A DB instance: its status, and the zone events it went through."""

    status: str = "available"
    events: list[str] = field(default_factory=list)
    primary: Any = None
    identifier: str = IDENTIFIER
    spec: Any = field(default_factory=lambda: SimpleNamespace(region="us-east-1"))

    def cut_off(self) -> None:
        self.events.append("cut_off")

    def lose_az(self) -> None:
        self.events.append("lose_az")

    def heal_az(self) -> None:
        self.events.append("heal_az")


@dataclass
class Plane:
    """The data plane: its instances, and the crashes it was asked for."""

    instances: dict[str, Instance] = field(default_factory=dict)
    crashed: list[str] = field(default_factory=list)

    def get(self, identifier: str) -> Instance | None:
        return self.instances.get(identifier)

    def crash(self, instance: Instance) -> None:
        self.crashed.append(next(k for k, v in self.instances.items() if v is instance))

    def run(self, instance: Instance, what: str, action: Any, *args: Any) -> None:
        action(*args)  # at once: the real plane runs it in a thread

    def cut_region(self, region: str) -> list[Instance]:
        cut = [i for i in self.instances.values() if i.spec.region == region]
        for instance in cut:
            instance.events.append("region_cut")
        return cut

    def heal_region(self, cut: list[Instance]) -> None:
        for instance in cut:
            instance.events.append("region_healed")


@dataclass
class Gateway:
    """The gateway: the Regions it answers 503 for, and the changes."""

    lost: list[str] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)

    def lose_region(self, region: str) -> None:
        self.lost.append(region)
        self.changes.append(f"lose {region}")

    def restore_region(self, region: str) -> None:
        self.lost.remove(region)
        self.changes.append(f"restore {region}")


@dataclass
class App:
    """The application writer: whether it pauses, and its pauses and resumes."""

    pauses: bool = True
    calls: list[str] = field(default_factory=list)

    def pause(self) -> bool:
        self.calls.append("pause")
        return self.pauses

    def resume(self) -> None:
        self.calls.append("resume")


@dataclass
class RdsAdmin:
    """The admin's RDS client: the calls made, and the error code to answer some with."""

    refuse: dict[str, str] = field(default_factory=dict)  # operation -> error code
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def _call(self, operation: str, kwargs: dict[str, Any]) -> dict[str, Any]:
        self.calls.append((operation, kwargs))
        code = self.refuse.pop(operation, None)
        if code:
            raise ClientError({"Error": {"Code": code, "Message": code}}, operation)
        return {}

    def delete_db_instance(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("DeleteDBInstance", kwargs)

    def reboot_db_instance(self, **kwargs: Any) -> dict[str, Any]:
        return self._call("RebootDBInstance", kwargs)


@dataclass
class Drill:
    """One drill's handles, and the incidents reported to the runbook."""

    plane: Plane = field(default_factory=lambda: Plane({IDENTIFIER: Instance()}))
    app: App = field(default_factory=App)
    admin: RdsAdmin = field(default_factory=RdsAdmin)
    incidents: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    settled: threading.Event = field(default_factory=threading.Event)
    gateway: Gateway = field(default_factory=Gateway)

    @property
    def instance(self) -> Instance:
        return self.plane.instances[IDENTIFIER]

    def fault(self, kind: str, params: dict[str, Any] | None = None,
              duration: float = 0.0) -> Any:
        """A fault of `kind` on database.main, whose instance is IDENTIFIER."""
        hooks = DrillHooks(self.plane, self.app, self.admin,  # type: ignore[arg-type]
                           {"database.main": IDENTIFIER},
                           lambda kind, incident: self.incidents.append((kind, incident)),
                           self.settled)
        spec = Fault(kind=kind, target="database.main", duration_seconds=duration,
                     params=params or {})
        ctx = FaultContext(spec=spec, params=FAULTS[kind].Params.model_validate(params or {}),
                           recorder=Recorder(), supervisor=None,
                           gateway=self.gateway, stopping=threading.Event(),  # type: ignore[arg-type]
                           drill=hooks)
        return FAULTS[kind](ctx)
