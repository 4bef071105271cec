"""The invariant table: everything the kit knows of each invariant it ships, in one row.

A row holds the checker, `check(history, params)`, the defaults of the parameters it reads,
its default severity in the reward, the stage of a run from which it can be judged, the
workload kinds in which every run judges it whether or not the scenario lists it, the
emulator behaviours its verdict rests on (kit/probes/: a cross-check probes them where the
emulators disagree) and its category (a `hardening` defect works but a review flags it:
kit/tasks/catalog.py makes such defects harden tasks). The checkers' registry, the
scenario loader (parameters resolved once, at load), the judge (kit/run/judge.py), the
reward (kit/reward.py), the cross-check and the task catalogue read these rows; nothing
else lists invariants. A scenario's own checks (its checks.py) become rows too (`Invariant.own`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

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
    pacing,
    producer,
    recovery,
    recovery_point,
    recovery_time,
    retention,
    rotation,
    split_brain,
    workers,
)
from kit.checks.params import resolve
from kit.checks.result import Checker

Severity = Literal["gate", "major", "minor"]
# What a verdict needs, in the order a run gets it: the solution's source (the static
# gate), the deploy's outcome, the deployed configuration, the workload's history.
Stage = Literal["source", "deploy", "configuration", "workload"]
WorkloadKind = Literal["queue", "drill"]
# behaviour: what the system does under load and faults; hardening: how it is configured
# (privilege, exposure, encryption, retention, backups), judged from the configuration.
Category = Literal["behaviour", "hardening"]
EVERY_KIND: tuple[WorkloadKind, ...] = ("queue", "drill")


@dataclass(frozen=True)
class Invariant:
    """One invariant: its checker, parameter defaults, severity, stage and when always judged."""

    id: str
    check: Checker
    defaults: Mapping[str, Any] = field(default_factory=dict)
    # gate: a failed one scores the run 0 (kit/reward.py); a scenario may override.
    severity: Severity = "major"
    stage: Stage = "workload"
    # Judged in every run of these workload kinds that got that far, listed or not.
    always: tuple[WorkloadKind, ...] = ()
    # The emulator behaviours (kit/probes/ ids) the verdict rests on; none: no probe can
    # tell which emulator is right when they disagree on it.
    relied_on: tuple[str, ...] = ()
    category: Category = "behaviour"

    def __post_init__(self) -> None:
        # Read-only: a checker or caller must not change what every later run resolves.
        object.__setattr__(self, "defaults", MappingProxyType(dict(self.defaults)))

    @property
    def static(self) -> bool:
        """Judged from the deployed configuration alone: it stands even when nothing ran."""
        return self.stage == "configuration"

    @property
    def gate(self) -> bool:
        """A gate of every other invariant by default: nothing else counts when it fails."""
        return self.severity == "gate"

    def params(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The defaults overlaid with `given`, validated (ParamError names a bad one)."""
        # A deep copy: a caller's list (services, roles) must not be the table's.
        return resolve(self.id, given, copy.deepcopy(dict(self.defaults)))

    @classmethod
    def own(cls, check_id: str, check: Checker, defaults: Mapping[str, Any],
            relied_on: tuple[str, ...] = ()) -> Invariant:
        """A scenario's own invariant (its checks.py): major, judged on the workload."""
        return cls(check_id, check, defaults, relied_on=relied_on)


_ROWS = (
    Invariant(deploy.ALLOWED_CONSTRUCTS, deploy.check_allowed_constructs, severity="gate",
              stage="source", always=EVERY_KIND),
    Invariant(deploy.DEPLOY_APPLIES, deploy.check_deploy_applies, severity="gate",
              stage="deploy", always=EVERY_KIND),
    Invariant(delivery.NO_LOSS, delivery.check_no_loss,
              relied_on=("sqs.visibility_timeout", "sqs.redrive_to_dlq",
                         "sqs.released_waits_its_turn", "sqs.fifo_deduplication",
                         "sqs.fifo_expired_receipt_handle")),
    Invariant(delivery.POISON_TO_DLQ, delivery.check_poison_to_dlq, delivery.POISON_DEFAULTS,
              relied_on=("sqs.redrive_to_dlq", "sqs.receive_count",
                         "sqs.release_with_zero_visibility", "sqs.released_waits_its_turn")),
    Invariant(delivery.NO_VALID_IN_DLQ, delivery.check_no_valid_in_dlq, delivery.DLQ_DEFAULTS,
              relied_on=("sqs.redrive_to_dlq", "sqs.receive_count", "sqs.visibility_timeout")),
    Invariant(concurrency.NO_CONCURRENT_PROCESSING, concurrency.check_no_concurrent_processing,
              relied_on=("sqs.visibility_timeout", "sqs.one_receiver", "sqs.fifo_group_lock",
                         "sqs.fifo_expired_receipt_handle")),
    Invariant(idempotency.EFFECTS_ONCE, idempotency.check_effects_once, idempotency.DEFAULTS,
              relied_on=("sqs.fifo_deduplication", "sqs.visibility_timeout")),
    Invariant(recovery.WITHIN_RTO, recovery.check_within_rto, recovery.DEFAULTS,
              relied_on=("sqs.visibility_timeout",)),
    Invariant(hardening.RDS_HARDENING, hardening.check_rds_hardening, hardening.DEFAULTS,
              stage="configuration", category="hardening"),
    Invariant(least_privilege.REQUIRED, least_privilege.check_required_access,
              least_privilege.REQUIRED_DEFAULTS, stage="configuration",
              relied_on=("iam.enforced",)),
    Invariant(least_privilege.LEAST, least_privilege.check_least_privilege,
              least_privilege.LEAST_DEFAULTS, stage="configuration",
              relied_on=("iam.enforced",), category="hardening"),
    Invariant(exposure.EXPOSURE, exposure.check_resource_exposure, exposure.DEFAULTS,
              stage="configuration", category="hardening"),
    Invariant(boundary.BOUNDARY, boundary.check_permissions_boundary, boundary.DEFAULTS,
              stage="configuration", category="hardening"),
    Invariant(encryption.AT_REST, encryption.check_at_rest, encryption.DEFAULTS,
              stage="configuration", category="hardening"),
    Invariant(retention.RETENTION, retention.check_retention, retention.DEFAULTS,
              stage="configuration", category="hardening"),
    Invariant(workers.WORKERS_START, workers.check_workers_start, workers.DEFAULTS,
              severity="gate", always=("queue",)),
    Invariant(workers.FAULT_INJECTED, workers.check_fault_injected, severity="gate",
              always=EVERY_KIND),
    Invariant(pacing.RETRIES_PACED, pacing.check_retries_paced, pacing.DEFAULTS),
    # Judged only when AWS refused every send, and when the workers harmed the kit's
    # observer (kit/run/judge.py): gates then, since nothing else ran.
    Invariant(producer.PRODUCER_SENDS, producer.check_producer_sends, severity="gate"),
    Invariant(interference.KIT_UNHARMED, interference.check_kit_unharmed, severity="gate"),
    # A drill's gate in place of workload.workers_start (no workers run in a drill).
    Invariant(workers.APP_WRITES, workers.check_app_writes, always=("drill",)),
    Invariant(recovery_point.RPO, recovery_point.check_rpo, recovery_point.DEFAULTS),
    Invariant(recovery_time.RTO, recovery_time.check_rto, recovery_time.DEFAULTS),
    Invariant(consistency.CONSISTENT, consistency.check_consistent, consistency.DEFAULTS),
    Invariant(split_brain.SINGLE_WRITER, split_brain.check_single_writer, split_brain.DEFAULTS),
    Invariant(deletion.DELETION, deletion.check_deletion_protection, deletion.DEFAULTS,
              category="hardening"),
    Invariant(rotation.COMPLETES, rotation.check_completes),
    Invariant(rotation.REVOKED, rotation.check_revoked),
    Invariant(rotation.UNINTERRUPTED, rotation.check_uninterrupted),
)
# The table, by id, in the order verdicts are reported.
INVARIANTS: dict[str, Invariant] = {row.id: row for row in _ROWS}


def checkers(table: Mapping[str, Invariant] = INVARIANTS) -> dict[str, Checker]:
    """Each invariant id's checker: the registry that `run_checks` looks ids up in."""
    return {i: row.check for i, row in table.items()}


def gates() -> tuple[str, ...]:
    """The kit's gate invariants: a run that fails one scores 0, unless a scenario says."""
    return tuple(row.id for row in INVARIANTS.values() if row.gate)


def static() -> tuple[str, ...]:
    """The invariants judged from the deployed configuration alone."""
    return tuple(row.id for row in INVARIANTS.values() if row.static)


def always(kind: str) -> tuple[str, ...]:
    """The invariants every run of a workload kind judges (in table order), listed or not."""
    return tuple(row.id for row in INVARIANTS.values() if kind in row.always)


def hardening_ids(table: Mapping[str, Invariant] = INVARIANTS) -> frozenset[str]:
    """The invariants of the hardening category (a defect of only these is a review
    finding: it works)."""
    return frozenset(i for i, row in table.items() if row.category == "hardening")


def before_workload() -> tuple[str, ...]:
    """The invariants judged from the source and the deploy's outcome: all that a run which
    did not deploy judges."""
    return tuple(row.id for row in INVARIANTS.values() if row.stage in ("source", "deploy"))


def defaults(ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Each named kit invariant with its default parameters (for ids no scenario lists)."""
    return {i: INVARIANTS[i].params() for i in ids}
