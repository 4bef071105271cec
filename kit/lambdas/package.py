"""Where a function's handler code comes from: the scenario's `source`, or the package
Terraform deployed (aws_lambda_function's `filename`, relative to the Terraform directory),
unpacked into the run's workspace as Lambda unpacks it into /var/task."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path, PurePosixPath

from kit.errors import InputError

UNPACKED = ".kit-lambda"  # under the workspace: one directory per function
MAX_UNPACKED = 250 * 1024 * 1024  # Lambda's unzipped deployment package quota


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


def unpack(archive: Path, into: Path) -> None:
    """Extract a deployment package; InputError for a member outside it, a link, or more
    than Lambda's unzipped size quota."""
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
        zf.extractall(into)


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
    state_file = root / "terraform.tfstate"
    state = json.loads(state_file.read_text()) if state_file.exists() else {}
    filename = deployed_filename(state, function_name)
    if filename is None:
        raise InputError(f"function {function_name!r} was not deployed from a local "
                         "`filename`: name its code's directory in workers.source")
    archive = (root / filename).resolve()
    if not archive.is_relative_to(workspace.resolve()) or not archive.is_file():
        raise InputError(f"function {function_name!r}: its package {filename!r} is not a "
                         "file of the solution: name its code's directory in workers.source")
    inside = f"{UNPACKED}/{function_name}"
    unpack(archive, workspace / inside)
    return inside
