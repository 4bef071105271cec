"""The static gate: constructs a solution may not use, found before anything is applied.

Terraform can run arbitrary commands on the host (provisioners, `external` data sources)
and reach the network (`http` data sources, remote backends, remote modules). The gate parses
every `*.tf` and `*.tf.json` file under the solution with a real HCL parser and reports each
forbidden construct with file:line evidence, as invariant `deploy.allowed_constructs`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hcl2
from hcl2.utils import SerializationOptions

from kit.errors import SolutionError

FORBIDDEN_DATA = {"external": "runs a program on the host", "http": "reaches the network"}
BUILTIN_TYPES = ("terraform_data", "terraform_remote_state")
_OPTIONS = SerializationOptions(strip_string_quotes=True, explicit_blocks=False)


@dataclass(frozen=True)
class Violation:
    """One forbidden construct: where it is and why it is refused."""

    where: str
    construct: str
    why: str

    def __str__(self) -> str:
        return f"{self.where}: {self.construct}: {self.why}"


def documents(solution: Path, recursive: bool = True
              ) -> Iterator[tuple[Path, str, dict[str, Any]]]:
    """(path, text, parsed) of every Terraform file under `solution` (or directly in it)."""
    for path in sorted(solution.rglob("*") if recursive else solution.glob("*")):
        if not path.is_file() or ".terraform" in path.parts:
            continue
        if path.name.endswith(".tf"):
            text = path.read_text(errors="replace")
            try:
                yield path, text, hcl2.loads(text, serialization_options=_OPTIONS)
            except Exception as exc:  # noqa: BLE001 - the parser raises many types
                raise SolutionError(f"{path.relative_to(solution)}: not valid HCL: {exc}") \
                    from None
        elif path.name.endswith(".tf.json"):
            text = path.read_text(errors="replace")
            try:
                yield path, text, json.loads(text)
            except json.JSONDecodeError as exc:
                raise SolutionError(f"{path.relative_to(solution)}: not valid JSON: {exc}") \
                    from None


def _list(value: Any) -> list[Any]:
    """A block list whether the parser gave a list, one mapping, or nothing."""
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def items(value: Any) -> Iterator[tuple[str, Any]]:
    """(label, body) pairs of a block map, whichever shape the parser gave it."""
    for entry in _list(value):
        if isinstance(entry, dict):
            for label, body in entry.items():
                if not label.startswith("__"):
                    yield label.strip('"'), body


def _line(text: str, *words: str) -> int:
    """Line of the first block header made of `words` (for evidence only)."""
    pattern = r"\s+".join(rf'"?{re.escape(w)}"?' for w in words)
    found = re.search(pattern, text)
    return text.count("\n", 0, found.start()) + 1 if found else 1


def check(solution: Path, allowed_providers: tuple[str, ...], modules_root: Path
          ) -> list[Violation]:
    """Every forbidden construct in the solution (empty when it may be applied)."""
    return violations(documents(solution), solution, allowed_providers, modules_root)


def violations(docs: Iterable[tuple[Path, str, dict[str, Any]]], solution: Path,
               allowed_providers: tuple[str, ...], modules_root: Path) -> list[Violation]:
    """Every forbidden construct in parsed files (`documents`) of the solution."""
    allowed_names = {source.split("/")[-1] for source in allowed_providers}
    found: list[Violation] = []
    for path, text, doc in docs:
        rel = str(path.relative_to(solution))

        def add(construct: str, why: str, *words: str, rel: str = rel, text: str = text
                ) -> None:
            found.append(Violation(f"{rel}:{_line(text, *words)}", construct, why))

        for block in _list(doc.get("terraform")):
            for name, _ in items(block.get("backend", [])):
                if name != "local":
                    add(f'backend "{name}"', "only the local backend is allowed",
                        "backend", name)
            if "cloud" in block:
                add("cloud", "only the local backend is allowed", "cloud")
            for entry in _list(block.get("required_providers")):
                for name, spec in items(entry):
                    source = spec.get("source", f"hashicorp/{name}") if isinstance(spec, dict) \
                        else f"hashicorp/{name}"
                    source = source.removeprefix("registry.terraform.io/").removeprefix(
                        "registry.opentofu.org/")
                    if source not in allowed_providers:
                        add(f"provider {source}", "allowed providers: "
                            + ", ".join(allowed_providers), name)
        for name, _ in items(doc.get("provider", [])):
            if name not in allowed_names:
                add(f'provider "{name}"', "allowed providers: " + ", ".join(allowed_providers),
                    "provider", name)
        for rtype, instances in items(doc.get("resource", [])):
            if not rtype.startswith(tuple(f"{n}_" for n in allowed_names)) \
                    and rtype not in BUILTIN_TYPES:
                add(f'resource "{rtype}"', "its provider is not allowed", "resource", rtype)
            for rname, body in items(instances):
                for entry in _list(body.get("provisioner") if isinstance(body, dict) else None):
                    for kind, _ in items(entry):
                        add(f'resource "{rtype}" "{rname}": provisioner "{kind}"',
                            "provisioners run commands on the host", "provisioner", kind)
        for dtype, _ in items(doc.get("data", [])):
            if dtype in FORBIDDEN_DATA:
                add(f'data "{dtype}"', FORBIDDEN_DATA[dtype], "data", dtype)
            elif not dtype.startswith(tuple(f"{n}_" for n in allowed_names)) \
                    and dtype not in BUILTIN_TYPES:
                add(f'data "{dtype}"', "its provider is not allowed", "data", dtype)
        for mname, body in items(doc.get("module", [])):
            source = body.get("source", "") if isinstance(body, dict) else ""
            if not _local_module(path.parent, source, solution, modules_root):
                add(f'module "{mname}" source "{source}"',
                    "modules must be local paths inside the solution or the kit's modules/",
                    "module", mname)
    return found


def _local_module(here: Path, source: str, solution: Path, modules_root: Path) -> bool:
    if not source.startswith(("./", "../")):
        return False
    target = (here / source).resolve()
    return target.is_relative_to(solution.resolve()) or target.is_relative_to(
        modules_root.resolve())
