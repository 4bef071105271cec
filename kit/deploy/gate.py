"""The static gate: constructs a solution may not use, found before anything is applied.

Terraform can run arbitrary commands on the host (provisioners, `external` data sources)
and reach the network (`http` data sources, remote backends, remote modules). The gate
reports each forbidden construct with file:line evidence, as invariant
`deploy.allowed_constructs`, and reads what Terraform reads:
- first the directory itself (kit/deploy/intake.py), before any file is read: links out of
  the solution, special files, and the files that change what Terraform reads besides the
  configuration are refused: `override.tf`, `*_override.tf(.json)`, `*.tfvars(.json)`
  (so also `terraform.tfvars` and `*.auto.tfvars`), `.terraformrc`, `terraform.rc`,
  `terraform.d/`. `.terraform/`, `.terraform.lock.hcl` and `terraform.tfstate*` are
  neutralised instead: never copied, never read (a link into them is refused). The kit's own
  provider override is written into the working copy afterwards, never into the solution;
- every `*.tf` and `*.tf.json` file under the solution (kit/deploy/hcl.py), with every
  block in HCL's and in every JSON form (a label level or a body given as an object or as
  an array of objects): resources and their provisioners, `removed` blocks (destroy-time
  provisioners), data sources at the top and inside `check` blocks (`terraform_remote_state`
  only with the local backend), ephemeral resources, providers, backends and modules;
- every module Terraform loads, resolved as Terraform resolves it: a local source is
  joined to the calling module's directory as written (so through a linked directory it
  may land elsewhere than the link's target's parent), from the root module down. Each
  must be inside the solution (and in a part the kit copies) or the kit's modules/.

A `trust: team` scenario (a team's own repository) changes two rules, no other: its
backend (`backend`, `cloud`) is not refused but replaced by local state in the run's copy
(kit/deploy/override.py `write_backend_override`), and a module source that is not a
local path (a registry module) is not refused but served from the scenario's module cache
(kit/deploy/modules.py, an input error when it is not there). Local sources must still
stay inside the repository; provisioners, `external`/`http` data, other providers and
`terraform_remote_state` of a remote backend are refused as for anyone. The root module
is the solution's `terraform.dir` (`root_module`); the module tree is followed from there.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kit.deploy.hcl import Configuration, Document, blocks, not_copied

FORBIDDEN_DATA = {"external": "runs a program on the host", "http": "reaches the network"}
BUILTIN_TYPES = ("terraform_data", "terraform_remote_state")
LOCAL_ONLY = "modules must be local paths inside the solution or the kit's modules/"


@dataclass(frozen=True)
class Violation:
    """One forbidden construct: where it is and why it is refused."""

    where: str
    construct: str
    why: str

    def __str__(self) -> str:
        return f"{self.where}: {self.construct}: {self.why}"


Add = Callable[..., None]


def check(config: Configuration, allowed_providers: tuple[str, ...], modules_root: Path,
          *, team: bool = False, root_module: Path = Path(".")) -> list[Violation]:
    """Every forbidden construct in the solution (empty when it may be applied); `team`:
    the rules of a team's own repository (the module docstring says which two change)."""
    found: list[Violation] = []
    for doc in config.documents:

        def add(construct: str, why: str, *words: str, doc: Document = doc) -> None:
            found.append(Violation(f"{doc.path}:{doc.line(*words)}", construct, why))

        _settings(doc.content, allowed_providers, add if not team else _backends_kept(add))
        _types(doc.content, allowed_providers, add)
        for (mname,), body in blocks(doc.content.get("module"), 1):
            source = _source(body)
            if team and not source.startswith(("./", "../")) and source:
                continue  # a registry module: from the cache (kit/deploy/modules.py)
            if not _local_module(config.root / doc.path.parent, source, config.root,
                                 modules_root):
                add(f'module "{mname}" source "{source}"', LOCAL_ONLY, "module", mname)
    found += _module_tree(config, modules_root, root_module)
    return list(dict.fromkeys(found))  # a module may be refused by both readings


def _backends_kept(add: Add) -> Add:
    """`add` that lets a team's backend through (the run replaces it with local state)."""

    def team_add(construct: str, why: str, *words: str) -> None:
        if words[:1] in (("backend",), ("cloud",)):
            return
        add(construct, why, *words)

    return team_add


def _settings(content: dict[str, Any], allowed: tuple[str, ...], add: Add) -> None:
    """Backends, Terraform Cloud, required and configured providers."""
    names = {source.split("/")[-1] for source in allowed}
    for _, block in blocks(content.get("terraform"), 0):
        for (name,), _ in blocks(block.get("backend"), 1):
            if name != "local":
                add(f'backend "{name}"', "only the local backend is allowed", "backend", name)
        if "cloud" in block:
            add("cloud", "only the local backend is allowed", "cloud")
        for _, entry in blocks(block.get("required_providers"), 0):
            for name, spec in entry.items():
                if name.startswith("__"):
                    continue
                source = spec.get("source", f"hashicorp/{name}") if isinstance(spec, dict) \
                    else f"hashicorp/{name}"
                source = str(source).removeprefix("registry.terraform.io/").removeprefix(
                    "registry.opentofu.org/")
                if source not in allowed:
                    add(f"provider {source}", "allowed providers: " + ", ".join(allowed), name)
    for (name,), _ in blocks(content.get("provider"), 1):
        if name not in names:
            add(f'provider "{name}"', "allowed providers: " + ", ".join(allowed),
                "provider", name)


def _types(content: dict[str, Any], allowed: tuple[str, ...], add: Add) -> None:
    """Resource, data and ephemeral types (top level and in `check` blocks), provisioners."""
    prefixes = tuple(f"{source.split('/')[-1]}_" for source in allowed)
    for (rtype, rname), body in blocks(content.get("resource"), 2):
        if not rtype.startswith(prefixes) and rtype not in BUILTIN_TYPES:
            add(f'resource "{rtype}"', "its provider is not allowed", "resource", rtype)
        for kind in _provisioners(body):
            add(f'resource "{rtype}" "{rname}": provisioner "{kind}"',
                "provisioners run commands on the host", "provisioner", kind)
    for _, body in blocks(content.get("removed"), 0):
        for kind in _provisioners(body):
            add(f'removed: provisioner "{kind}"', "provisioners run commands on the host",
                "provisioner", kind)
    for (name,), body in blocks(content.get("check"), 1):
        _data(body, prefixes, add, f'check "{name}": ')
    _data(content, prefixes, add, "")
    for (etype, _), _ in blocks(content.get("ephemeral"), 2):
        if not etype.startswith(prefixes):
            add(f'ephemeral "{etype}"', "its provider is not allowed", "ephemeral", etype)


def _data(body: dict[str, Any], prefixes: tuple[str, ...], add: Add, scope: str) -> None:
    for (dtype, _), data in blocks(body.get("data"), 2):
        if dtype == "terraform_remote_state" and data.get("backend", "local") != "local":
            # Its backend is a client of its own: "http", "s3", ... reach the network.
            add(f'{scope}data "{dtype}" backend "{data.get("backend")}"',
                "only the local backend is allowed", "data", dtype)
        elif dtype in FORBIDDEN_DATA:
            add(f'{scope}data "{dtype}"', FORBIDDEN_DATA[dtype], "data", dtype)
        elif not dtype.startswith(prefixes) and dtype not in BUILTIN_TYPES:
            add(f'{scope}data "{dtype}"', "its provider is not allowed", "data", dtype)


def _provisioners(body: dict[str, Any]) -> Iterator[str]:
    """The kinds of a resource's (or removed block's) provisioners, in any form."""
    for (kind,), _ in blocks(body.get("provisioner"), 1):
        yield kind


def _source(body: dict[str, Any]) -> str:
    source = body.get("source", "")
    return source if isinstance(source, str) else ""


def _module_tree(config: Configuration, modules_root: Path, root_module: Path = Path(".")
                 ) -> list[Violation]:
    """The module calls Terraform follows from the root module, each resolved as Terraform
    does (joined to the caller's directory as Terraform names it, not as the disk does)."""
    root = Path(os.path.realpath(config.root))
    kit_modules = Path(os.path.realpath(modules_root))
    by_dir: dict[Path, list[Document]] = {}
    for doc in config.documents:
        by_dir.setdefault(doc.path.parent, []).append(doc)
    found: list[Violation] = []
    seen: set[Path] = set()
    # (the directory as Terraform names it, as the gate read it)
    todo = [(Path(os.path.normpath(root / root_module)), Path(os.path.normpath(root_module)))]
    while todo:
        named, real = todo.pop()
        if real in seen:
            continue
        seen.add(real)
        for doc in by_dir.get(real, []):
            for (mname,), body in blocks(doc.content.get("module"), 1):
                source = _source(body)
                if not source.startswith(("./", "../")):
                    continue  # refused as not local by the file's own reading
                joined = Path(os.path.normpath(named / source))
                target = Path(os.path.realpath(joined))
                if target.is_relative_to(kit_modules):
                    continue
                if joined.is_relative_to(root) and target.is_relative_to(root) and \
                        _copied(target.relative_to(root)):
                    todo.append((joined, target.relative_to(root)))
                    continue
                found.append(Violation(f"{doc.path}:{doc.line('module', mname)}",
                                       f'module "{mname}" source "{source}"',
                                       f"Terraform loads {joined}: {LOCAL_ONLY}"))
    return found


def _copied(rel: Path) -> bool:
    """Whether a directory of the solution is part of what the kit copies (and parses)."""
    return not any(not_copied(part) for part in rel.parts)


def _local_module(here: Path, source: str, solution: Path, modules_root: Path) -> bool:
    if not source.startswith(("./", "../")):
        return False
    target = (here / source).resolve()
    return target.is_relative_to(solution.resolve()) and _copied(
        target.relative_to(solution.resolve())) or target.is_relative_to(modules_root.resolve())
