"""A solution's Terraform, parsed once per run: every `*.tf` and `*.tf.json` file under it.

The static gate, the provider override and every inspection (e.g. rds.hardening's
password rule) read this one parse, so a setting written in a local module or in JSON is
judged like one written at the root, and no file is parsed twice. HCL is parsed with
python-hcl2 (quotes stripped, so "x" and x compare alike); JSON is Terraform's JSON
syntax, whose blocks are maps where HCL's parser gives lists of maps: `blocks` and `items`
iterate both shapes alike.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hcl2
from hcl2.utils import SerializationOptions

from kit.errors import SolutionError

_OPTIONS = SerializationOptions(strip_string_quotes=True, explicit_blocks=False)
# python-hcl2 8.1 serializes with one SerializationContext shared by every call (the
# mutable default argument of each rule's `serialize`), whose `inside_dollar_string` it
# flips while it walks an interpolation: two threads parsing at once (`kit validate
# --jobs`) see each other's flag, and `password = var.x` comes out bare, as the literal
# "var.x". One parse at a time.
_PARSING = threading.Lock()
# Left out of the solution's copy (kit/deploy/terraform.py), so never read either: what an
# earlier init or apply left behind (kit/deploy/intake.py says why each is harmless), and a
# team repository's `.kit/` (its scenarios, variants and module cache: the kit's input).
NOT_COPIED = (".terraform", ".terraform.lock.hcl", "terraform.tfstate*", ".git",
              "__pycache__", ".kit")


@dataclass(frozen=True)
class Document:
    """One parsed file: its path relative to the solution, its text and its content."""

    path: Path
    text: str
    content: dict[str, Any]

    @property
    def is_override(self) -> bool:
        """Terraform merges `*_override.tf(.json)` files into the others."""
        return self.path.name.endswith(("_override.tf", "_override.tf.json"))

    def line(self, *words: str) -> int:
        """Line of the first block header made of `words` (for evidence only)."""
        # Blank in HCL (`data "http" "h"`); `": {` or `": [{` in JSON.
        pattern = r"[\s:{\[]+".join(rf'"?{re.escape(w)}"?' for w in words)
        found = re.search(pattern, self.text)
        return self.text.count("\n", 0, found.start()) + 1 if found else 1


@dataclass(frozen=True)
class Configuration:
    """Every Terraform file of a solution directory, parsed."""

    root: Path
    documents: tuple[Document, ...]

    def at_root(self) -> list[Document]:
        """The root module's files (Terraform reads only these as the root module)."""
        return self.at(Path("."))

    def at(self, directory: Path) -> list[Document]:
        """The files of one module directory (relative to the solution)."""
        where = Path(os.path.normpath(directory))
        return [d for d in self.documents if d.path.parent == where]

    def resources(self, rtype: str) -> Iterator[tuple[Document, str, dict[str, Any]]]:
        """(file, name, body) of every resource of `rtype`, in every module."""
        for doc in self.documents:
            for found, instances in items(doc.content.get("resource")):
                if found == rtype:
                    for name, body in items(instances):
                        yield doc, name, body if isinstance(body, dict) else {}

    def variables(self, directory: Path) -> dict[str, dict[str, Any]]:
        """name -> body of the variables declared in one module directory."""
        return {name: body if isinstance(body, dict) else {}
                for doc in self.documents if doc.path.parent == directory
                for name, body in items(doc.content.get("variable"))}


def not_copied(name: str) -> bool:
    """Whether an entry of this name is left out of the solution's copy."""
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in NOT_COPIED)


def listify(value: Any) -> list[Any]:
    """A block list whether the parser gave a list, one mapping, or nothing."""
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def items(value: Any) -> Iterator[tuple[str, Any]]:
    """(label, body) pairs of a block map, whichever shape the parser gave it."""
    for entry in listify(value):
        if isinstance(entry, dict):
            for label, body in entry.items():
                if not label.startswith("__"):
                    yield label.strip('"'), body


def blocks(value: Any, labels: int) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """(labels, body) of every block of one type with `labels` labels, in HCL's parse or
    any JSON form: in Terraform's JSON syntax each label level (and the body) may be an
    object or an array of objects."""
    for entry in listify(value):
        if not isinstance(entry, dict):
            continue
        if labels == 0:
            yield (), entry
            continue
        for label, inner in entry.items():
            if not label.startswith("__"):
                for rest, body in blocks(inner, labels - 1):
                    yield (label.strip('"'), *rest), body


def _parse(text: str, rel: Path) -> dict[str, Any]:
    if rel.name.endswith(".tf.json"):
        try:
            content = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SolutionError(f"{rel}: not valid JSON: {exc}") from None
        if not isinstance(content, dict):
            raise SolutionError(f"{rel}: a Terraform JSON file holds an object at the top")
        return content
    try:
        return loads(text)
    except Exception as exc:  # noqa: BLE001 - the parser raises many types
        raise SolutionError(f"{rel}: not valid HCL: {exc}") from None


# Terraform ends a heredoc at its marker followed by spaces or tabs (`POLICY  `, as
# aws-samples/serverless-patterns writes it); python-hcl2 only at the bare marker and
# rejects the file. The marker lines are trimmed so that both read the same text.
_HEREDOC = re.compile(r"<<-?([A-Za-z_][\w-]*)[ \t]*\r?\n")


def heredoc_ends_trimmed(text: str) -> str:
    """`text` with the trailing blanks of every heredoc's closing marker line removed."""
    markers = sorted(set(_HEREDOC.findall(text)))
    if not markers:
        return text
    ends = re.compile(r"^([ \t]*(?:" + "|".join(map(re.escape, markers)) + r"))[ \t]+$", re.M)
    return ends.sub(r"\1", text)


def loads(text: str) -> dict[str, Any]:
    """python-hcl2's parse of HCL text, quotes stripped (safe from any thread)."""
    with _PARSING:
        return hcl2.loads(heredoc_ends_trimmed(text), serialization_options=_OPTIONS)


def parse(solution: Path, recursive: bool = True) -> Configuration:
    """Parse every Terraform file under `solution` (or directly in it); SolutionError names
    a file that the parser cannot read (Terraform's own verdict on it is asked for
    separately)."""
    documents = []
    for path in sorted(solution.rglob("*") if recursive else solution.glob("*")):
        rel = path.relative_to(solution)
        if not path.is_file() or any(not_copied(part) for part in rel.parts):
            continue
        if path.name.endswith((".tf", ".tf.json")):
            text = path.read_text(errors="replace")
            documents.append(Document(rel, text, _parse(text, rel)))
    return Configuration(solution, tuple(documents))
