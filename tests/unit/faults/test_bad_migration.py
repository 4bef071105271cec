"""bad_migration: with the application paused (maintenance), the migration's statement runs
as the master user on the instance's database; the damage is reported `found_after_seconds`
later (unless the drill settled first), and heal resumes the application. A migration
that changes no row is not injected. The statement against a real PostgreSQL is
rds-recovery's runs (kit validate rds-recovery)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from kit.faults import FaultNotInjected
from kit.faults.base import FaultBroken
from tests.unit.faults.drill_double import IDENTIFIER, Drill

STATEMENT = "DELETE FROM orders WHERE id % 2 = 0"


class Database:
    """The primary's PostgreSQL as psycopg.connect reaches it: the statements run on it, and
    how many rows each changes."""

    def __init__(self, rowcount: int) -> None:
        self.rowcount = rowcount
        self.ran: list[tuple[str, bool, str]] = []  # dsn, autocommit, statement

    def connect(self, dsn: str, autocommit: bool = False) -> Any:
        database = self

        class Connection:
            def __enter__(self) -> Connection:
                return self

            def __exit__(self, *exc: object) -> None:
                return None

            def execute(self, statement: str) -> Any:
                database.ran.append((dsn, autocommit, statement))
                return SimpleNamespace(rowcount=database.rowcount)

        return Connection()


def _drill(monkeypatch: pytest.MonkeyPatch, rowcount: int = 3) -> tuple[Drill, Database]:
    drill, database = Drill(), Database(rowcount)
    drill.instance.spec = SimpleNamespace(db_name="shop", master_username="admin")  # type: ignore[attr-defined]
    drill.instance.primary = SimpleNamespace(dsn=lambda db, user: f"postgresql://{user}@/{db}")
    monkeypatch.setattr("kit.faults.rds.psycopg.connect", database.connect)
    return drill, database


def test_the_statement_runs_in_maintenance_and_the_damage_is_reported(
        monkeypatch: pytest.MonkeyPatch) -> None:
    drill, database = _drill(monkeypatch)
    fault = drill.fault("bad_migration", {"statement": STATEMENT}, duration=0.01)
    detail = fault.start()
    assert drill.app.calls == ["pause"]
    assert database.ran == [("postgresql://admin@/shop", True, STATEMENT)]
    assert detail["rows_affected"] == 3 and detail["instance"] == IDENTIFIER
    assert drill.incidents == []  # not noticed yet
    fault.window()
    [(kind, incident)] = drill.incidents
    assert kind == "bad_migration" and incident["maintenance"] is True
    assert incident["started_at"] == detail["started_at"]
    fault.heal()
    assert drill.app.calls == ["pause", "resume"]


def test_a_drill_that_settles_before_the_damage_is_found_hears_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    drill, _ = _drill(monkeypatch)
    fault = drill.fault("bad_migration", {"statement": STATEMENT, "found_after_seconds": 5})
    fault.start()
    drill.settled.set()
    fault.window()
    assert drill.incidents == []


def test_a_migration_that_changes_no_row_is_not_injected(
        monkeypatch: pytest.MonkeyPatch) -> None:
    drill, _ = _drill(monkeypatch, rowcount=0)
    with pytest.raises(FaultNotInjected, match="changed no row"):
        drill.fault("bad_migration", {"statement": STATEMENT}).start()
    assert drill.app.calls == ["pause", "resume"]  # the application is not left paused


def test_an_application_that_does_not_pause_is_the_kits_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    drill, database = _drill(monkeypatch)
    drill.app.pauses = False
    with pytest.raises(FaultBroken, match="did not pause"):
        drill.fault("bad_migration", {"statement": STATEMENT}).start()
    assert database.ran == []
