"""Where a function's handler code comes from: the scenario's `source`, or the package
Terraform deployed (aws_lambda_function's `filename`, relative to the Terraform directory),
unpacked into the run's workspace as Lambda unpacks it into /var/task."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import zipfile
from pathlib import Path, PurePosixPath

from kit.errors import InputError, SolutionError
from kit.intake import files

UNPACKED = ".kit-lambda"  # under the workspace: one directory per function
MAX_UNPACKED = 250 * 1024 * 1024  # Lambda's unzipped deployment package quota
MAX_STATE = 512 << 20
FUNCTION_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # Lambda's own rule for a plain name
WHY = "a function's unpacked package, under .kit-lambda/"


def deployed_filename(state: dict, function_name: str) -> str | None:
    """The `filename` of the aws_lambda_function named `function_name` in a state."""
    for resource in state.get("resources", []):
        if resource.get("type") != "aws_lambda_function" or resource.get("mode") != "managed":
            continue
        for instance in resource.get("instances", []):
            attrs = instance.get("attributes", {})
            if attrs.get("function_name") == function_name:
                return attrs.get("filename") or None
    return None


def unpack(archive: Path, workspace: Path, inside: str) -> None:
    """Extract a deployment package into `workspace`/`inside` (a fresh directory, never
    through a link the solution made on the way); InputError for a member outside it, a
    link, or more than Lambda's unzipped size quota."""
    with zipfile.ZipFile(archive) as zf:
        members = zf.infolist()
        if sum(m.file_size for m in members) > MAX_UNPACKED:
            raise InputError(f"{archive}: unzips to more than {MAX_UNPACKED >> 20} MB, "
                             "Lambda's deployment package quota")
        for member in members:
            path = PurePosixPath(member.filename)
            if path.is_absolute() or ".." in path.parts or (member.external_attr >> 28) == 0xA:
                raise InputError(f"{archive}: member {member.filename!r} is a link or lies "
                                 "outside the package")
        _fresh(workspace, inside)
        for member in members:
            where = f"{inside}/{member.filename}"
            if member.is_dir():
                files.make_dirs(workspace, where, why=WHY)
                continue
            executable = (member.external_attr >> 16) & 0o111
            files.create(workspace, where, zf.read(member), why=WHY,
                         mode=0o755 if executable else 0o644)


def _fresh(workspace: Path, inside: str) -> None:
    """An empty real directory at `workspace`/`inside`: an earlier unpack's is removed
    (through descriptors: a link on the way is the solution's, `Taken`)."""
    parent, name = PurePosixPath(inside).parent, PurePosixPath(inside).name
    with files.directory(workspace, parent, create=True, why=WHY) as fd:
        try:
            info = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            info = None
        if info is not None and stat.S_ISDIR(info.st_mode):
            shutil.rmtree(name, dir_fd=fd)
    files.make_dirs(workspace, inside, why=WHY)


def code_dir(workspace: Path, source: str | None, function_name: str,
             module: Path | None = None) -> str:
    """The handler's directory relative to the workspace: `source`, else the deployed
    package unpacked under UNPACKED/<function>. `module`: the Terraform root module inside
    the workspace (its state, and the directory `filename` is relative to)."""
    if source is not None:
        if not (workspace / source).is_dir():
            raise InputError(f"workers.source: {source!r} is not a directory of the solution")
        return source
    root = module or workspace
    # Terraform's own state in the copy, read without following a link put in its place.
    data = files.read_regular(root, "terraform.tfstate", MAX_STATE)
    state = json.loads(data) if data is not None else {}
    filename = deployed_filename(state, function_name)
    if filename is None:
        raise InputError(f"function {function_name!r} was not deployed from a local "
                         "`filename`: name its code's directory in workers.source")
    archive = (root / filename).resolve()
    if not archive.is_relative_to(workspace.resolve()) or not archive.is_file():
        raise InputError(f"function {function_name!r}: its package {filename!r} is not a "
                         "file of the solution: name its code's directory in workers.source")
    if not FUNCTION_NAME.fullmatch(function_name):
        raise SolutionError(f"function {function_name!r}: not a Lambda function name "
                            "(letters, digits, - and _, at most 64), so not a directory name")
    inside = f"{UNPACKED}/{function_name}"
    unpack(archive, workspace, inside)
    return inside
