"""rds.hardening's password rule follows the data flow (kit/deploy/values.py): a literal
reaching aws_db_instance.password through locals, variables, tfvars, module inputs,
templates or simple functions is a literal; a generated, fetched or passed-in one is not.

Terraform's rules followed (Terraform language docs, "Input Variables": a value given with
-var wins over tfvars files, which win over the default; terraform.tfvars and
*.auto.tfvars are loaded automatically; "Modules": a child module's variable takes the
calling module block's argument of the same name).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kit.deploy.hcl import parse
from kit.deploy.inspect import rds_config
from kit.deploy.values import Unknown, Values

DB = 'resource "aws_db_instance" "db" {{\n  engine = "postgres"\n  password = {expr}\n}}\n'
LITERAL_CASES = {
    "local": ('local.pw', 'locals {\n  pw = "hunter2hunter2"\n}\n'),
    "nested locals": ('local.a', 'locals {\n  a = local.b\n  b = local.c\n'
                      '  c = "hunter2hunter2"\n}\n'),
    "template": ('"${local.pw}-x"', 'locals {\n  pw = "hunter2"\n}\n'),
    "join": ('join("", [local.pw, "x"])', 'locals {\n  pw = "hunter2"\n}\n'),
    "format": ('format("%s-%d", local.pw, 42)', 'locals {\n  pw = "hunter2"\n}\n'),
    "object attribute": ('local.db.pw', 'locals {\n  db = { pw = "hunter2" }\n}\n'),
    "list index": ('local.pws[1]', 'locals {\n  pws = ["a", "hunter2"]\n}\n'),
    "variable default": ('var.pw', 'variable "pw" {\n  default = "hunter2"\n}\n'),
    "local of a variable": ('local.pw', 'locals {\n  pw = var.pw\n}\n'
                            'variable "pw" {\n  default = "hunter2"\n}\n'),
    "sensitive wrapper": ('sensitive(local.pw)', 'locals {\n  pw = "hunter2"\n}\n'),
}
NOT_LITERAL_CASES = {
    "random": ("random_password.db.result", 'resource "random_password" "db" {\n'
               "  length = 20\n}\n"),
    "secrets manager": ("jsondecode(data.aws_secretsmanager_secret_version.db.secret_string)"
                        '["password"]', ""),
    "ssm": ("data.aws_ssm_parameter.db.value", ""),
    "local of random": ("local.pw", "locals {\n  pw = random_password.db.result\n}\n"),
    "template of random": ('"${random_password.db.result}x"', ""),
    "variable without default": ("var.pw", 'variable "pw" {\n  sensitive = true\n}\n'),
    "conditional": ('var.on ? "a" : "b"', 'variable "on" {\n  default = true\n}\n'),
    "unknown function": ('sha256("x")', ""),
    "null": ("null", ""),
    "cycle": ("local.a", "locals {\n  a = local.b\n  b = local.a\n}\n"),
}


def _write(root: Path, expr: str, extra: str) -> None:
    (root / "rds.tf").write_text(DB.format(expr=expr) + extra)


@pytest.mark.parametrize("name", LITERAL_CASES)
def test_a_literal_through_the_data_flow_is_a_literal(tmp_path: Path, name: str) -> None:
    _write(tmp_path, *LITERAL_CASES[name])
    facts = rds_config(parse(tmp_path))
    assert facts.password_literal is True
    assert (facts.where or "").startswith("rds.tf: aws_db_instance.db.password")


@pytest.mark.parametrize("name", NOT_LITERAL_CASES)
def test_a_value_known_only_after_the_apply_is_not(tmp_path: Path, name: str) -> None:
    _write(tmp_path, *NOT_LITERAL_CASES[name])
    assert rds_config(parse(tmp_path)).password_literal is False


def test_the_trail_names_the_references_followed(tmp_path: Path) -> None:
    _write(tmp_path, *LITERAL_CASES["local of a variable"])
    assert rds_config(parse(tmp_path)).where == \
        "rds.tf: aws_db_instance.db.password (through local.pw, var.pw)"


def test_a_variable_the_kit_passes_uses_no_default(tmp_path: Path) -> None:
    _write(tmp_path, *LITERAL_CASES["variable default"])
    assert rds_config(parse(tmp_path), passed=["pw"]).password_literal is False
    assert rds_config(parse(tmp_path), passed=["other"]).password_literal is True


def test_tfvars_set_a_root_variable(tmp_path: Path) -> None:
    _write(tmp_path, "var.pw", 'variable "pw" {\n  sensitive = true\n}\n')
    assert rds_config(parse(tmp_path)).password_literal is False
    (tmp_path / "secrets.auto.tfvars").write_text('pw = "hunter2"\n')
    assert rds_config(parse(tmp_path)).password_literal is True


def _module(root: Path, call_argument: str, caller_extra: str = "") -> None:
    child = root / "modules" / "db"
    child.mkdir(parents=True)
    (child / "main.tf").write_text(DB.format(expr="var.password")
                                   + 'variable "password" {\n  type = string\n}\n')
    (root / "main.tf").write_text('module "db" {\n  source = "./modules/db"\n'
                                  f"  password = {call_argument}\n}}\n" + caller_extra)


def test_a_module_input_set_to_a_literal_is_a_literal(tmp_path: Path) -> None:
    _module(tmp_path, '"hunter2hunter2"')
    facts = rds_config(parse(tmp_path))
    assert facts.password_literal is True
    assert facts.where == ("modules/db/main.tf: aws_db_instance.db.password "
                           "(through modules/db: var.password)")


def test_a_module_input_through_the_caller_s_locals_is_a_literal(tmp_path: Path) -> None:
    _module(tmp_path, "local.pw", 'locals {\n  pw = var.root_pw\n}\n'
            'variable "root_pw" {\n  default = "hunter2"\n}\n')
    assert rds_config(parse(tmp_path)).password_literal is True


def test_a_module_input_from_a_generator_is_not(tmp_path: Path) -> None:
    _module(tmp_path, "random_password.db.result")
    assert rds_config(parse(tmp_path)).password_literal is False


def test_any_call_of_a_module_with_a_literal_is_a_literal(tmp_path: Path) -> None:
    _module(tmp_path, "random_password.db.result")
    (tmp_path / "second.tf").write_text('module "db2" {\n  source = "./modules/db"\n'
                                        '  password = "hunter2hunter2"\n}\n')
    assert rds_config(parse(tmp_path)).password_literal is True


def test_json_syntax_follows_the_same_flow(tmp_path: Path) -> None:
    (tmp_path / "rds.tf.json").write_text(
        '{"locals": {"pw": "hunter2"}, "resource": {"aws_db_instance": {"db": '
        '{"engine": "postgres", "password": "${local.pw}"}}}}')
    assert rds_config(parse(tmp_path)).password_literal is True


def test_managed_password_is_not_a_literal(tmp_path: Path) -> None:
    (tmp_path / "rds.tf").write_text('resource "aws_db_instance" "db" {\n'
                                     "  manage_master_user_password = true\n}\n")
    assert rds_config(parse(tmp_path)).password_literal is False


def test_values_evaluates_templates_and_escapes(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text('locals {\n  a = "x"\n}\n')
    values = Values(parse(tmp_path))
    here = Path(".")
    assert values.evaluate("${local.a}-$${b}", here).value == "x-${b}"
    assert values.evaluate('${upper(join("-", [local.a, "y"]))}', here).value == "X-Y"
    assert values.evaluate('${format("%s%%", local.a)}', here).value == "x%"
    with pytest.raises(Unknown):
        values.evaluate("${local.a == \"x\"}", here)
    with pytest.raises(Unknown):
        values.evaluate("%{ if true }x%{ endif }", here)


def test_a_local_module_s_output_of_a_literal_is_a_literal(tmp_path: Path) -> None:
    child = tmp_path / "modules" / "secret"
    child.mkdir(parents=True)
    (child / "main.tf").write_text('variable "seed" {\n  default = "x"\n}\n'
                                   'output "value" {\n  value = "hunter2-${var.seed}"\n}\n')
    (tmp_path / "main.tf").write_text('module "secret" {\n  source = "./modules/secret"\n}\n'
                                      + DB.format(expr="module.secret.value"))
    facts = rds_config(parse(tmp_path))
    assert facts.password_literal is True
    assert facts.where == ("main.tf: aws_db_instance.db.password (through "
                           "module.secret.value, modules/secret: var.seed)")
    (child / "main.tf").write_text('output "value" {\n  value = random_password.x.result\n}\n')
    assert rds_config(parse(tmp_path)).password_literal is False
