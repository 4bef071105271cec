"""Whether a failure of the kit's own machinery was the solution's doing.

The kit's observer reads the effects database directly, in a session of its own; the
solution's workers share that server (as their own database user). Two things only the
solution can cause there, each decided from what the kit itself sees:
- its session terminated (SQLSTATE 57P01, or the server closing it) while the server
  still serves a new session: another session ended it (pg_terminate_backend), and no
  part of the kit ends the observer's session;
- a session refused for lack of slots (SQLSTATE 53300, too many clients): the solution's
  sessions took them (the kit holds one).
Anything else (the server gone, an unknown error) stays the kit's error.
"""

from __future__ import annotations

import psycopg

TERMINATED = ("57P01",)  # admin_shutdown: pg_terminate_backend, or a server shutdown
EXHAUSTED = ("53300",)  # too_many_connections


def of_session(exc: psycopg.Error, dsn: str) -> str | None:
    """What the solution did to the kit's session that raised `exc`; None when the kit
    sees no sign of the solution in it (then the failure is the kit's)."""
    state = exc.sqlstate
    if state in EXHAUSTED:
        return (f"the database refused the kit a session ({state}: "
                f"{_first_line(exc)}): the solution's sessions took every slot")
    closed = state in TERMINATED or (state is None and isinstance(exc, psycopg.OperationalError))
    if closed and _serving(dsn):
        return (f"the kit's session was ended ({state or 'closed by the server'}: "
                f"{_first_line(exc)}) while the server kept serving: another session "
                "terminated it (pg_terminate_backend), which no part of the kit does")
    return None


def _serving(dsn: str) -> bool:
    """Whether the server answers a new session now (the kit's own probe)."""
    try:
        with psycopg.connect(dsn, connect_timeout=5) as conn:
            conn.execute("select 1")
        return True
    except psycopg.Error:
        return False


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
