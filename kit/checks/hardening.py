"""rds.hardening: the database instance is deployed the way a reviewer would accept.

Read from the final DescribeDBInstances entry and the Terraform plan facts: engine
postgres, not publicly accessible, storage encrypted, backups kept at least
min_backup_retention_days, deletion protection on, and the master password not written
as a literal in the configuration: a value that evaluates to a literal before the apply,
through locals, variable defaults and tfvars, module inputs, templates or simple functions
(kit/deploy/inspect.py, kit/deploy/values.py); generated, managed or fetched ones are not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kit.checks.result import CheckResult, Params, error, judged
from kit.history import History

RDS_HARDENING = "rds.hardening"
DEFAULTS = {"min_backup_retention_days": 7, "database": "database.main"}

_MISSING = object()


def check_rds_hardening(history: History, p: Params) -> CheckResult:
    """rds.hardening: engine, privacy, encryption, backups, deletion protection, password."""
    final = history.final
    instances = final.db_instances if final is not None else None
    if instances is None or final is None or final.rds_config is None:
        return error(RDS_HARDENING, "the DB instance description and the Terraform RDS facts "
                     "were not both collected: cannot judge hardening", p)
    db = instances.get(p["database"])
    if db is None:
        # Read, and gone: the instance the outputs named no longer exists at the end.
        return judged(RDS_HARDENING, False, f"the DB instance of {p['database']} does not "
                      "exist at the end of the run", {"instance": None}, p)
    days = p["min_backup_retention_days"]
    # attribute -> (actual value, what is required, does the value meet it)
    rules: dict[str, tuple[Any, str, Callable[[Any], bool]]] = {
        "Engine": (db.get("Engine", _MISSING), "postgres", lambda v: v == "postgres"),
        "PubliclyAccessible": (db.get("PubliclyAccessible", _MISSING), "false",
                               lambda v: v is False),
        "StorageEncrypted": (db.get("StorageEncrypted", _MISSING), "true", lambda v: v is True),
        "BackupRetentionPeriod": (db.get("BackupRetentionPeriod", _MISSING), f">= {days}",
                                  lambda v: isinstance(v, int) and not isinstance(v, bool)
                                  and v >= days),
        "DeletionProtection": (db.get("DeletionProtection", _MISSING), "true",
                               lambda v: v is True),
        "MasterPasswordLiteral": (final.rds_config.password_literal, "false",
                                  lambda v: v is False),
    }

    # At fault: an attribute whose value does not meet its requirement. Missing: an
    # attribute the description lacks (cannot judge it; not blamed on the solution).
    at_fault: dict[str, dict[str, Any]] = {}
    missing: list[str] = []
    checked: dict[str, Any] = {}
    for name, (actual, required, ok) in rules.items():
        if actual is _MISSING:
            missing.append(name)
            continue
        checked[name] = actual
        if not ok(actual):
            at_fault[name] = {"actual": actual, "required": required}
    if "MasterPasswordLiteral" in at_fault:
        at_fault["MasterPasswordLiteral"]["where"] = final.rds_config.where
    evidence = {"instance": db.get("DBInstanceIdentifier"), "checked": checked,
                "at_fault": at_fault, "missing": missing}
    # Pass rule: every attribute present and meeting its requirement; a violation fails
    # even when another attribute is missing, otherwise a missing one is an error.
    if at_fault:
        parts = [f"{name}={v['actual']!r} (want {v['required']})" for name, v in at_fault.items()]
        return judged(RDS_HARDENING, False, "RDS not hardened: " + ", ".join(parts), evidence, p)
    if missing:
        return error(RDS_HARDENING, f"DB instance description lacks {', '.join(missing)}: "
                     f"cannot judge hardening", p, evidence)
    return judged(RDS_HARDENING, True, f"RDS instance {evidence['instance']} meets all "
                  f"{len(rules)} hardening requirements", evidence, p)
