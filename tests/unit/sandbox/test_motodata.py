"""Engine data the fidelity fixes hold (kit/sandbox/fidelity/rds_engines.py, rds_groups.py),
and how a deploy that meets a catalogue gap moto cannot answer is classified."""

from __future__ import annotations

import pytest

from kit.deploy import divergences
from kit.sandbox.fidelity import rds_engines, rds_groups


@pytest.mark.parametrize(("engine", "version", "family"), [
    # RDS User Guide, "Working with parameter groups"; DescribeDBEngineVersions'
    # DBParameterGroupFamily of each engine version.
    ("postgres", "16", "postgres16"),
    ("postgres", "16.4", "postgres16"),
    ("postgres", "9.6.22", "postgres9.6"),
    ("mysql", "8.0", "mysql8.0"),
    ("mysql", "8.0.39", "mysql8.0"),
    ("mariadb", "10.11.8", "mariadb10.11"),
    ("aurora-mysql", "8.0.mysql_aurora.3.05.2", "aurora-mysql8.0"),
    ("aurora-postgresql", "16.1", "aurora-postgresql16"),
    ("oracle-ee", "19.0.0.0.ru-2024-01.rur-2024-01.r1", "oracle-ee-19"),
    ("sqlserver-ee", "16.00.4095.4.v1", "sqlserver-ee-16.0"),
    ("db2-se", "11.5.9.0.sb00000000.r1", "db2-se-11.5"),
    ("mysql", "8", None),  # not a version of a family's shape: moto's own rule stands
    ("neptune", "1.3.2.1", None),
])
def test_the_parameter_group_family_of_an_engine_version(engine: str, version: str,
                                                         family: str | None) -> None:
    assert rds_engines.db_family(engine, version) == family


def test_option_groups_know_the_current_major_versions() -> None:
    """RDS API reference, CreateOptionGroup; RDS User Guide, "Supported PostgreSQL major
    versions on Amazon RDS"; DescribeOptionGroupOptions answers (moto's recorded data)."""
    majors = rds_groups.option_group_majors()
    assert {"16", "17"} <= majors["postgres"]
    assert {"8.0", "8.4"} <= majors["mysql"]
    assert {"10.11", "11.4"} <= majors["mariadb"]
    assert "99" not in majors["postgres"]


def test_default_option_group_names() -> None:
    assert rds_groups.default_option_group_name("mysql", "8.0") == "default:mysql-8-0"
    assert rds_groups.default_option_group_name("postgres", "16") == "default:postgres-16"


ORDERABLE = (
    "Error: reading RDS Orderable DB Instance Options: operation error RDS: "
    "DescribeOrderableDBInstanceOptions, https response error StatusCode: 501, RequestID: , "
    "api error NotImplemented: moto does not implement rds "
    "DescribeOrderableDBInstanceOptions (no orderable instance options for postgres): an "
    "emulator gap, not an AWS answer\n\n  with data.aws_rds_orderable_db_instance.db,")


def test_an_orderable_options_gap_is_the_kits_and_named() -> None:
    """The answer catalogue_gaps_are_named gives is an emulator gap naming the action."""
    (gap,) = divergences.gaps(ORDERABLE) or []
    assert gap.name == "moto.not-implemented"
    assert "DescribeOrderableDBInstanceOptions" in gap.detail
    assert gap.answer is not None


def test_an_empty_orderable_answer_would_have_been_the_solutions() -> None:
    """What moto 5.2 led to without the fix: the data source's own error, no gap."""
    text = ("Error: no RDS Orderable DB Instance Options found matching criteria; try "
            "different search\n\n  with data.aws_rds_orderable_db_instance.db,")
    assert divergences.gaps(text) is None


def test_applying_the_fixes_again_wraps_nothing_twice() -> None:
    """apply_all is idempotent (kit/sandbox/fidelity/__init__.py): a fix applied twice
    would run twice per request. Several fixes wrap the same RDS methods, so each must
    know it was applied by something a later fix does not replace."""
    from moto.kms.models import Key
    from moto.rds.models import DBCluster, DBInstance, RDSBackend
    from moto.sns.responses import SNSResponse

    from kit.sandbox import fidelity

    wrapped = ((RDSBackend, "create_db_instance"), (RDSBackend, "create_db_cluster"),
               (RDSBackend, "create_option_group"), (RDSBackend, "describe_option_groups"),
               (SNSResponse, "get_topic_attributes"), (Key, "signing_algorithms"),
               (DBInstance, "default_db_parameter_group_details"),
               (DBCluster, "scaling_configuration_info"), (DBInstance, "default_port"))
    fidelity.apply_all()
    first = [getattr(owner, name) for owner, name in wrapped]
    fidelity.apply_all()
    assert [getattr(owner, name) for owner, name in wrapped] == first
