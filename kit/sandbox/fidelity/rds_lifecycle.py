"""RDS: a DB instance reads back the engine lifecycle support it was created with.

Found by `make fidelity` (terraform-aws-modules/rds complete-postgres sets
`engine_lifecycle_support`): moto 5.2 ignores EngineLifecycleSupport, so the instance's
plan right after the apply changes it again. A module of its own beside rds.py (a read-back
gap of the corpus, kit/sandbox/fidelity/__init__.py registers it with RDS's fixes).
"""

from __future__ import annotations

from typing import Any

# AWS RDS API reference, CreateDBInstance, EngineLifecycleSupport: "Valid for Engine: RDS
# for MySQL and RDS for PostgreSQL ... Default: open-source-rds-extended-support".
ENGINES = ("mysql", "postgres")
DEFAULT = "open-source-rds-extended-support"


def engine_lifecycle_support_reads_back() -> None:
    """A MySQL or PostgreSQL DB instance reports the EngineLifecycleSupport it was created
    with (open-source-rds-extended-support unless given), as AWS's DBInstance does."""
    from moto.rds.models import DBInstance, RDSBackend

    if "kit_engine_lifecycle_support" in vars(RDSBackend):
        return
    create = RDSBackend.create_db_instance

    def create_db_instance(self: Any, db_kwargs: dict[str, Any]) -> Any:
        database = create(self, db_kwargs)
        given = db_kwargs.get("engine_lifecycle_support")
        if given is not None or database.engine in ENGINES:
            database.__dict__["engine_lifecycle_support"] = given or DEFAULT
        return database

    def lifecycle(self: Any) -> str | None:
        return self.__dict__.get("engine_lifecycle_support")

    def set_lifecycle(self: Any, value: str | None) -> None:
        self.__dict__["engine_lifecycle_support"] = value

    RDSBackend.create_db_instance = create_db_instance  # type: ignore[method-assign]
    RDSBackend.kit_engine_lifecycle_support = True  # type: ignore[attr-defined]
    DBInstance.engine_lifecycle_support = property(  # type: ignore[attr-defined]
        lifecycle, set_lifecycle)
