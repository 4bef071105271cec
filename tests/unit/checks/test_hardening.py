"""rds.hardening."""

from __future__ import annotations

import pytest

from kit.checks.hardening import RDS_HARDENING
from kit.checks.hardening import check_rds_hardening as check

from .builder import healthy_run, params_of


def test_passes_on_a_hardened_instance():
    r = check(healthy_run(seed=11).build(), params_of(RDS_HARDENING))
    assert r.verdict == "pass" and r.evidence["at_fault"] == {}


@pytest.mark.parametrize(("attribute", "bad"), [
    ("Engine", "mysql"),
    ("PubliclyAccessible", True),
    ("StorageEncrypted", False),
    ("BackupRetentionPeriod", 0),
    ("BackupRetentionPeriod", 6),
    ("BackupRetentionPeriod", True),  # a bool is not a number of days
    ("DeletionProtection", False),
    ("DeletionProtection", "true"),  # a string is not the boolean the API returns
])
def test_each_attribute_at_fault_fails(attribute, bad):
    run = healthy_run(seed=11)
    run.final["db_instance"][attribute] = bad
    r = check(run.build(), params_of(RDS_HARDENING))
    assert r.verdict == "fail"
    assert list(r.evidence["at_fault"]) == [attribute]
    assert r.evidence["at_fault"][attribute]["actual"] == bad
    assert attribute in r.summary


def test_password_literal_fails_and_says_where():
    run = healthy_run(seed=11)
    run.final["rds_config"] = {"password_literal": True, "where": "main.tf:42"}
    r = check(run.build(), params_of(RDS_HARDENING))
    assert r.verdict == "fail"
    assert r.evidence["at_fault"]["MasterPasswordLiteral"]["where"] == "main.tf:42"


def test_backup_bound_comes_from_params():
    run = healthy_run(seed=11)
    run.final["db_instance"]["BackupRetentionPeriod"] = 7
    history = run.build()
    assert check(history, params_of(RDS_HARDENING, min_backup_retention_days=14)).verdict == "fail"
    assert check(history, params_of(RDS_HARDENING, min_backup_retention_days=1)).verdict == "pass"


def test_missing_attribute_is_an_error():
    run = healthy_run(seed=11)
    del run.final["db_instance"]["StorageEncrypted"]
    r = check(run.build(), params_of(RDS_HARDENING))
    assert r.verdict == "error" and r.evidence["missing"] == ["StorageEncrypted"]


def test_violation_fails_even_with_a_missing_attribute():
    run = healthy_run(seed=11)
    del run.final["db_instance"]["StorageEncrypted"]
    run.final["db_instance"]["PubliclyAccessible"] = True
    assert check(run.build(), params_of(RDS_HARDENING)).verdict == "fail"


@pytest.mark.parametrize("missing", ["db_instance", "rds_config"])
def test_needs_instance_and_terraform_facts(missing):
    run = healthy_run(seed=11)
    run.final[missing] = None
    assert check(run.build(), params_of(RDS_HARDENING)).verdict == "error"
