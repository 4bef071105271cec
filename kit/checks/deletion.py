"""rds.deletion_protection: one call cannot delete the database: the instance survives an
attempted deletion, and the instance the application uses at the end is protected too (a
restored instance does not inherit the setting: RestoreDBInstanceToPointInTime and
RestoreDBInstanceFromDBSnapshot take their own DeletionProtection, default false). The
declared instance is judged whatever the fault: where it still exists at the end it is
protected (a run whose fault never tries a deletion proves nothing about it otherwise).
"""

from __future__ import annotations

from typing import Any

from kit.checks.result import CheckResult, Params, anomaly, error, judged
from kit.history import History

DELETION = "rds.deletion_protection"
DEFAULTS: dict[str, Any] = {"database": "database.main"}


def check_deletion_protection(history: History, p: Params) -> CheckResult:
    """rds.deletion_protection: no deletion went through; the instances in use and declared are
    protected."""
    final = history.final
    if final is None or final.db_instances is None:
        return error(DELETION, "the DB instances were not read at the end: cannot judge", p)
    attempts = [op.value.detail for op in history.of_kind("fault_start")
                if isinstance(op.value.detail, dict)
                and op.value.detail.get("action") == "DeleteDBInstance"]
    # Deleted: a deletion attempt that was not refused, or the declared instance gone.
    deleted = [{"instance": a["instance"], "by": "DeleteDBInstance (the fault)"}
               for a in attempts if not a.get("refused")]
    if final.db_instances.get(p["database"], "absent") is None and not deleted:
        deleted.append({"instance": p["database"], "by": "gone at the end"})
    # Unprotected: the instance the application uses at the end, or the declared one where it
    # still exists, can be deleted in one call (identifier -> which; in use wins for one).
    described = (("the declared instance", final.db_instances.get(p["database"]) or {}),
                 ("the instance in use", (final.in_use or {}).get("description") or {}))
    unprotected = {d.get("DBInstanceIdentifier"): what for what, d in described
                   if d and d.get("DeletionProtection") is not True}
    evidence = {"attempts": attempts, "deleted": anomaly(deleted),
                "unprotected": anomaly(list(unprotected))}
    # Pass rule: nothing deleted, and the instances in use and declared protected.
    if deleted or unprotected:
        parts = [f"{d['instance']} deleted ({d['by']})" for d in deleted]
        parts += [f"{what}, {name}, has DeletionProtection off"
                  for name, what in unprotected.items()]
        return judged(DELETION, False, "; ".join(parts), evidence, p)
    refused = [a.get("refused") for a in attempts]
    what = f"the deletion attempt was refused ({refused[0]})" if refused else \
        "no deletion attempt in this run"
    return judged(DELETION, True, f"{what}; the instance in use and the declared one are "
                  "protected", evidence, p)
