"""RDS: the DB engines AWS offers today, their default parameter groups, and the
catalogue answers moto has no data for.

moto internals touched: moto.rds.utils.DbInstanceEngine.valid_db_instance_engine,
moto.rds.models.DBInstance.default_port, DBInstance.default_allocated_storage,
DBInstance.default_db_parameter_group_details, DBInstance.engine, DBInstance.engine_version,
DBCluster.default_allocated_storage, DBCluster.parameter_group, DBCluster.engine,
DBCluster.engine_version, RDSBackend.create_db_cluster,
RDSBackend.describe_orderable_db_instance_options.
"""

from __future__ import annotations

import re
from typing import Any

# RDS API reference, CreateDBInstance, Engine, "Valid Values" (moto 5.2's list is of
# 2023-11-08: it lacks Db2, the RDS Custom for Oracle SE2 engines and the SQL Server
# developer editions).
ENGINES = ("aurora-mysql", "aurora-postgresql", "custom-oracle-ee", "custom-oracle-ee-cdb",
           "custom-oracle-se2", "custom-oracle-se2-cdb", "custom-sqlserver-ee",
           "custom-sqlserver-se", "custom-sqlserver-web", "custom-sqlserver-dev", "db2-ae",
           "db2-ce", "db2-se", "mariadb", "mysql", "oracle-ee", "oracle-ee-cdb", "oracle-se2",
           "oracle-se2-cdb", "postgres", "sqlserver-dev-ee", "sqlserver-ee", "sqlserver-se",
           "sqlserver-ex", "sqlserver-web")
# Parameter group families (RDS User Guide, "Working with parameter groups";
# DescribeDBEngineVersions' DBParameterGroupFamily): postgres16, aurora-postgresql16,
# mysql8.0, mariadb10.11, aurora-mysql8.0, oracle-ee-19, sqlserver-ee-16.0, db2-se-11.5.
# engine prefix -> (leading version numbers, separator); SQL Server's minor is unpadded.
# PostgreSQL before 10 names two numbers (postgres9.6).
_FAMILY_RULES = (("aurora-postgresql", 1, ""), ("postgres", 1, ""), ("aurora-mysql", 2, ""),
                 ("mysql", 2, ""), ("mariadb", 2, ""), ("oracle-", 1, "-"),
                 ("sqlserver-", 2, "-"), ("db2-", 2, "-"))
_NUMBER = re.compile(r"^\d+$")
# The engine moto has defaults for (port, storage) that an engine it lacks shares them with;
# Db2's default port is 50000 (CreateDBInstance, Port).
_SIBLING = {"oracle-ee-cdb": "oracle-ee", "oracle-se2-cdb": "oracle-se2",
            "custom-oracle-ee": "oracle-ee", "custom-oracle-ee-cdb": "oracle-ee",
            "custom-oracle-se2": "oracle-se2", "custom-oracle-se2-cdb": "oracle-se2",
            "custom-sqlserver-ee": "sqlserver-ee", "custom-sqlserver-se": "sqlserver-se",
            "custom-sqlserver-web": "sqlserver-web", "custom-sqlserver-dev": "sqlserver-ee",
            "sqlserver-dev-ee": "sqlserver-ee", "db2-ae": "postgres", "db2-ce": "postgres",
            "db2-se": "postgres"}
DB2_PORT = 50000
# Storage types moto's default-storage tables lack (CreateDBInstance / CreateDBCluster,
# StorageType: gp3, io2; Aurora's aurora and aurora-iopt1), and the row they share.
_STORAGE_SIBLING = {"gp3": "gp2", "io2": "io1", "aurora": "gp2", "aurora-iopt1": "gp2"}


def db_family(engine: str, version: str) -> str | None:
    """The parameter group family of an engine version (postgres16, mysql8.0,
    sqlserver-ee-16.0); None for an engine or version of another shape."""
    engine = engine.lower()
    rule = next((r for r in _FAMILY_RULES if engine == r[0] or (
        r[0].endswith("-") and engine.startswith(r[0]))), None)
    if rule is None or engine.startswith("custom-"):
        return None
    _, parts, separator = rule
    if "postgres" in engine and version.split(".")[0].isdigit() and int(version.split(".")[0]) < 10:
        parts = 2  # before PostgreSQL 10 a major version had two numbers (postgres9.6)
    numbers = version.split(".")[:parts]
    if len(numbers) < parts or not all(_NUMBER.match(n) for n in numbers):
        return None
    if engine.startswith("sqlserver-"):
        numbers = [str(int(n)) for n in numbers]
    return engine + separator + ".".join(numbers)


def current_engines_are_accepted() -> None:
    """CreateDBInstance accepts every engine RDS offers (Db2, RDS Custom for Oracle SE2,
    SQL Server developer editions), and every storage type.

    AWS (RDS API reference, CreateDBInstance, Engine, Valid Values; Port: 1521 for Oracle,
    1433 for SQL Server, 50000 for Db2 unless given). moto 5.2's list is of 2023-11-08
    and refuses the others ("Value db2-se for parameter Engine is invalid"), which the kit
    would blame on the solution, and it has no default port for the CDB engines it lists.
    StorageType (CreateDBCluster: aurora, aurora-iopt1, io1, io2, gp3): moto's storage
    defaults know gp2, io1 and standard only, so an Aurora I/O-Optimized cluster failed
    (KeyError, HTTP 500).
    """
    from moto.rds.models import DBCluster, DBInstance
    from moto.rds.utils import DbInstanceEngine

    if getattr(DbInstanceEngine.valid_db_instance_engine, "_kit_fix", False):
        return
    listed = DbInstanceEngine.valid_db_instance_engine

    def valid_db_instance_engine(cls: Any) -> list[str]:
        return sorted({*listed(), *ENGINES})

    port, storage = DBInstance.default_port, DBInstance.default_allocated_storage

    def default_port(engine: str) -> int:
        if engine.startswith("db2-"):
            return DB2_PORT
        return port(_SIBLING.get(engine, engine))

    def default_allocated_storage(engine: str, storage_type: str) -> int:
        return storage(_SIBLING.get(engine, engine),
                       _STORAGE_SIBLING.get(storage_type, storage_type))

    cluster_storage = DBCluster.default_allocated_storage

    def cluster_allocated_storage(engine: str, storage_type: str) -> int:
        return cluster_storage(engine, _STORAGE_SIBLING.get(storage_type, storage_type))

    valid_db_instance_engine._kit_fix = True  # type: ignore[attr-defined]
    DBCluster.default_allocated_storage = staticmethod(  # type: ignore[method-assign,assignment]
        cluster_allocated_storage)
    DBInstance.default_port = staticmethod(default_port)  # type: ignore[method-assign,assignment]
    DBInstance.default_allocated_storage = staticmethod(  # type: ignore[method-assign,assignment]
        default_allocated_storage)
    DbInstanceEngine.valid_db_instance_engine = classmethod(  # type: ignore[method-assign,assignment]
        valid_db_instance_engine)


def default_parameter_groups_name_the_family() -> None:
    """An instance of `engine_version = "16"` (or mysql "8.0") is in the default
    parameter group of its family (default.postgres16, default.mysql8.0).

    AWS (RDS User Guide, "Working with parameter groups", "Default and custom parameter
    groups": a DB instance created without one gets the default parameter group of its
    engine version's family). moto 5.2 drops the last part of the version, so "16" makes
    `default.postgres` and "8.0" `default.mysql8`; an instance that names
    `default.postgres16` then reads back as another group and cannot be modified to it.
    A DB cluster likewise (default.aurora-postgresql16, where moto 5.2 names
    `default.aurora8.0` for every Aurora engine).
    """
    from moto.rds.models import DBInstance, RDSBackend

    details = DBInstance.default_db_parameter_group_details
    if getattr(details, "_kit_fix", False):
        return
    create_cluster = RDSBackend.create_db_cluster

    def create_db_cluster(self: Any, kwargs: dict[str, Any]) -> Any:
        cluster = create_cluster(self, kwargs)
        family = db_family(cluster.engine, str(cluster.engine_version))
        if family and not kwargs.get("db_cluster_parameter_group_name"):
            cluster.parameter_group = f"default.{family}"
        return cluster

    def default_db_parameter_group_details(self: Any) -> tuple[str, str]:
        family = db_family(self.engine, str(self.engine_version))
        if family is None:
            return details(self)
        return family, f"default.{family}"

    default_db_parameter_group_details._kit_fix = True  # type: ignore[attr-defined]
    RDSBackend.create_db_cluster = create_db_cluster  # type: ignore[method-assign]
    DBInstance.default_db_parameter_group_details = (  # type: ignore[method-assign]
        default_db_parameter_group_details)


def catalogue_gaps_are_named() -> None:
    """DescribeOrderableDBInstanceOptions for an engine moto has no data for is refused as
    an emulator gap, not answered with an empty list.

    AWS (RDS API reference, DescribeOrderableDBInstanceOptions) lists the orderable
    options of every engine; moto 5.2 has data for aurora-postgresql and neptune only
    and answers every other engine with none, so `data "aws_rds_orderable_db_instance"`
    fails as if the solution had asked for something RDS does not offer.
    """
    from moto.rds.models import RDSBackend

    options = RDSBackend.describe_orderable_db_instance_options
    if getattr(options, "_kit_fix", False):
        return

    def describe_orderable_db_instance_options(self: Any, engine: str,
                                               engine_version: str) -> list[dict[str, Any]]:
        if engine not in ("aurora-postgresql", "neptune"):
            raise NotImplementedError(f"no orderable instance options for {engine}")
        return options(self, engine, engine_version)

    describe_orderable_db_instance_options._kit_fix = True  # type: ignore[attr-defined]
    RDSBackend.describe_orderable_db_instance_options = (  # type: ignore[method-assign]
        describe_orderable_db_instance_options)
