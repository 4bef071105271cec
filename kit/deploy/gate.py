"""The static gate: constructs a solution may not use, found before anything is applied.

Terraform can run arbitrary commands on the host (provisioners, `external` data sources)
and reach the network (`http` data sources, remote backends, remote modules). The gate reads
every `*.tf` and `*.tf.json` file under the solution (kit/deploy/hcl.py) and reports each
forbidden construct with file:line evidence, as invariant `deploy.allowed_constructs`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kit.deploy.hcl import Configuration, Document, items, listify

FORBIDDEN_DATA = {"external": "runs a program on the host", "http": "reaches the network"}
BUILTIN_TYPES = ("terraform_data", "terraform_remote_state")


@dataclass(frozen=True)
class Violation:
    """One forbidden construct: where it is and why it is refused."""

    where: str
    construct: str
    why: str

    def __str__(self) -> str:
        return f"{self.where}: {self.construct}: {self.why}"


def check(config: Configuration, allowed_providers: tuple[str, ...], modules_root: Path
          ) -> list[Violation]:
    """Every forbidden construct in the solution (empty when it may be applied)."""
    allowed_names = {source.split("/")[-1] for source in allowed_providers}
    prefixes = tuple(f"{n}_" for n in allowed_names)
    found: list[Violation] = []
    for doc in config.documents:

        def add(construct: str, why: str, *words: str, doc: Document = doc) -> None:
            found.append(Violation(f"{doc.path}:{doc.line(*words)}", construct, why))

        content = doc.content
        for block in listify(content.get("terraform")):
            for name, _ in items(block.get("backend", [])):
                if name != "local":
                    add(f'backend "{name}"', "only the local backend is allowed",
                        "backend", name)
            if "cloud" in block:
                add("cloud", "only the local backend is allowed", "cloud")
            for entry in listify(block.get("required_providers")):
                for name, spec in items(entry):
                    source = spec.get("source", f"hashicorp/{name}") if isinstance(spec, dict) \
                        else f"hashicorp/{name}"
                    source = source.removeprefix("registry.terraform.io/").removeprefix(
                        "registry.opentofu.org/")
                    if source not in allowed_providers:
                        add(f"provider {source}", "allowed providers: "
                            + ", ".join(allowed_providers), name)
        for name, _ in items(content.get("provider", [])):
            if name not in allowed_names:
                add(f'provider "{name}"', "allowed providers: " + ", ".join(allowed_providers),
                    "provider", name)
        for rtype, instances in items(content.get("resource", [])):
            if not rtype.startswith(prefixes) and rtype not in BUILTIN_TYPES:
                add(f'resource "{rtype}"', "its provider is not allowed", "resource", rtype)
            for rname, body in items(instances):
                for entry in listify(body.get("provisioner") if isinstance(body, dict) else None):
                    for kind, _ in items(entry):
                        add(f'resource "{rtype}" "{rname}": provisioner "{kind}"',
                            "provisioners run commands on the host", "provisioner", kind)
        for dtype, _ in items(content.get("data", [])):
            if dtype in FORBIDDEN_DATA:
                add(f'data "{dtype}"', FORBIDDEN_DATA[dtype], "data", dtype)
            elif not dtype.startswith(prefixes) and dtype not in BUILTIN_TYPES:
                add(f'data "{dtype}"', "its provider is not allowed", "data", dtype)
        for mname, body in items(content.get("module", [])):
            source = body.get("source", "") if isinstance(body, dict) else ""
            here = config.root / doc.path.parent
            if not _local_module(here, source, config.root, modules_root):
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
