"""Facts about a solution read from its Terraform (never from its outputs alone)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from kit.deploy.hcl import Configuration, items, parse
from kit.history import RdsConfig

_REFERENCE = re.compile(r"^\$\{\s*var\.([A-Za-z0-9_-]+)\s*\}$")


def rds_config(config: Configuration) -> RdsConfig:
    """Whether an aws_db_instance's master password is written in the Terraform: as a
    literal, or as the default of the variable it reads (in any module, HCL or JSON)."""
    for doc, name, body in config.resources("aws_db_instance"):
        where = f"{doc.path}: aws_db_instance.{name}.password"
        password: Any = body.get("password")
        if isinstance(password, str) and "${" not in password:
            return RdsConfig(password_literal=True, where=where)
        match = _REFERENCE.match(password) if isinstance(password, str) else None
        if match:
            variable = config.variables(doc.path.parent).get(match.group(1), {})
            if isinstance(variable.get("default"), str):
                return RdsConfig(password_literal=True,
                                 where=f"{where} (default of var.{match.group(1)})")
    return RdsConfig(password_literal=False)


def output_names(module: Path) -> list[str]:
    """The outputs a module declares (its root files)."""
    return [name for doc in parse(module).at_root()
            for name, _ in items(doc.content.get("output"))]
