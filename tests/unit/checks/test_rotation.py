"""The rotation checkers on small histories: each anomaly they define makes them fail; what a
correct rotation records makes them pass."""

from __future__ import annotations

from typing import Any

import pytest

from kit.checks.rotation import (
    COMPLETES,
    REVOKED,
    UNINTERRUPTED,
    check_completes,
    check_revoked,
    check_uninterrupted,
)
from kit.history import History, make_history

from .builder import params_of

V0, V1, V2 = "v0", "t1", "t2"


def history(*ops: tuple[str, str, str, dict[str, Any]]) -> History:
    """A history of (process, kind, type, value) ops."""
    return make_history([{"index": i, "time": i * 0.1, "process": process, "type": type_,
                          "kind": kind, "value": value}
                         for i, (process, kind, type_, value) in enumerate(ops)])


def rotation(number: int, token: str, before: dict[str, list[str]],
             after: dict[str, list[str]], error: str = "") -> tuple[str, str, str, dict]:
    return ("kit", "rotation", "fail" if error else "ok",
            {"rotation": number, "token": token, "before": before, "after": after,
             "error": error})


FIRST = rotation(0, V1, {V0: ["AWSCURRENT"]}, {V0: ["AWSPREVIOUS"], V1: ["AWSCURRENT"]})
SECOND = rotation(1, V2, {V0: ["AWSPREVIOUS"], V1: ["AWSCURRENT"]},
                  {V1: ["AWSPREVIOUS"], V2: ["AWSCURRENT", "AWSPENDING"]})


def completes(*ops: tuple[str, str, str, dict[str, Any]]) -> str:
    return check_completes(history(*ops), params_of(COMPLETES)).verdict


def test_rotations_that_move_the_labels_complete() -> None:
    assert completes(FIRST, SECOND) == "pass"
    assert completes() == "pass"  # no rotation in the run


def test_a_failed_step_fails_the_rotation() -> None:
    failed = rotation(0, V1, {V0: ["AWSCURRENT"]}, {V0: ["AWSCURRENT"], V1: ["AWSPENDING"]},
                      error="finishSecret: AccessDenied")
    step = ("kit", "rotation_step", "fail", {"rotation": 0, "step": "finishSecret",
                                              "token": V1, "error": "AccessDenied"})
    result = check_completes(history(step, failed), params_of(COMPLETES))
    assert result.verdict == "fail" and "AccessDenied" in result.summary
    assert result.evidence["failed_steps"]["count"] == 1


def test_current_left_behind_previous_wrong_or_pending_apart_fail() -> None:
    stayed = rotation(0, V1, {V0: ["AWSCURRENT"]}, {V0: ["AWSCURRENT"], V1: ["AWSPENDING"]})
    no_previous = rotation(0, V1, {V0: ["AWSCURRENT"]}, {V1: ["AWSCURRENT"]})
    pending_apart = rotation(0, V1, {V0: ["AWSCURRENT"]},
                             {V0: ["AWSPREVIOUS"], V1: ["AWSCURRENT"], "x": ["AWSPENDING"]})
    for bad in (stayed, no_previous, pending_apart):
        assert completes(FIRST, bad) == "fail"


# PostgreSQL 15's words through psycopg 3 (recorded against a real server).
AT = 'OperationalError: connection failed: connection to server at "127.0.0.1", port 5432 failed: '
WRONG_PASSWORD = AT + 'FATAL:  password authentication failed for user "app"'
NO_ROLE = AT + 'FATAL:  role "app" does not exist'
UNREACHABLE = AT + "Connection refused\n\tIs the server running on that host and accepting TCP/IP"
FULL = AT + "FATAL:  sorry, too many clients already"


def login(type_: str, error: str = WRONG_PASSWORD) -> tuple[str, str, str, dict[str, Any]]:
    return ("kit", "first_credentials_login", type_,
            {"version": V0, "error": "" if type_ == "ok" else error})


def test_first_credentials_must_be_refused_at_the_end() -> None:
    def verdict(*ops: tuple) -> str:
        return check_revoked(history(*ops), params_of(REVOKED)).verdict

    assert verdict(FIRST, SECOND, login("fail")) == "pass"
    assert verdict(FIRST, SECOND, login("fail", NO_ROLE)) == "pass"
    assert verdict(FIRST, SECOND, login("ok")) == "fail"
    assert verdict() == "pass"


@pytest.mark.parametrize("why", [UNREACHABLE, FULL, "not JSON"])
def test_a_login_that_failed_for_another_reason_is_not_a_revocation(why: str) -> None:
    result = check_revoked(history(FIRST, SECOND, login("fail", why)), params_of(REVOKED))
    assert result.verdict == "error" and "cannot tell" in result.summary


def test_a_failed_login_or_write_interrupts() -> None:
    ok = ("app", "write", "ok", {"key": "k1", "fields": {}, "endpoint": "e"})
    refused = ("app", "connect", "fail", {"endpoint": "e", "error": "password authentication"})
    denied = ("app", "write", "fail", {"key": "k2", "error": "permission denied"})
    assert check_uninterrupted(history(ok), params_of(UNINTERRUPTED)).verdict == "pass"
    for bad in (refused, denied):
        result = check_uninterrupted(history(ok, bad), params_of(UNINTERRUPTED))
        assert result.verdict == "fail" and result.evidence["failures"]["count"] == 1
