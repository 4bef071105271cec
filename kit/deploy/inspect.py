"""Facts about a solution read from its HCL (never from its outputs alone)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import hcl2

from kit.history import RdsConfig

_REFERENCE = re.compile(r"^\$\{\s*var\.([A-Za-z0-9_-]+)\s*\}$")


def _unquote(value: Any) -> Any:
    return value[1:-1] if isinstance(value, str) and value.startswith('"') else value


def _blocks(solution: Path) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for tf in sorted(solution.glob("*.tf")):
        with tf.open() as handle:
            out.append((tf.name, hcl2.load(handle)))
    return out


def rds_config(solution: Path) -> RdsConfig:
    """Whether an aws_db_instance's master password is written in the Terraform."""
    parsed = _blocks(solution)
    defaults: dict[str, Any] = {}
    for _, doc in parsed:
        for block in doc.get("variable", []):
            for name, body in block.items():
                if "default" in body:
                    defaults[_unquote(name)] = body["default"]
    for filename, doc in parsed:
        for block in doc.get("resource", []):
            for rtype, instances in block.items():
                if _unquote(rtype) != "aws_db_instance":
                    continue
                for rname, body in instances.items():
                    where = f"{filename}: aws_db_instance.{_unquote(rname)}.password"
                    password = body.get("password")
                    if isinstance(password, str) and "${" not in password:
                        return RdsConfig(password_literal=True, where=where)
                    match = _REFERENCE.match(password) if isinstance(password, str) else None
                    if match and isinstance(defaults.get(match.group(1)), str):
                        return RdsConfig(password_literal=True,
                                         where=f"{where} (default of var.{match.group(1)})")
    return RdsConfig(password_literal=False)
