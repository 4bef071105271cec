"""What a fault may act on besides the gateway and the proxies, as the run hands it over
(FaultContext, kit/faults/base.py): the workers (a supervisor, or the Lambda service that
runs a consumer function), a drill's data plane and application, a rotation's secret."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from kit.lambdas.invoke import Outcome
    from kit.rds.plane import DataPlane
    from kit.workload.app import AppWriter


class Workers(Protocol):
    """The processes that consume the workload (kit/workload/supervisor.py, or
    kit/lambdas/service.py's invocations): who holds work now, and a kill."""

    def holders(self) -> dict[str, int]:
        """Live process names that may hold work -> pid."""
        ...

    def kill(self, name: str) -> bool:
        """SIGKILL the process `name` (it is restarted); whether it was alive."""
        ...


@dataclass
class DrillHooks:
    """What RDS faults act on: the plane, the application, the admin's RDS client (someone
    allowed everything), the declared instances, where incidents go, the drill's end."""

    plane: DataPlane
    app: AppWriter
    admin: Any  # boto3 RDS client to the front
    instances: Mapping[str, str]  # database resource -> instance identifier
    report: Callable[[str, dict[str, Any]], None]
    settled: threading.Event


@dataclass
class RotationHooks:
    """What a rotation acts on: the application (its logins), an admin Secrets Manager
    client (the service's own view of the secret), the kit's Lambda runtime, and a login."""

    app: AppWriter
    secrets: Any  # boto3 Secrets Manager client straight to the emulator
    invoke: Callable[[str, dict[str, Any]], Outcome]  # function ARN, event -> outcome
    login: Callable[[dict[str, Any]], str]  # credentials -> "" when the login succeeds
