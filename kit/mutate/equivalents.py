"""The scenario's reviewed equivalent mutants: `scenarios/<s>/equivalent-mutants.yaml`, a
list of `{id, reason}`: a mutant that no fault can tell apart from the solution, and why
it is harmless. An id that names no mutant of the golden is an input error (a stale entry
would hide a new survivor with the same id)."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

import yaml

from kit.errors import InputError
from kit.scenario import read_yaml

FILE = "equivalent-mutants.yaml"


def load(path: Path, known: Collection[str]) -> dict[str, str]:
    """id -> reason of every listed equivalent ({} without the file); errors name the file."""
    if not path.exists():
        return {}
    try:
        raw = read_yaml(path.read_text()) or []
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(raw, list):
        raise InputError(f"{path}: a list of {{id, reason}} entries expected, got "
                         f"{type(raw).__name__}")
    found: dict[str, str] = {}
    for n, entry in enumerate(raw, 1):
        if not isinstance(entry, dict) or set(entry) != {"id", "reason"} \
                or not all(isinstance(entry[k], str) and entry[k].strip() for k in entry):
            raise InputError(f"{path}: entry {n}: fields id and reason (non-empty strings) "
                             "and nothing else expected")
        if entry["id"] in found:
            raise InputError(f"{path}: entry {n}: field id {entry['id']!r} listed twice")
        if entry["id"] not in known:
            raise InputError(f"{path}: entry {n}: field id {entry['id']!r} names no mutant "
                             "of the golden (kit mutate lists them: remove or rename the "
                             "entry)")
        found[entry["id"]] = entry["reason"].strip()
    return found
