"""Vendor fidelity/corpus/ from git snapshots of the terraform-aws-modules repositories.

Usage: python bench/fidelity_vendor.py MIRRORS, where MIRRORS holds one bare git directory per
repository as `terraform-aws-modules+<repo>/repo` (what the team's `fetch` tool brings).

For every example under `examples/` of each repository this copies the example's files, the
module directories its local sources reach (`../../`, `../../modules/x`), and for a
registry source of another vendored repository (`terraform-aws-modules/kms/aws ~> 1.0`) that
repository at the newest tag matching the constraint, as the Terraform registry would pick;
the source line is rewritten to the vendored copy, with a comment saying what it was (the
Apache-2.0 licence asks that changed files say so). Registry sources of repositories not
vendored stay as they are: `make fidelity` lists such an example as out of scope.

Written here rather than with a vendoring tool: Terraform has no offline module mirror, and
the job is a few git reads.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

CORPUS = Path(__file__).resolve().parent.parent / "fidelity" / "corpus"
OWNER = "terraform-aws-modules"
# Each repository at the commit its examples are taken from (a newer snapshot still has it):
# the corpus is the same wherever it is vendored.
PINS = {
    "terraform-aws-sqs": "cc15171d03a9635784bea6aa6d456556d5cce739",
    "terraform-aws-sns": "8df4ec0dac110e19ddae212ed953c34bc7bb4462",
    "terraform-aws-rds": "fa183b6b36204913fac1219d09b4979c1e60443a",
    "terraform-aws-iam": "981121bcd17618b8ed032223c0d9e647b9277ef9",
    "terraform-aws-kms": "407e3db34a65b384c20ef718f55d9ceacb97a846",
    "terraform-aws-secrets-manager": "82029345dea22bc49989a6f46c5d8d8e555b84c9",
    "terraform-aws-s3-bucket": "dd0c434de5e74d8864e249ee020d917b076b6e32",
    "terraform-aws-vpc": "82d1929e669efef4e2ad00611b8a68e7a56e049c",
    "terraform-aws-security-group": "3cf4e1a48a4649179e8ea27308daf0b551cb0bfa",
}
REPOS = tuple(PINS)
LICENCE = "Apache-2.0"
SKIPPED = (".terraform.lock.hcl",)
_MODULE = re.compile(r'^module\s+"([^"]+)"\s*\{\n(.*?)^\}', re.S | re.M)
_SOURCE = re.compile(r'^(\s*)source(\s*)=\s*"([^"]+)"[^\n]*\n', re.M)
_VERSION = re.compile(r'^\s*version\s*=\s*"([^"]+)"[^\n]*\n', re.M)
_REGISTRY = re.compile(rf"^{OWNER}/([\w-]+)/aws(?://(.+))?$")


@dataclass
class Tree:
    """One repository at one commit, as vendored: which module directories it needs."""

    repo: str
    commit: str
    tag: str | None
    name: str  # directory under the corpus
    dirs: set[str] = field(default_factory=set)


class Vendor:
    """Copies examples and what they need out of the git snapshots."""

    def __init__(self, mirrors: Path) -> None:
        self.mirrors = mirrors
        self.trees: dict[tuple[str, str], Tree] = {}
        self.heads = {repo: self.git(repo, "rev-parse", f"{PINS.get(repo, 'HEAD')}^{{commit}}")
                      .strip() for repo in REPOS}

    def _git(self, repo: str, *args: str) -> subprocess.CompletedProcess[bytes]:
        gitdir = self.mirrors / f"{OWNER}+{repo}" / "repo"
        return subprocess.run(["git", "-C", str(gitdir), *args], capture_output=True,
                              check=False)

    def git(self, repo: str, *args: str) -> str:
        done = self._git(repo, *args)
        if done.returncode != 0:
            raise SystemExit(f"git {' '.join(args)} in {repo}: {done.stderr.decode()}")
        return done.stdout.decode()

    def blob(self, repo: str, commit: str, path: str) -> bytes | None:
        done = self._git(repo, "show", f"{commit}:{path}")
        return done.stdout if done.returncode == 0 else None  # absent (LFS, large file)

    def files(self, repo: str, commit: str, directory: str, recursive: bool) -> list[str]:
        args = ["ls-tree", "--name-only", *(["-r"] if recursive else []), commit,
                f"{directory.rstrip('/')}/" if directory else "."]
        return self.git(repo, *args).splitlines()

    def tree(self, repo: str, constraint: str | None) -> Tree:
        """The tree of `repo` an example needs: HEAD, or the newest tag matching."""
        commit, tag = self.heads[repo], None
        if constraint is not None:
            tag = newest_tag(self.git(repo, "tag").split(), constraint)
            if tag is None:
                raise LookupError(f"no tag of {repo} matches {constraint}")
            commit = self.git(repo, "rev-list", "-n1", tag).strip()
        key = (repo, commit)
        if key not in self.trees:
            name = repo if commit == self.heads[repo] else f"{repo}-{tag}"
            self.trees[key] = Tree(repo, commit, tag, name)
        return self.trees[key]

    def need(self, tree: Tree, directory: str) -> None:
        """Vendor module `directory` of `tree` and, through its sources, what it needs."""
        directory = os.path.normpath(directory)
        if directory in tree.dirs:
            return
        tree.dirs.add(directory)
        for path in self.files(tree.repo, tree.commit, "" if directory == "." else directory,
                               recursive=False):
            if path.endswith(".tf"):
                text = (self.blob(tree.repo, tree.commit, path) or b"").decode()
                self.rewrite(tree, directory, text)

    def rewrite(self, tree: Tree, directory: str, text: str) -> tuple[str, list[str]]:
        """`text` with registry sources aimed at vendored trees; notes on each change."""
        return rewrite(text, directory, tree.name, lambda path: self.need(tree, path),
                       self.registry)

    def registry(self, source: str, constraint: str | None) -> tuple[Tree, str] | None:
        """The vendored tree and module directory a registry source of another
        terraform-aws-modules repository names (vendored here); None if not vendored."""
        registry = _REGISTRY.match(source)
        repo = f"terraform-aws-{registry.group(1)}" if registry else None
        if registry is None or repo not in REPOS:
            return None  # not vendored: the example is out of scope
        target, sub = self.tree(repo, constraint), registry.group(2) or "."
        self.need(target, sub)
        return target, sub

    def example(self, repo: str, directory: str) -> None:
        """Vendor one example directory with a SOURCE file."""
        tree = self.tree(repo, None)
        target = CORPUS / tree.name / directory
        target.mkdir(parents=True, exist_ok=True)
        notes: list[str] = []
        missing: list[str] = []
        paths = [p for p in self.files(repo, tree.commit, directory, recursive=True)
                 if not p.endswith(SKIPPED)]
        texts = b"".join(self.blob(repo, tree.commit, p) or b"" for p in paths
                         if p.endswith(".tf"))
        # Documentation only where the example reads it (s3-bucket/object uploads README.md).
        paths = [p for p in paths if not p.endswith(".md")
                 or PurePosixPath(p).name.encode() in texts]
        # An example that needs a module from outside the corpus cannot run offline: it is
        # kept verbatim (and listed as out of scope), without vendoring its other modules.
        foreign = sorted({source for p in paths if p.endswith(".tf")
                          for source in registry_sources(self.blob(repo, tree.commit, p))
                          if _REGISTRY.match(source) is None
                          or f"terraform-aws-{_REGISTRY.match(source).group(1)}" not in REPOS})
        for path in paths:
            data = self.blob(repo, tree.commit, path)
            if data is None:
                missing.append(path)
                continue
            if path.endswith(".tf") and not foreign:
                text, changed = self.rewrite(tree, str(PurePosixPath(path).parent),
                                             data.decode())
                notes += changed
                data = text.encode()
            out = CORPUS / tree.name / path
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(data)
        lines = [f"repository: https://github.com/{OWNER}/{repo}", f"commit: {tree.commit}",
                 f"path: {directory}", f"licence: {LICENCE} (LICENSE at the root of "
                 f"fidelity/corpus/{tree.name})"]
        lines += ["local edits:", *(f"  - {n}" for n in notes)] if notes else \
            ["local edits: none"]
        if foreign:
            lines += ["needs modules from the Terraform registry (not vendored):",
                      *(f"  - {f}" for f in foreign)]
        if missing:
            lines += ["not vendored (absent from the snapshot):", *(f"  - {m}" for m in missing)]
        (target / "SOURCE").write_text("\n".join(lines) + "\n")

    def write_trees(self) -> None:
        """Copy every needed module directory, the licence and a SOURCE per tree."""
        for tree in list(self.trees.values()):
            root = CORPUS / tree.name
            for directory in sorted(tree.dirs):
                for path in self.files(tree.repo, tree.commit,
                                       "" if directory == "." else directory, recursive=False):
                    if not path.endswith(".tf"):
                        continue
                    text = (self.blob(tree.repo, tree.commit, path) or b"").decode()
                    out = root / path
                    out.parent.mkdir(parents=True, exist_ok=True)
                    out.write_text(self.rewrite(tree, directory, text)[0])
            licence = self.blob(tree.repo, tree.commit, "LICENSE")
            if licence is None:
                raise SystemExit(f"{tree.repo}@{tree.commit}: no LICENSE")
            (root / "LICENSE").write_bytes(licence)
            (root / "SOURCE").write_text("\n".join([
                f"repository: https://github.com/{OWNER}/{tree.repo}",
                f"commit: {tree.commit}" + (f" (tag {tree.tag})" if tree.tag else ""),
                f"licence: {LICENCE} (LICENSE)",
                "module directories vendored:", *(f"  - {d}" for d in sorted(tree.dirs)),
            ]) + "\n")


# A registry source and its version constraint -> the vendored tree (its `name`, `tag`,
# `commit`) and module directory it names, vendored by the call; None if not vendored.
Lookup = Callable[[str, str | None], tuple[Any, str] | None]


def rewrite(text: str, directory: str, name: str, local: Callable[[str], None],
            lookup: Lookup) -> tuple[str, list[str]]:
    """`text` (a .tf file of `directory` of the tree vendored as `name`) with each module's
    registry source that `lookup` finds aimed at its vendored tree, and a note per change;
    `local` is called with each local source's directory (to vendor it)."""
    notes: list[str] = []

    def module(match: re.Match[str]) -> str:
        body = match.group(2)
        found = _SOURCE.search(body)
        if not found:
            return match.group(0)
        source = found.group(3)
        if source.startswith(("./", "../")):
            local(os.path.normpath(f"{directory}/{source}"))
            return match.group(0)
        version = _VERSION.search(body)
        aim = lookup(source, version.group(1) if version else None)
        if aim is None:
            return match.group(0)  # not vendored: the example is out of scope
        target, sub = aim
        return aimed(match, found, version, f"{name}/{directory}", target, sub, notes)

    return _MODULE.sub(module, text), notes


def registry_sources(tf: bytes | None) -> list[str]:
    """Module sources in a .tf file that are not local paths."""
    text = (tf or b"").decode()
    return [m.group(3) for block in _MODULE.finditer(text)
            for m in [_SOURCE.search(block.group(2))]
            if m and not m.group(3).startswith(("./", "../"))]


def newest_tag(tags: list[str], constraint: str) -> str | None:
    """The newest tag (vX.Y.Z) satisfying a Terraform version constraint."""
    # Terraform's `~>` is the pessimistic operator, `~=` in PEP 440 terms.
    spec = SpecifierSet(",".join(part.strip().replace("~>", "~=")
                                 for part in constraint.split(",")))
    versions: list[tuple[Version, str]] = []
    for tag in tags:
        try:
            versions.append((Version(tag.removeprefix("v")), tag))
        except InvalidVersion:
            continue
    matching = [(v, t) for v, t in versions if v in spec and not v.is_prerelease]
    return max(matching)[1] if matching else None


def aimed(match: re.Match[str], found: re.Match[str], version: re.Match[str] | None,
          at: str, target: Any, sub: str, notes: list[str]) -> str:
    """The module block `match` (at `at`, its source line `found`) with its registry source
    rewritten to `sub` of the vendored tree `target`, saying what it was; a note added."""
    body, source = match.group(2), found.group(3)
    constraint = version.group(1) if version else None
    depth = len(PurePosixPath(at).parts)
    local = str(PurePosixPath(*[".."] * depth, target.name, sub))
    picked = target.tag or f"commit {target.commit[:12]}"
    was = f'"{source}"' + (f' version "{constraint}"' if constraint else "")
    notes.append(f"module {match.group(1)}: {was} -> {local} ({picked})")
    new = (f'{found.group(1)}source{found.group(2)}= "{local}" '
           f"# kit: was {was}, vendored at {picked}\n")
    body = body[:found.start()] + new + body[found.end():]
    if version:
        body = _VERSION.sub("", body, count=1)
    return f'module "{match.group(1)}" {{\n{body}}}'


def main() -> None:
    """Rebuild the corpus from the snapshots under argv[1]."""
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    vendor = Vendor(Path(sys.argv[1]))
    for repo in REPOS:
        shutil.rmtree(CORPUS / repo, ignore_errors=True)
    for stale in CORPUS.glob("terraform-aws-*-v*"):
        shutil.rmtree(stale)
    for repo in REPOS:
        examples = {str(PurePosixPath(p).parent) for p in
                    vendor.files(repo, vendor.heads[repo], "examples", recursive=True)
                    if p.endswith(".tf") and len(PurePosixPath(p).parts) == 3}
        for directory in sorted(examples):
            vendor.example(repo, directory)
    vendor.write_trees()
    print(f"vendored {sum(1 for _ in CORPUS.glob('*/examples/*/SOURCE'))} examples "
          f"into {CORPUS}")


if __name__ == "__main__":
    main()
