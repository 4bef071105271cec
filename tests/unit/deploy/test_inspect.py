from __future__ import annotations

from pathlib import Path

import pytest

from kit.deploy.hcl import parse
from kit.deploy.inspect import rds_config

DB = 'resource "aws_db_instance" "db" {{\n  engine = "postgres"\n{password}\n}}\n'


@pytest.mark.parametrize("password, literal", [
    ('  password = "hunter2hunter2"', True),
    ("  manage_master_user_password = true", False),
    ("  password = random_password.db.result", False),
    ("  password = var.db_password", False),
])
def test_literal_password_is_found(tmp_path: Path, password: str, literal: bool) -> None:
    (tmp_path / "rds.tf").write_text(DB.format(password=password)
                                     + 'variable "db_password" { sensitive = true }\n')
    facts = rds_config(parse(tmp_path))
    assert facts.password_literal is literal
    if literal:
        assert facts.where == "rds.tf: aws_db_instance.db.password"


def test_variable_default_counts_as_written_in_the_terraform(tmp_path: Path) -> None:
    (tmp_path / "rds.tf").write_text(DB.format(password="  password = var.pw"))
    (tmp_path / "variables.tf").write_text('variable "pw" {\n  default = "changeme123"\n}\n')
    facts = rds_config(parse(tmp_path))
    assert facts.password_literal is True
    assert "var.pw" in (facts.where or "")
