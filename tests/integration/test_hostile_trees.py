"""The hostile-tree fuzzer (issue 44): Hypothesis builds solution trees an attacker would
hand the kit, and every entry point that takes a solution is driven on them.

A tree is the golden order-pipeline solution made defective (its producer may purge the
queue: `iam.least_privilege` fails) plus hostile entries at the names the kit reads or
writes (`zz_kit_*`, `.kit-lambda`, `.terraform`, `worker/`, `requirements.txt`, `main.tf`):
dangling links, absolute links (to a root-only file, back into the tree), relative links
climbing out and back, links to the golden, loops, FIFOs, deep and wide directories, and
a `.git/` whose configuration would run a command (fsmonitor, hooks, filters, pager,
external diff, ssh command). Properties, whatever the tree:
- the kit's process (root) never opens the root-only file nor a golden file (an audit
  hook sees every `open`), opens nothing of the tree but its `.git/` (read as data: the
  intake's walker reads the rest, confined), and writes nothing into the tree;
- no command the tree's `.git/` names ever runs (it would create a canary file);
- each entry point ends in its verdict, the gate's refusal or an input error naming the
  problem: never an unhandled error, and `kit eval` never passes the defective tree and
  is never the kit's `error`.

The quick profile runs in `make test`; `KIT_FUZZ=long` (the slow test, `make validate`)
tries many more trees. Seeded (`derandomize`): the same trees on every run.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kit import scenario
from kit.deploy import intake
from kit.deploy.terraform import Terraform
from kit.errors import InputError, SolutionError
from kit.evaluate import baseline
from kit.intake import snapshot
from kit.mutate.generate import mutants
from kit.toolchain import deps
from kit.variants import load_all, materialize
from tests.conftest import ROOT

pytestmark = pytest.mark.integration
LONG = os.environ.get("KIT_FUZZ") == "long"
GOLDEN = ROOT / "golden" / "order-pipeline"
KIT = Path(sys.executable).parent / "kit"
NAMES = ["zz_kit_provider.tf", "zz_kit_override.tf", ".kit-lambda", ".terraform", "worker",
         "worker/requirements.txt", "requirements.txt", "main.tf", "worker/__main__.py",
         "extra.tf", "deep/a.tf"]
KINDS = ["dangling", "absolute-secret", "absolute-inside", "climb-back", "golden", "loop",
         "fifo", "deep", "wide", "regular"]
TREES = st.tuples(st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from(KINDS)),
                           min_size=1, max_size=5, unique_by=lambda entry: entry[0]),
                  st.booleans())
# A .git/config whose every key would run `touch <canary>` if git obeyed it.
GIT_CONFIG = """[core]
\tfsmonitor = touch {ran}
\thooksPath = hooks
\tpager = touch {ran}
\tsshCommand = touch {ran}
\tgitProxy = touch {ran}
[diff]
\texternal = touch {ran}
[filter "kit"]
\tclean = touch {ran}
\tsmudge = touch {ran}
\tprocess = touch {ran}
[credential]
\thelper = !touch {ran}
"""

_OPENED: list[str] | None = None


def _audit(event: str, args: tuple) -> None:
    """Every path the kit's process opens, while a property is being checked."""
    if _OPENED is not None and event == "open" and isinstance(args[0], str | bytes):
        _OPENED.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)


@contextlib.contextmanager
def _opened() -> Iterator[list[str]]:
    global _OPENED
    _OPENED = found = []
    try:
        yield found
    finally:
        _OPENED = None


class Host:
    """What lies outside the tree: a root-only secret, and where a hook would leave a mark."""

    def __init__(self, top: Path) -> None:
        self.top = top
        self.secret = top / f"host-secret-{secrets.token_hex(4)}.txt"
        self.secret.write_text(f"root-only {secrets.token_hex(8)}\n")
        self.secret.chmod(0o600)
        self.ran = top / "a-hook-ran"

    def leaked(self, opened: list[str]) -> list[str]:
        """Opened paths that are the secret or a golden file."""
        return [p for p in opened if os.path.basename(p) == self.secret.name
                or os.path.realpath(p) == str(self.secret)
                or os.path.realpath(p).startswith(str(GOLDEN) + os.sep)]


def _defective(target: Path) -> Path:
    sc = scenario.load("order-pipeline")
    (variant,) = [v for v in load_all(sc) if v.name == "producer-can-purge"]
    return materialize(sc, variant, target)


def _hostile(tree: Path, host: Host, entries: list[tuple[str, str]], git: bool) -> None:
    """Add each (name, kind) entry to `tree`; a name whose parent cannot be made is skipped."""
    for name, kind in entries:
        path = tree / name
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.is_symlink() or path.is_file():
                path.unlink()
            elif path.is_dir():
                shutil.rmtree(path)
            _make(path, kind, tree, host)
        except (FileExistsError, NotADirectoryError):
            continue
    if git:
        _git(tree, host)


def _make(path: Path, kind: str, tree: Path, host: Host) -> None:
    up = "../" * (len(path.relative_to(tree).parts))
    links = {"dangling": "no-such-dir/p.tf", "absolute-secret": str(host.secret),
             "absolute-inside": str(tree / "main.tf"), "loop": ".",
             "climb-back": f"{up}../{tree.name}/main.tf",
             "golden": os.path.relpath(GOLDEN / "worker" / "__main__.py", path.parent)}
    if kind in links:
        path.symlink_to(links[kind])
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "deep":
        deep = path.joinpath(*["d"] * 40)
        deep.mkdir(parents=True)
        (deep / "x.tf").write_text("# deep\n")
    elif kind == "wide":
        path.mkdir()
        for i in range(300):
            (path / f"f{i}.txt").write_text("w\n")
    else:
        path.write_text('# written by the attacker: ![x](https://evil.example/p.png)\n')


def _git(tree: Path, host: Host) -> None:
    """A repository at the tree's top whose configuration runs a canary, committed clean."""
    env = {"PATH": os.environ["PATH"], "HOME": str(host.top), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@x", "GIT_COMMITTER_NAME": "a",
           "GIT_COMMITTER_EMAIL": "a@x"}
    for argv in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base", "--no-verify"]):
        subprocess.run(["git", *argv], cwd=tree, env=env, check=False, capture_output=True)
    (tree / ".git" / "config").write_text(GIT_CONFIG.format(ran=host.ran))
    hooks = tree / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    for name in ("post-checkout", "pre-commit", "post-index-change", "reference-transaction"):
        (hooks / name).write_text(f"#!/bin/sh\ntouch {host.ran}\n")
        (hooks / name).chmod(0o755)
    (tree / ".gitattributes").write_text("* filter=kit diff=kit\n")


def _fingerprint(tree: Path) -> dict[str, tuple]:
    """Every entry of the tree as lstat shows it (and each regular file's bytes)."""
    found = {}
    for here, dirs, files in os.walk(tree, followlinks=False):
        for name in dirs + files:
            path = Path(here) / name
            info = path.lstat()
            data = path.read_bytes() if path.is_file() and not path.is_symlink() else b""
            found[str(path.relative_to(tree))] = (info.st_mode, info.st_size, data)
    return found


def _entry_points(tree: Path, work: Path) -> list[str]:
    """Drive each entry point's steps on the tree as they take it (its git as data, then the
    intake's snapshot, then the rest on the snapshot); what each ended in (a name, never a
    traceback)."""
    ends = [f"source: {baseline.source(tree) is not None}"]
    try:
        with snapshot.taken(tree) as taken:
            return ends + _on_snapshot(taken, work)
    except snapshot.Refused:
        return [*ends, "intake: refused"]


def _on_snapshot(tree: Path, work: Path) -> list[str]:
    """What the steps after the intake end in, on its snapshot."""
    ends = []
    refused = intake.refusals(tree)
    ends.append(f"gate: {len(refused)} refusal(s)")
    if not refused:
        try:
            Terraform(tree, work).configure("http://127.0.0.1:9")
            ends.append("copy: made")
        except (InputError, SolutionError) as exc:
            ends.append(f"copy: {type(exc).__name__}")
    if not refused:
        ends.append(f"mutate: {len(mutants(tree))} mutant(s)")
    try:
        deps.declared(tree / "worker")
        ends.append("deps: read")
    except InputError:
        ends.append("deps: InputError")
    return ends


@contextlib.contextmanager
def _tree(prefix: str, entries: list[tuple[str, str]], git: bool
          ) -> Iterator[tuple[Path, Host, Path]]:
    """(its temp dir, the host around it, the hostile defective tree), removed after."""
    top = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        top.chmod(0o711)
        host = Host(top)
        tree = _defective(top / "sol")
        _hostile(tree, host, entries, git)
        yield top, host, tree
    finally:
        shutil.rmtree(top, ignore_errors=True)


def _check_tree(entries: list[tuple[str, str]], git: bool) -> None:
    with _tree("kit-fuzz-", entries, git) as (top, host, tree):
        before = _fingerprint(tree)
        with _opened() as opened:
            ends = _entry_points(tree, top / "work")
        assert host.leaked(opened) == [], (entries, ends)
        # Of the tree itself, the kit's process opens only its .git/, as data: the rest was
        # read by the intake's walker, in its sandbox.
        git = str(tree / ".git")
        assert [p for p in opened if p.startswith(str(tree) + os.sep)
                and p != git and not p.startswith(git + os.sep)] == [], (entries, ends)
        assert not host.ran.exists(), (entries, ends)
        assert _fingerprint(tree) == before, (entries, ends)


def _profile(quick: int, long: int) -> settings:
    """Hypothesis settings: seeded, no example database, `long` examples with KIT_FUZZ=long."""
    return settings(max_examples=long if LONG else quick, deadline=None, derandomize=True,
                    database=None, suppress_health_check=[HealthCheck.too_slow])


@_profile(quick=40, long=500)
@given(TREES)
def test_no_entry_point_reads_the_host_runs_a_hook_or_writes_into_the_tree(tree) -> None:
    _check_tree(*tree)


@pytest.mark.timeout(1800 if LONG else 400)
@_profile(quick=2, long=20)
@given(TREES)
def test_kit_eval_of_a_hostile_defective_tree_fails_or_is_refused_never_passes(tree) -> None:
    entries, git = tree
    with _tree("kit-fuzz-eval-", entries, git) as (top, host, sol):
        done = subprocess.run([str(KIT), "eval", "order-pipeline", "--solution", str(sol),
                               "--fault", "none", "--out", str(top / "runs"),
                               # against itself: --fail-on any, or a failure on both
                               # sides would be no new one (and pass)
                               *(["--baseline", "HEAD", "--fail-on", "any"] if git and LONG
                                 else [])],
                              capture_output=True, text=True, timeout=600, check=False)
        said = done.stdout + done.stderr
        assert done.returncode in (1, 2), (entries, git, said[-3000:])  # fail, or refused
        assert "Traceback" not in said
        assert not host.ran.exists(), (entries, said[-2000:])
        secret = host.secret.read_text().strip()
        written = [p for p in (top / "runs").rglob("*") if p.is_file() and not p.is_symlink()]
        assert [p for p in written if secret in p.read_text(errors="replace")] == []


@pytest.mark.slow
def test_the_long_profile() -> None:
    """`make validate`: the long profile of both properties, in a process of its own."""
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           __file__, "-m", "not slow"], env={**os.environ, "KIT_FUZZ": "long"},
                          capture_output=True, text=True, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-4000:]
