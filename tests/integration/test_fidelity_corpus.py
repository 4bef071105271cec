"""Fidelity fixes for gaps `make fidelity` found in its corpus (kit/sandbox/fidelity/),
each against the sandbox's real moto server, each citing the AWS documentation it follows."""

from __future__ import annotations

import pytest

from kit import aws
from kit.run.sandbox import Sandbox


@pytest.fixture(scope="module")
def rds():  # noqa: ANN201
    with Sandbox(postgres=False) as sandbox:
        yield aws.client("rds", sandbox.moto.url)


def _db(rds, name: str, engine: str, **extra: object) -> dict:  # noqa: ANN001
    rds.create_db_instance(
        DBInstanceIdentifier=name, Engine=engine, DBInstanceClass="db.t3.micro",
        MasterUsername="kit", MasterUserPassword="kit-password-1", AllocatedStorage=20,
        **extra)
    return rds.describe_db_instances(DBInstanceIdentifier=name)["DBInstances"][0]


def test_engine_lifecycle_support_reads_back(rds) -> None:  # noqa: ANN001
    """AWS RDS API reference, CreateDBInstance, EngineLifecycleSupport: "The life cycle
    type for this DB instance ... Valid for Engine: RDS for MySQL and RDS for PostgreSQL.
    Valid Values: open-source-rds-extended-support | open-source-rds-extended-support-
    disabled. Default: open-source-rds-extended-support"; DBInstance returns it. moto
    ignored it (terraform-aws-modules/rds complete-postgres planned it again)."""
    disabled = _db(rds, "lifecycle-off", "postgres",
                   EngineLifecycleSupport="open-source-rds-extended-support-disabled")
    assert disabled["EngineLifecycleSupport"] == "open-source-rds-extended-support-disabled"
    assert _db(rds, "lifecycle-default", "mysql")["EngineLifecycleSupport"] == \
        "open-source-rds-extended-support"
