"""Checkers: pure functions over a recorded history, one verdict per invariant id.

`REGISTRY` maps each stable invariant id to its checker, `check(history, params)`;
`DEFAULT_PARAMS` lists the parameters each one reads, with their defaults, so a scenario
loader can validate an invariant's params (`kit.checks.params.resolve`) before a run.
"""

from __future__ import annotations

from kit.checks import (
    boundary,
    concurrency,
    consistency,
    deletion,
    delivery,
    deploy,
    encryption,
    exposure,
    hardening,
    idempotency,
    interference,
    least_privilege,
    producer,
    recovery,
    recovery_point,
    recovery_time,
    workers,
)
from kit.checks.result import Checker, CheckResult, Verdict, run_checks, worst

REGISTRY: dict[str, Checker] = {
    "deploy.allowed_constructs": deploy.check_allowed_constructs,
    "deploy.applies": deploy.check_deploy_applies,
    "delivery.no_loss": delivery.check_no_loss,
    "delivery.poison_to_dlq": delivery.check_poison_to_dlq,
    "delivery.no_valid_in_dlq": delivery.check_no_valid_in_dlq,
    "delivery.no_concurrent_processing": concurrency.check_no_concurrent_processing,
    "idempotency.effects_once": idempotency.check_effects_once,
    "recovery.within_rto": recovery.check_within_rto,
    "rds.hardening": hardening.check_rds_hardening,
    "iam.required_access": least_privilege.check_required_access,
    "iam.least_privilege": least_privilege.check_least_privilege,
    "iam.resource_exposure": exposure.check_resource_exposure,
    "iam.permissions_boundary": boundary.check_permissions_boundary,
    "encryption.at_rest": encryption.check_at_rest,
    "workload.workers_start": workers.check_workers_start,
    "workload.fault_injected": workers.check_fault_injected,
    "workload.producer_sends": producer.check_producer_sends,
    "workload.kit_unharmed": interference.check_kit_unharmed,
    "workload.app_writes": workers.check_app_writes,
    "recovery.rpo": recovery_point.check_rpo,
    "recovery.rto": recovery_time.check_rto,
    "recovery.consistent": consistency.check_consistent,
    "rds.deletion_protection": deletion.check_deletion_protection,
}
# Judged in every run that got that far, whether or not the scenario lists them.
ALWAYS = ("deploy.allowed_constructs", "deploy.applies", "workload.workers_start",
          "workload.fault_injected")

DEFAULT_PARAMS: dict[str, dict[str, object]] = {
    "deploy.allowed_constructs": {},
    "deploy.applies": {},
    "delivery.no_loss": {},
    "delivery.poison_to_dlq": dict(delivery.POISON_DEFAULTS),
    "delivery.no_valid_in_dlq": dict(delivery.DLQ_DEFAULTS),
    "delivery.no_concurrent_processing": {},
    "idempotency.effects_once": dict(idempotency.DEFAULTS),
    "recovery.within_rto": dict(recovery.DEFAULTS),
    "rds.hardening": dict(hardening.DEFAULTS),
    "iam.required_access": dict(least_privilege.REQUIRED_DEFAULTS),
    "iam.least_privilege": dict(least_privilege.LEAST_DEFAULTS),
    "iam.resource_exposure": dict(exposure.DEFAULTS),
    "iam.permissions_boundary": dict(boundary.DEFAULTS),
    "encryption.at_rest": dict(encryption.DEFAULTS),
    "workload.workers_start": {},
    "workload.fault_injected": {},
    "workload.producer_sends": {},
    "workload.kit_unharmed": {},
    "workload.app_writes": {},
    "recovery.rpo": dict(recovery_point.DEFAULTS),
    "recovery.rto": dict(recovery_time.DEFAULTS),
    "recovery.consistent": dict(consistency.DEFAULTS),
    "rds.deletion_protection": dict(deletion.DEFAULTS),
}
# The gates of a drill, in place of workload.workers_start (no workers run in a drill).
DRILL_GATES = ("workload.app_writes",)

__all__ = ["ALWAYS", "DEFAULT_PARAMS", "DRILL_GATES", "REGISTRY", "CheckResult", "Checker",
           "Verdict", "run_checks", "worst"]
