"""Every fault kind by its name in scenario.yaml (one module per family)."""

from __future__ import annotations

from kit.faults.base import FaultKind
from kit.faults.clock import ClockSkew
from kit.faults.function import FunctionThrottle, FunctionTimeout
from kit.faults.iam import (
    BoundaryTightened,
    IamDeny,
    PolicyRollback,
    ResourceDeny,
    StatementRemoved,
    TrustNarrowed,
)
from kit.faults.messages import LostDeletes
from kit.faults.network import NetworkLatency, NetworkOutage
from kit.faults.process import WorkerCrash
from kit.faults.rds import (
    AzLoss,
    BadMigration,
    InstanceCrash,
    InstanceDelete,
    MaintenanceReboot,
    RegionLoss,
)
from kit.faults.rotation import SecretRotation

FAULTS: dict[str, type[FaultKind]] = {
    "worker_crash": WorkerCrash,
    "lost_deletes": LostDeletes,
    "network_outage": NetworkOutage,
    "network_latency": NetworkLatency,
    "iam_deny": IamDeny,
    "policy_rollback": PolicyRollback,
    "boundary_tightened": BoundaryTightened,
    "statement_removed": StatementRemoved,
    "resource_deny": ResourceDeny,
    "trust_narrowed": TrustNarrowed,
    "instance_crash": InstanceCrash,
    "az_loss": AzLoss,
    "bad_migration": BadMigration,
    "instance_delete": InstanceDelete,
    "reboot_failover": MaintenanceReboot,
    "region_loss": RegionLoss,
    "clock_skew": ClockSkew,
    "function_timeout": FunctionTimeout,
    "function_throttle": FunctionThrottle,
    "secret_rotation": SecretRotation,
}
KINDS = ("none", *FAULTS)
