"""Secret rotation (drills whose fault rotates the application's credentials, kit/faults/
rotation.py): the rotations complete, the first credentials are revoked by the end, and the
application is never refused meanwhile.

- rotation.completes: every rotation's four steps succeeded and left the staging labels as
  a successful rotation does (Secrets Manager API reference, RotateSecret: "When rotation is
  successful, the AWSPENDING staging label might be attached to the same version as the
  AWSCURRENT version, or it might not be attached to any version"; User Guide, "Lambda
  rotation functions": finishSecret moves AWSCURRENT to the new version, AWSPREVIOUS then
  labels the version that was current).
- rotation.old_credentials_revoked: the credentials that were current before the first
  rotation no longer log in at the end (the kit tried once, as the fault healed): the
  database refused them. A login that failed otherwise (the server unreachable, shutting
  down, out of connections) says nothing about the credentials: the kit cannot judge it.
- workload.uninterrupted: none of the application's logins and writes failed during the
  run.
"""

from __future__ import annotations

import re

from kit.checks.result import CheckResult, Params, anomaly, error, judged
from kit.history import History, Op

COMPLETES = "rotation.completes"
REVOKED = "rotation.old_credentials_revoked"
UNINTERRUPTED = "workload.uninterrupted"
# PostgreSQL's own words when it refuses a login for its credentials (src/backend/libpq/
# auth.c and utils/init/postinit.c: SQLSTATE 28P01 invalid_password, 28000
# invalid_authorization_specification, 42501 CONNECT privilege): a FATAL from the server,
# which libpq passes on as the connection's error (psycopg gives no SQLSTATE for it).
_REFUSED = re.compile(r"FATAL:\s+(password authentication failed|role \".*\" does not exist"
                      r"|role \".*\" is not permitted to log in|pg_hba\.conf rejects"
                      r"|no pg_hba\.conf entry|permission denied for database"
                      r"|.*authentication failed for user)")


def _all(history: History, kind: str) -> list[Op]:
    """Every op of `kind`, failed ones too (History.of_kind keeps the ok ones only)."""
    return [op for op in history.ops if op.kind == kind]


def _holder(labels: dict[str, list[str]], label: str) -> list[str]:
    return sorted(version for version, stages in labels.items() if label in stages)


def rotation_problems(op: Op) -> list[str]:
    """What is wrong with one recorded rotation (empty: it succeeded as AWS requires)."""
    value = op.value
    if op.type != "ok":
        return [f"the rotation failed: {value.error}"]
    before, after, token = value.before or {}, value.after or {}, value.token
    problems = []
    if _holder(after, "AWSCURRENT") != [token]:
        problems.append(f"AWSCURRENT is on {_holder(after, 'AWSCURRENT') or 'no version'}, "
                        f"not on the rotation's version {token}")
    if _holder(after, "AWSPREVIOUS") != _holder(before, "AWSCURRENT"):
        problems.append(f"AWSPREVIOUS is on {_holder(after, 'AWSPREVIOUS') or 'no version'}, "
                        f"not on the version that was current, "
                        f"{_holder(before, 'AWSCURRENT') or 'none'}")
    pending = [v for v in _holder(after, "AWSPENDING") if v not in _holder(after, "AWSCURRENT")]
    if pending:
        problems.append(f"AWSPENDING is left on {pending}, apart from AWSCURRENT")
    return problems


def check_completes(history: History, p: Params) -> CheckResult:
    """rotation.completes: each rotation succeeded and moved the labels as AWS requires."""
    rotations = _all(history, "rotation")
    failed = [{"rotation": op.value.rotation, "token": op.value.token, "problems": problems}
              for op in rotations if (problems := rotation_problems(op))]
    steps = [{"rotation": op.value.rotation, "step": op.value.step, "error": op.value.error}
             for op in _all(history, "rotation_step") if op.type != "ok"]
    evidence = {"rotations": len(rotations), "failed": anomaly(failed),
                "failed_steps": anomaly(steps)}
    # Pass rule: no rotation failed or left its labels wrong.
    if failed:
        first = failed[0]
        return judged(COMPLETES, False, f"{len(failed)} of {len(rotations)} rotation(s) did "
                      f"not complete; rotation {first['rotation']}: "
                      f"{'; '.join(first['problems'])}", evidence, p)
    what = f"{len(rotations)} rotation(s) completed" if rotations else "no rotation in this run"
    return judged(COMPLETES, True, what, evidence, p)


def refused(login_error: str) -> bool:
    """Whether a failed login's error is the database refusing the credentials."""
    return _REFUSED.search(login_error) is not None


def check_revoked(history: History, p: Params) -> CheckResult:
    """rotation.old_credentials_revoked: the first credentials are refused at the end."""
    logins = _all(history, "first_credentials_login")
    if not logins:
        return judged(REVOKED, True, "no rotation in this run", {}, p)
    login = logins[-1]
    evidence = {"version": login.value.version, "login": login.type,
                "error": login.value.error}
    # Pass rule: the database refused the login with the first credentials.
    if login.type == "ok":
        return judged(REVOKED, False, f"the credentials of version {login.value.version}, "
                      "current before the first rotation, still log in at the end",
                      evidence, p)
    if not refused(login.value.error):
        return error(REVOKED, "the login with the first credentials failed for another "
                     f"reason than the credentials, so the kit cannot tell whether they are "
                     f"revoked: {login.value.error}", p, evidence)
    return judged(REVOKED, True, f"the first credentials are refused ({login.value.error})",
                  evidence, p)


def check_uninterrupted(history: History, p: Params) -> CheckResult:
    """workload.uninterrupted: none of the application's logins and writes failed."""
    # Failure: a login refused or impossible, a write not committed or in doubt.
    failures = [{"op": op.kind, "index": op.index, "type": op.type,
                 "error": getattr(op.value, "error", None)}
                for op in history.ops if op.process == "app" and op.kind in ("connect", "write")
                and op.type in ("fail", "info")]
    evidence = {"failures": anomaly(failures)}
    # Pass rule: no failed login or write.
    if failures:
        return judged(UNINTERRUPTED, False, f"{len(failures)} of the application's logins and "
                      f"writes failed; first: {failures[0]['op']}: {failures[0]['error']}",
                      evidence, p)
    return judged(UNINTERRUPTED, True, "no login or write of the application failed",
                  evidence, p)
