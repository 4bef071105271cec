"""Vendor the corpus's other sources (beyond terraform-aws-modules) into fidelity/vendored/.

Usage: python bench/fidelity_sources.py MIRRORS, where MIRRORS holds one bare git directory
per repository as `<owner>+<name>/repo` (what the team's `fetch` tool brings).

`SOURCES` names each repository, its licence and the example directories taken from it.
For each example this copies the example's files (not documentation, pictures or tests),
the module directories its local sources reach, and for a registry source listed in
`REGISTRY` that repository at the newest tag matching the constraint (as the Terraform
registry would pick), rewriting the source line to the vendored copy with a comment saying
what it was. A tutorial's variables without a default (asked for on the command line) and a
publisher's test fixtures (`fixtures.*.tfvars`, passed with -var-file by its tests) become
`kit.auto.tfvars`, which Terraform loads without a flag. Every edit is listed in the
example's SOURCE.

The vendored trees are not committed: the fetch tool's terms keep fetched code out of the
repository. `SOURCES` and the commits in fidelity/README.md say what to fetch; `make
fidelity` runs what is vendored and names the sources it did not find.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fidelity_vendor import newest_tag, rewrite  # noqa: E402

VENDORED = Path(__file__).resolve().parent.parent / "fidelity" / "vendored"
# Files an example does not need to apply: documentation, pictures, tests. Its lock file
# is kept: it says which provider versions the stack was applied with (make fidelity names
# a failure on other versions than those the kit's own; Terraform never sees the file).
SKIPPED = re.compile(r"(\.md|\.png|\.jpe?g|\.gif|\.svg|\.gitignore|"
                     r"example-pattern\.json|README\.yaml|atmos\.yaml)$|(^|/)(test|\.github)/")
_REGISTRY = re.compile(r"^([\w-]+)/([\w-]+)/([\w-]+)(?://(.+))?$")


@dataclass(frozen=True)
class Source:
    """One repository of the corpus and the examples taken from it."""

    repo: str  # owner/name
    commit: str  # the commit the examples are taken from (the snapshot must have it)
    licence: str
    examples: tuple[str, ...]  # directories, "." for the repository's root
    # Values for variables without a default, as the tutorial has the user type them.
    variables: tuple[tuple[str, str], ...] = ()


SERVERLESS = ("lambda-sns-terraform", "lambda-sqs-terraform", "sns-sqs-terraform",
              "s3-sns-terraform", "s3-sqs-terraform", "s3-lambda-terraform",
              "sqs-lambda-terraform-python", "eventbridge-schedule-to-cloudwatch-alarm-terraform",
              "eventbridge-sns-terraform", "eventbridge-sqs-terraform",
              "lambda-ssm-parameter-terraform", "dynamodb-streams-lambda-terraform",
              "rds-sns-event-notification-terraform", "kinesis-lambda-terraform",
              "lambda-function-url-terraform", "terraform-sqs-lambda",
              "s3-sqs-lambda-terraform")
SOURCES: tuple[Source, ...] = (
    Source("aws-samples/serverless-patterns", "fb7b5d06c27d8abb1bd35e52ab7523acf4baab7b",
           "MIT-0", SERVERLESS),
    Source("hashicorp/learn-terraform-rds", "d2b36faded12b6ae6e57e94c232e2b16066dc08e",
           "MPL-2.0", (".",), (("db_password", "kit-fidelity-password"),)),
    Source("hashicorp/learn-terraform-lambda-api-gateway",
           "122dce03501f2d283fca8fad854c58c57804aa1b", "MPL-2.0", (".",)),
    Source("hashicorp/learn-terraform-iam-policy", "dc9ce206fb0b20c73fddcc915045b921d38f84f1",
           "MPL-2.0", (".",)),
    Source("hashicorp/learn-terraform-aws-dynamodb-scale",
           "bfc57fa9685983344790a0a05933aac4fc306c9f", "MPL-2.0", (".",)),
    Source("cloudposse/terraform-aws-sns-topic", "a8ab43a8db74cdc34c076493876de2fefee838ba",
           "Apache-2.0 (stated in its README)", ("examples/complete",)),
    Source("cloudposse/terraform-aws-rds-cloudwatch-sns-alarms",
           "9669c5dab0bda940640911cadf03af34e284981b", "Apache-2.0", ("examples/complete",)),
    Source("cloudposse/terraform-aws-cloudwatch-logs",
           "43f38915b758f4e46f29c9569a904b3dc09187df", "Apache-2.0", ("examples/complete",)),
)
# Registry modules the examples call, by registry address (namespace/name/provider).
REGISTRY = {"cloudposse/label/null": ("cloudposse/terraform-null-label", "Apache-2.0"),
            "terraform-aws-modules/vpc/aws": ("terraform-aws-modules/terraform-aws-vpc",
                                              "Apache-2.0")}


@dataclass
class Tree:
    """One repository at one commit, as vendored, and the module directories it needs."""

    repo: str
    commit: str
    tag: str | None
    licence: str
    dirs: set[str] = field(default_factory=set)

    @property
    def name(self) -> str:
        """Its directory under fidelity/vendored/."""
        return self.repo.replace("/", "+") + (f"-{self.tag}" if self.tag else "")


class Vendor:
    """Copies examples and what they need out of the git snapshots."""

    def __init__(self, mirrors: Path) -> None:
        self.mirrors = mirrors
        self.trees: dict[tuple[str, str], Tree] = {}

    def git(self, repo: str, *args: str) -> str:
        """Run git in the repository's snapshot; its output."""
        gitdir = self.mirrors / repo.replace("/", "+") / "repo"
        done = subprocess.run(["git", "-C", str(gitdir), *args], capture_output=True,
                              check=False)
        if done.returncode != 0:
            raise SystemExit(f"git {' '.join(args)} in {repo}: {done.stderr.decode()}")
        return done.stdout.decode(errors="replace")

    def blob(self, tree: Tree, path: str) -> bytes:
        """A file of the tree."""
        gitdir = self.mirrors / tree.repo.replace("/", "+") / "repo"
        return subprocess.run(["git", "-C", str(gitdir), "show", f"{tree.commit}:{path}"],
                              capture_output=True, check=True).stdout

    def files(self, tree: Tree, directory: str, recursive: bool) -> list[str]:
        """Paths of the files in a directory of the tree."""
        where = "." if directory == "." else f"{directory}/"
        return self.git(tree.repo, "ls-tree", "--name-only", *(["-r"] if recursive else []),
                        tree.commit, where).splitlines()

    def tree(self, repo: str, licence: str, constraint: str | None,
             commit: str = "HEAD") -> Tree:
        """The tree an example needs: at `commit`, or the newest tag matching `constraint`."""
        commit, tag = self.git(repo, "rev-parse", commit).strip(), None
        if constraint is not None:
            exact = re.fullmatch(r"v?\d+(\.\d+)*", constraint.strip())
            tag = newest_tag(self.git(repo, "tag").split(),
                             f"=={constraint.strip()}" if exact else constraint)
            if tag is None:
                raise SystemExit(f"no tag of {repo} matches {constraint}")
            commit = self.git(repo, "rev-list", "-n1", tag).strip()
        return self.trees.setdefault((repo, commit), Tree(repo, commit, tag, licence))

    def rewrite(self, tree: Tree, directory: str, text: str) -> tuple[str, list[str]]:
        """`text` with listed registry sources aimed at vendored trees; a note per change."""
        return rewrite(text, directory, tree.name, lambda path: self.need(tree, path),
                       self.registry)

    def registry(self, source: str, constraint: str | None) -> tuple[Tree, str] | None:
        """The vendored tree and module directory a registry source listed in `REGISTRY`
        names (vendored here); None if it is not listed."""
        registry = _REGISTRY.match(source)
        address = "/".join(registry.groups()[:3]) if registry else ""
        if registry is None or address not in REGISTRY:
            return None  # not vendored: the example is out of scope
        target, sub = self.tree(*REGISTRY[address], constraint), registry.group(4) or "."
        self.need(target, sub)
        return target, sub

    def need(self, tree: Tree, directory: str) -> None:
        """Vendor module `directory` of `tree` and, through its sources, what it needs."""
        if directory in tree.dirs:
            return
        tree.dirs.add(directory)
        for path in self.files(tree, directory, recursive=False):
            if path.endswith(".tf"):
                self.rewrite(tree, directory, self.blob(tree, path).decode())

    def example(self, source: Source, directory: str) -> None:
        """Vendor one example directory, with its SOURCE."""
        tree = self.tree(source.repo, source.licence, None, source.commit)
        tree.dirs.add(directory)  # its .tf files are written below, with the rest
        target = VENDORED / tree.name / directory
        notes: list[str] = []
        tfvars: list[str] = []
        for path in self.files(tree, directory, recursive=True):
            relative = str(PurePosixPath(path).relative_to(directory)) \
                if directory != "." else path
            if SKIPPED.search(relative) or relative == "LICENSE":
                continue
            data = self.blob(tree, path)
            if path.endswith(".tf"):
                text, changed = self.rewrite(tree, str(PurePosixPath(path).parent), data.decode())
                notes += changed
                data = text.encode()
            if re.fullmatch(r"fixtures\.[\w.-]+\.tfvars", relative):
                tfvars.append(data.decode())
                notes.append(f"{relative} (its tests' -var-file) copied to kit.auto.tfvars")
            out = target / relative
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(data)
        for name, value in source.variables:
            tfvars.append(f'{name} = "{value}"\n')
            notes.append(f"variable {name} (no default; the tutorial asks for it) set in "
                         "kit.auto.tfvars")
        if tfvars:
            (target / "kit.auto.tfvars").write_text("\n".join(tfvars))
        lines = [f"repository: https://github.com/{source.repo}", f"commit: {tree.commit}",
                 f"path: {directory}", f"licence: {source.licence} (LICENSE at the root of "
                 f"fidelity/vendored/{tree.name})"]
        lines += ["local edits:", *(f"  - {n}" for n in notes)] if notes else \
            ["local edits: none"]
        (target / "SOURCE").write_text("\n".join(lines) + "\n")

    def write_trees(self) -> None:
        """Copy every needed module directory's .tf files and each tree's licence."""
        for tree in list(self.trees.values()):
            root = VENDORED / tree.name
            for directory in sorted(tree.dirs):
                for path in self.files(tree, directory, recursive=False):
                    if path.endswith(".tf"):
                        out = root / path
                        out.parent.mkdir(parents=True, exist_ok=True)
                        text = self.blob(tree, path).decode()
                        out.write_text(self.rewrite(tree, directory, text)[0])
            names = self.files(tree, ".", recursive=False)
            licence = next((n for n in names if n.upper().startswith(("LICENSE", "LICENCE"))),
                           None)
            if licence:
                (root / "LICENSE").write_bytes(self.blob(tree, licence))
            else:  # the README states it (cloudposse/terraform-aws-sns-topic)
                (root / "LICENSE").write_text(f"{tree.licence}: see the README of "
                                              f"https://github.com/{tree.repo}\n")
            (root / "MODULES").write_text("\n".join([
                f"repository: https://github.com/{tree.repo}",
                f"commit: {tree.commit}" + (f" (tag {tree.tag})" if tree.tag else ""),
                f"licence: {tree.licence} (LICENSE)", "module directories vendored:",
                *(f"  - {d}" for d in sorted(tree.dirs))]) + "\n")


def main() -> None:
    """Rebuild fidelity/vendored/ from the snapshots under argv[1]."""
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    vendor = Vendor(Path(sys.argv[1]))
    shutil.rmtree(VENDORED, ignore_errors=True)
    for source in SOURCES:
        for directory in source.examples:
            vendor.example(source, directory)
    vendor.write_trees()
    count = sum(1 for _ in VENDORED.rglob("SOURCE"))
    print(f"vendored {count} examples of {len(SOURCES)} repositories into {VENDORED}")


if __name__ == "__main__":
    main()
