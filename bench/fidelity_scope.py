"""Whether a corpus example is in scope for `make fidelity`, decided before anything runs.

Out of scope, with the reason: it needs the internet (a module from the Terraform registry),
another provider than those the kit builds (hashicorp/aws, random and the utility providers
of kit/settings.py), a program on the host
(provisioners, `external` data), or an AWS service outside the kit's provider build. Every
service in the build is served by moto, so "no emulator serves it" is the last case. The
checks are the kit's own static gate (kit/deploy/gate.py) and the provider build's
catalogue of types, applied to the example and every local module it reaches, because
Terraform needs all of them (even a resource with `count = 0` needs its type's schema).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from kit import settings, toolchain
from kit.deploy import gate
from kit.deploy.hcl import Configuration, items, parse

# What the kit builds into its mirror (kit/settings.py): aws, random and the utilities.
PROVIDERS = tuple(f"hashicorp/{name}" for name in settings.provider_specs())
# The gate's reasons (kit/deploy/gate.py), as the kind of need that puts an example out.
KINDS = (("modules must be local", "needs the internet"),
         ("reaches the network", "needs the internet"),
         ("provider", "needs another provider"),
         # A `cloud` block (HashiCorp's tutorials) or a remote backend: an untrusted
         # solution's state stays local (team mode replaces it; the corpus is untrusted).
         ("only the local backend is allowed", "needs a remote backend"),
         ("", "runs a program on the host"))


class Scope:
    """Decides scope for the examples of one corpus; parses each module directory once."""

    def __init__(self, corpus: Path) -> None:
        self.corpus = corpus
        self._parsed: dict[Path, Configuration] = {}
        self._catalogue = json.loads(toolchain.catalogue_path().read_text())

    def _config(self, directory: Path) -> Configuration:
        if directory not in self._parsed:
            self._parsed[directory] = parse(directory, recursive=False)
        return self._parsed[directory]

    def modules(self, example: Path) -> list[Path]:
        """The example's directory and every local module directory it reaches."""
        seen: list[Path] = []
        todo = [example.resolve()]
        while todo:
            directory = todo.pop()
            if directory in seen:
                continue
            seen.append(directory)
            for doc in self._config(directory).documents:
                for _, body in items(doc.content.get("module")):
                    source = body.get("source", "") if isinstance(body, dict) else ""
                    if source.startswith(("./", "../")):
                        todo.append(Path(os.path.normpath(directory / source)))
        return seen

    def reason_out_of_scope(self, example: Path) -> str | None:
        """Why the example cannot be judged offline against the emulator; None if it can."""
        directories = self.modules(example)
        for directory in directories:
            found = gate.check(self._config(directory), PROVIDERS, self.corpus)
            if found:
                kind = next(k for words, k in KINDS if words in found[0].why)
                where = os.path.relpath(directory, example.resolve())
                return f"{kind}: {found[0].construct} ({where}/{found[0].where})"
        types = {name for directory in directories for doc in self._config(directory).documents
                 for key in ("resource", "data") for name, _ in items(doc.content.get(key))}
        services = self._catalogue["services"]
        outside = sorted((name, self._catalogue["types"][name]) for name in types
                         if self._catalogue["types"].get(name) not in (None, *services))
        if outside:
            shown = ", ".join(f"{name} ({service})" for name, service in outside[:3])
            more = f" and {len(outside) - 3} more" if len(outside) > 3 else ""
            return f"AWS service outside the kit's provider build: {shown}{more}"
        return None
