"""Facts about a solution read from its Terraform (never from its outputs alone)."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from kit.deploy.hcl import Configuration, items, parse
from kit.deploy.values import Unknown, Values
from kit.history import RdsConfig

PASSWORDS = ("password", "password_wo")  # aws_db_instance's master password arguments


def rds_config(config: Configuration, passed: Collection[str] = ()) -> RdsConfig:
    """Whether an aws_db_instance's master password is written in the Terraform: a value
    that evaluates to a literal without the apply (through locals, variable defaults and
    tfvars, module inputs, templates; kit.deploy.values), in any module, HCL or JSON.
    `passed`: the root variables the kit sets, whose defaults are never used."""
    values = Values(config, passed)
    for doc, name, body in config.resources("aws_db_instance"):
        for attribute in PASSWORDS:
            if attribute not in body:
                continue
            where = f"{doc.path}: aws_db_instance.{name}.{attribute}"
            try:
                found = values.evaluate(body[attribute], doc.path.parent)
            except Unknown:
                continue  # generated, fetched or passed in: not written here
            if isinstance(found.value, str | int | float) and not isinstance(found.value, bool):
                trail = f" (through {', '.join(found.through)})" if found.through else ""
                return RdsConfig(password_literal=True, where=where + trail)
    return RdsConfig(password_literal=False)


def output_names(module: Path) -> list[str]:
    """The outputs a module declares (its root files)."""
    return [name for doc in parse(module).at_root()
            for name, _ in items(doc.content.get("output"))]
