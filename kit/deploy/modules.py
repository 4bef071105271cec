"""The registry-module cache of a team repository: filled once from the team's own
`terraform init`, served to every run's Terraform without a registry.

The machines this kit runs on reach no Terraform registry, and a team's Terraform calls
registry modules (`source = "terraform-aws-modules/sqs/aws"`, `version = "~> 4.0"`). What
`terraform init` leaves in `<root module>/.terraform/modules/` (a manifest, modules.json,
and one directory per installed module) is what Terraform reads them from afterwards:
- `kit modules vendor --from <dir>/.terraform/modules --to <cache>` copies the remote
  (non-local) modules of that manifest into the cache, with a manifest of its own
  (MANIFEST: Key, Source, Version, Dir relative to the cache);
- at deploy (`seed`), every remote module call of the repository's module tree must be in
  the cache under its key (the call path Terraform keys it by: `events`, `app.queue`), with
  the same source and a version its constraint admits; the kit copies those packages into
  the run's `<root>/.terraform/modules/` with a manifest that names them, so `terraform
  init` finds them installed and downloads nothing (Terraform re-installs a module only
  when its manifest record is missing, names another source, or has a version outside the
  constraint). A call that is not in the cache is an InputError naming the module, its
  source, its version and the vendor command: never skipped.
Local module calls are not cached: Terraform resolves them from the copy itself.

The cache is the repository's (in a PR check, the PR's author's) and the kit copies it as
root: the cache, its manifest and each package must be what they say, not links (a link to
a host directory would be copied into the run, its files readable by the deploy), and a
link inside a package may not leave it. Each is an InputError naming the path.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kit.deploy.hcl import Configuration, blocks, parse
from kit.errors import InputError, SolutionError
from kit.intake import files

MANIFEST = "modules.json"
INSTALLED = Path(".terraform") / "modules"  # where terraform init installs modules
_REGISTRY_HOSTS = ("registry.terraform.io/", "registry.opentofu.org/")
_CONSTRAINT = re.compile(r"^\s*(=|!=|>=|<=|>|<|~>)?\s*v?([0-9][0-9A-Za-z.+-]*)\s*$")


@dataclass(frozen=True)
class Call:
    """A remote module call of the repository: its key, source and version constraint."""

    key: str  # the call path, as Terraform keys its manifest ("app.queue")
    source: str
    version: str | None
    where: str  # the file that calls it (for messages)


@dataclass(frozen=True)
class Record:
    """One installed module: a record of a modules.json manifest."""

    key: str
    source: str
    version: str | None
    dir: str  # relative to the manifest's base (the root module, or the cache)

    def to_json(self) -> dict[str, Any]:
        """The record as Terraform writes it."""
        entry = {"Key": self.key, "Source": self.source, "Dir": self.dir}
        return entry | ({"Version": self.version} if self.version else {})


def is_local(source: str) -> bool:
    """Whether a module source is a local path (Terraform resolves it from the files)."""
    return source.startswith(("./", "../"))


def normal_source(source: str) -> str:
    """A source as the registry names it (Terraform records `registry.terraform.io/...`)."""
    for host in _REGISTRY_HOSTS:
        source = source.removeprefix(host)
    return source


def read_manifest(path: Path) -> list[Record]:
    """The records of a modules.json; InputError naming the file and field when malformed."""
    try:
        raw = json.loads(path.read_text())
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON: {exc}") from None
    entries = raw.get("Modules") if isinstance(raw, dict) else None
    if not isinstance(entries, list):
        raise InputError(f"{path}: field Modules: expected a list of module records")
    records = []
    for index, entry in enumerate(entries):
        fields = entry if isinstance(entry, dict) else {}
        if not all(isinstance(fields.get(f), str) for f in ("Key", "Source", "Dir")):
            raise InputError(f"{path}: field Modules[{index}]: needs Key, Source and Dir "
                             "(strings), as terraform init writes them")
        version = fields.get("Version")
        records.append(Record(fields["Key"], fields["Source"],
                              version if isinstance(version, str) else None, fields["Dir"]))
    return records


def vendor(installed: Path, cache: Path) -> list[Record]:
    """Copy the remote modules of one `terraform init` (`installed`: its
    `.terraform/modules`) into `cache`; the records now in the cache for them."""
    manifest = installed / MANIFEST
    if not manifest.is_file():
        raise InputError(f"--from {installed}: no {MANIFEST} in it; give the "
                         "`.terraform/modules` directory that `terraform init` filled")
    base = installed.parent.parent  # the root module terraform init ran in
    remote = [r for r in read_manifest(manifest) if r.key and not is_local(r.source)]
    cache.mkdir(parents=True, exist_ok=True)
    kept = [r for r in _cached(cache)
            if not any(r.key == n.key or r.key.startswith(n.key + ".") for n in remote)]
    added = [_copy_package(base, record, cache) for record in remote]
    (cache / MANIFEST).write_text(json.dumps(
        {"Modules": [r.to_json() for r in [*kept, *added]]}, indent=2) + "\n")
    return added


def _copy_package(base: Path, record: Record, cache: Path) -> Record:
    """Copy one installed module's package into the cache; its record there."""
    where = Path(os.path.normpath(record.dir))
    if not where.is_relative_to(INSTALLED) or where == INSTALLED:
        raise InputError(f"{base / INSTALLED / MANIFEST}: module {record.key!r} is installed "
                         f"at {record.dir!r}, outside {INSTALLED}")
    package = where.relative_to(INSTALLED).parts[0]
    inside = where.relative_to(INSTALLED / package)
    if not (base / INSTALLED / package).is_dir():
        raise InputError(f"{base / INSTALLED / MANIFEST}: module {record.key!r} is recorded "
                         f"at {record.dir!r}, which is not there: run terraform init again")
    target = cache / package
    if target.exists():
        shutil.rmtree(target)
    # Links are kept as links: a package is the registry's files, never the host's.
    shutil.copytree(base / INSTALLED / package, target, symlinks=True)
    return Record(record.key, record.source, record.version, str(Path(package) / inside))


def _cached(cache: Path) -> list[Record]:
    """The records of the cache (none before the first vendor)."""
    manifest = cache / MANIFEST
    if not os.path.lexists(cache):
        return []
    _not_a_link(cache, "the module cache")
    if not os.path.lexists(manifest):
        return []
    _not_a_link(manifest, "the module cache's manifest")
    return read_manifest(manifest)


def _not_a_link(path: Path, what: str) -> None:
    """InputError when `path` (the repository's) is a link: the kit reads it as root."""
    if stat.S_ISLNK(os.lstat(path).st_mode):
        raise InputError(f"{path}: {what} is a symbolic link (to {os.readlink(path)}); the "
                         "kit copies it as root and follows no link there: make it a "
                         "directory of the repository (kit modules vendor fills one)")


def _checked_package(cache: Path, package: str) -> Path:
    """`cache`/`package`, a real directory whose links stay inside it (InputError else)."""
    where = cache / package
    if package in ("", ".", "..") or "/" in package:
        raise InputError(f"{cache / MANIFEST}: package {package!r} is not a directory name")
    _not_a_link(where, "a package of the module cache")
    if not stat.S_ISDIR(os.lstat(where).st_mode):
        raise InputError(f"{where}: a package of the module cache is not a directory")
    inside = Path(os.path.realpath(where))
    for here, dirs, names in os.walk(where, followlinks=False):
        for name in [*dirs, *names]:
            path = Path(here) / name
            if os.path.islink(path) and not Path(os.path.realpath(path)).is_relative_to(inside):
                raise InputError(f"{path}: a link out of its module package (to "
                                 f"{os.readlink(path)}); the kit follows no link out of it")
    return where


def remote_calls(config: Configuration, root_module: Path) -> list[Call]:
    """Every remote module call of the repository's module tree, from the root module
    through its local modules (each keyed by its call path)."""
    return list(_calls(config, Path(os.path.normpath(root_module)), "", set()))


def _calls(config: Configuration, directory: Path, prefix: str, seen: set[Path]
           ) -> Iterator[Call]:
    if directory in seen:
        return
    seen.add(directory)
    for doc in config.at(directory):
        for (name,), body in blocks(doc.content.get("module"), 1):
            source = body.get("source")
            if not isinstance(source, str):
                continue
            key = f"{prefix}{name}"
            if is_local(source):
                yield from _calls(config, Path(os.path.normpath(directory / source)),
                                  key + ".", seen)
                continue
            version = body.get("version")
            yield Call(key, source, version if isinstance(version, str) else None,
                       str(doc.path))


def served(cache: Path | None, calls: list[Call]) -> list[Record]:
    """The cache's records for every remote module call (each call's own and those of the
    modules it calls in turn); InputError naming the first call the cache cannot serve."""
    cached = {r.key: r for r in (_cached(cache) if cache is not None else [])}
    chosen: list[Record] = []
    for call in calls:
        problem = _mismatch(call, cached.get(call.key), cache)
        if problem:
            raise InputError(_missing(call, cache, problem))
        chosen += [r for k, r in cached.items() if k == call.key or k.startswith(call.key + ".")]
    return list(dict.fromkeys(chosen))


def preflight(cache: Path | None, solution: Path, root_module: Path) -> None:
    """Before any run: InputError when the cache cannot serve a registry module the
    solution calls (a file the parser cannot read is left for the run to judge)."""
    try:
        config = parse(solution)
    except SolutionError:
        return
    served(cache, remote_calls(config, root_module))


def seed(cache: Path | None, calls: list[Call], root_copy: Path) -> list[Record]:
    """Install every remote module call into the run's copy (`root_copy`: its root module)
    from the cache; InputError naming the first call the cache cannot serve."""
    chosen = served(cache, calls)
    if not chosen or cache is None:
        return []
    why = "the registry modules the kit installs"
    installed = files.make_dirs(root_copy, INSTALLED, why=why)  # no link on the way
    records = [Record("", "", None, ".")]
    for record in chosen:
        package = Path(record.dir).parts[0]
        if not os.path.lexists(installed / package):
            shutil.copytree(_checked_package(cache, package), installed / package,
                            symlinks=True)
        records.append(Record(record.key, record.source, record.version,
                              str(INSTALLED / record.dir)))
    files.create(root_copy, INSTALLED / MANIFEST, json.dumps(
        {"Modules": [r.to_json() for r in records]}) + "\n", why=why)
    return records[1:]


def _mismatch(call: Call, record: Record | None, cache: Path | None) -> str | None:
    """Why the cache's record cannot serve a call (None: it can)."""
    if record is None or cache is None:
        return "it is not in the cache"
    where = Path(record.dir)
    if where.is_absolute() or ".." in where.parts or not (cache / where).is_dir():
        return f"its directory {record.dir!r} is not a directory inside the cache"
    if normal_source(record.source) != normal_source(call.source):
        return f"the cache holds {record.source!r} under that key"
    if call.version is not None and (record.version is None
                                     or not satisfies(record.version, call.version)):
        return f"the cache holds version {record.version!r}"
    return None


def _missing(call: Call, cache: Path | None, problem: str) -> str:
    """The input error for a module call the cache cannot serve, with the fix."""
    version = f", version {call.version!r}" if call.version else ""
    if cache is None:
        return (f"{call.where}: module {call.key!r} (source {call.source!r}{version}) is a "
                "registry module and the scenario names no module cache: set "
                "terraform.modules (e.g. .kit/modules) and run `kit modules vendor --from "
                "<root module>/.terraform/modules --to <that cache>` after a `terraform "
                "init` where the registry is reachable")
    return (f"{call.where}: module {call.key!r} (source {call.source!r}{version}) cannot be "
            f"served from the module cache {cache}: {problem}; run `terraform init` in the "
            "root module where the registry is reachable, then `kit modules vendor --from "
            f"<root module>/.terraform/modules --to {cache}`")


def satisfies(version: str, constraint: str) -> bool:
    """Whether `version` meets a Terraform version constraint ("~> 4.1, != 4.2.0")."""
    have = _numbers(version)
    if have is None:
        return False
    for part in constraint.split(","):
        found = _CONSTRAINT.match(part)
        want = _numbers(found.group(2)) if found else None
        if found is None or want is None:
            return False
        if not _meets(have, found.group(1) or "=", want, found.group(2)):
            return False
    return True


def _meets(have: tuple[int, ...], op: str, want: tuple[int, ...], written: str) -> bool:
    """One comparison of a constraint (`~>`: the rightmost given part may grow)."""
    size = max(len(have), len(want), 3)
    a, b = have + (0,) * (size - len(have)), want + (0,) * (size - len(want))
    if op == "~>":
        fixed = max(1, len(written.split(".")) - 1)
        return a >= b and a[:fixed] == b[:fixed]
    return {"=": a == b, "!=": a != b, ">": a > b, ">=": a >= b, "<": a < b,
            "<=": a <= b}[op]


def _numbers(version: str) -> tuple[int, ...] | None:
    """1.2.3 -> (1, 2, 3); None for a version with a prerelease or build part."""
    parts = version.strip().removeprefix("v").split(".")
    return tuple(int(p) for p in parts) if all(p.isdigit() for p in parts) else None
