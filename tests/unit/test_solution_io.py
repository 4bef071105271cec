"""Every call under kit/ that opens, copies, moves, removes or runs something, reviewed
(issue 44, Acceptance 3: no shutil.copytree, open(, write_text or subprocess on a solution
path outside the intake module and the sandbox).

The kit runs as root on the host and grades a hostile solution. kit/intake/ (no-follow
reads and creates, git as data) and kit/sandbox/ are the places allowed to touch what a
solution controls; every other module's calls of the kinds below are found with `ast` and
compared with REVIEWED (each site's reason; none is a path the solution controls outside
the intake). A call not listed fails the test (review it: one on a path a solution
controls belongs in kit/intake or the sandbox), and so does an entry whose call is gone
(remove it). A site is keyed by (module, enclosing function's qualified name, call): one
entry covers every such call in that function, so a new call of a listed kind in a listed
function is not seen here; read the function when you change it.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = ("kit/intake/", "kit/sandbox/")  # the trust boundary: not walked

# Calls that open, copy, move, remove or run something, by the module that provides them;
# a method below called on any other object (a Path) is named by the method alone.
MODULE_CALLS = {
    "shutil": frozenset({"copytree", "copy", "copy2", "copyfile", "move", "rmtree"}),
    "subprocess": frozenset({"run", "Popen", "check_output", "check_call", "call",
                             "getoutput", "getstatusoutput"}),
    "os": frozenset({"open", "system", "popen"}),
    "asyncio": frozenset({"create_subprocess_exec", "create_subprocess_shell"}),
}
OS_PREFIXES = ("exec", "spawn", "posix_spawn")  # os.execv, os.spawnl, os.posix_spawnp, ...
METHODS = frozenset({"open", "read_text", "read_bytes", "write_text", "write_bytes",
                     "unlink", "mkdir", "symlink_to", "rename"})
Site = tuple[str, str]  # (enclosing function's qualified name, call)


def _imported(tree: ast.Module) -> dict[str, str]:
    """Local name -> what it was imported as (`sp` -> `subprocess`, `run` -> `subprocess.run`)."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.asname or a.name: a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names |= {a.asname or a.name: f"{node.module}.{a.name}" for a in node.names}
    return names


def _watched(dotted: str) -> bool:
    module, _, name = dotted.rpartition(".")
    return name in MODULE_CALLS.get(module, ()) or (module == "os" and name.startswith(OS_PREFIXES))


def call_name(func: ast.expr, names: dict[str, str]) -> str | None:
    """The watched call `func` names, or None."""
    if isinstance(func, ast.Name):
        if func.id in names:
            return names[func.id] if _watched(names[func.id]) else None
        return "open" if func.id == "open" else None
    if not isinstance(func, ast.Attribute):
        return None
    module = names.get(func.value.id) if isinstance(func.value, ast.Name) else None
    if module and (_watched(f"{module}.{func.attr}") or func.attr in METHODS):
        return f"{module}.{func.attr}"
    return f".{func.attr}" if func.attr in METHODS else None


def sites(source: str) -> set[Site]:
    """Every watched call of `source`, as (qualified name of the function or class around
    it, or `<module>`; the call's name)."""
    tree = ast.parse(source)
    names = _imported(tree)
    found: set[Site] = set()

    def visit(node: ast.AST, scope: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = scope
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                inner = f"{scope}.{child.name}" if scope else child.name
            if isinstance(child, ast.Call) and (name := call_name(child.func, names)):
                found.add((scope or "<module>", name))
            visit(child, inner)

    visit(tree, "")
    return found


Key = tuple[str, str, str]  # (module path from the repository root, function, call)

# What a reviewed site touches (the reason it is not a solution path):
# a path the kit owns: its caches and toolchain, its own source files, the reports and run
# directories it writes (and reads back), its own temp dirs and the sandbox's work dirs
KIT = "a path the kit owns (cache, toolchain, reports, its own temp dir)"
# the kit's own scenario, golden and variant files (trusted input; a team's .kit/ is not)
SCENARIO = "the kit's own scenario/golden/variant files (trusted input)"
# a name the kit chose in a run's copy, after the gate, that cannot be a link (the comment
# above each entry says why)
COPY = "the run's copy, through a name the kit chose, after the gate (say why it cannot be a link)"
# a path the operator passed on the command line or in the job's environment
USER_ARG = "a path the user passed on the command line (trusted operator input)"
# the intake's snapshot (kit/intake/snapshot.py: made from the walker's stream, owned by the
# kit) or a copy the kit made of it, after the gate judged its links where one is followed
SNAPSHOT = "the intake's snapshot, or the kit's copy of it (links followed only after the gate)"
# a file of a scenario root: every `kit` command takes a team's `.kit/` root with its
# repository as the intake's snapshot (kit/cli/common.py scenario_roots); an in-process
# caller (the pytest plugin in a team's own test session, a library user) already runs
# that team's code
ROOT_FILE = "a scenario root's file (a team's: the intake's snapshot in every kit command)"
REASONS = frozenset({KIT, SCENARIO, COPY, USER_ARG, SNAPSHOT, ROOT_FILE})

REVIEWED: dict[Key, str] = {
    # What every entry point hands on after its intake (kit/cli/common.py take_solution and
    # scenario_roots, kit/tasks/grade.py, kit/rl/tools.py, kit/testing/plugin.py): the snapshot, the
    # kit's golden, or a copy the kit made of one of them (a variant, a mutant, a shipped
    # archive unpacked).
    ("kit/evaluate/cluster.py", "pack", "tarfile.open"): SNAPSHOT,
    ("kit/deploy/hcl.py", "parse", ".read_text"): SNAPSHOT,  # after intake.refusals
    ("kit/deploy/terraform.py", "Terraform.__init__", "shutil.copytree"): SNAPSHOT,
    ("kit/deploy/terraform.py", "_writes_files", ".read_text"): SNAPSHOT,  # after the gate
    ("kit/mutate/reach.py", "Traced.solution", "shutil.copytree"): SNAPSHOT,
    ("kit/variants.py", "patched_copy", "shutil.copytree"): SNAPSHOT,
    ("kit/deploy/modules.py", "read_manifest", ".read_text"): ROOT_FILE,
    ("kit/deploy/modules.py", "seed", "shutil.copytree"): ROOT_FILE,
    ("kit/mutate/equivalents.py", "load", ".read_text"): ROOT_FILE,
    ("kit/scenario.py", "_read", ".read_text"): ROOT_FILE,
    ("kit/variants.py", "load", ".read_text"): ROOT_FILE,
    # summary.md the kit wrote under --report
    ("kit/ci/comment.py", "body", ".read_text"): KIT,
    # GITHUB_EVENT_PATH, the runner's event payload (the workflow's environment)
    ("kit/ci/github.py", "from_environment", ".read_text"): USER_ARG,
    ("kit/cli/drill.py", "drill_report", ".write_text"): KIT,
    # the kit's own docs/ pages, generated from its code (a developer's command)
    ("kit/cli/reference.py", "write", ".write_text"): KIT,
    # Ray's temp dir
    ("kit/evaluate/cluster.py", "connected", "shutil.rmtree"): KIT,
    # a run dir or a temp target the kit named (extractall with filter='data')
    ("kit/evaluate/cluster.py", "unpack", ".mkdir"): KIT,
    # an archive in memory, extracted with filter='data' into the kit's directory
    ("kit/evaluate/cluster.py", "unpack", "tarfile.open"): KIT,
    # kit modules vendor --from: the operator's terraform init output
    ("kit/deploy/modules.py", "_copy_package", "shutil.copytree"): USER_ARG,
    # kit modules vendor --to: the cache the operator names
    ("kit/deploy/modules.py", "_copy_package", "shutil.rmtree"): USER_ARG,
    # kit modules vendor --to
    ("kit/deploy/modules.py", "vendor", ".mkdir"): USER_ARG,
    # kit modules vendor --to
    ("kit/deploy/modules.py", "vendor", ".write_text"): USER_ARG,
    ("kit/deploy/provider.py", "ProviderServer.__init__", ".mkdir"): KIT,
    ("kit/deploy/provider.py", "ProviderServer._ready", ".read_text"): KIT,
    # workdir/home beside the copy
    ("kit/deploy/terraform.py", "Terraform.__init__", ".mkdir"): KIT,
    # links in the provider's own cwd (the sandbox's), to the copy's entries; the provider
    # follows them confined
    ("kit/deploy/terraform.py", "_link_into_provider_cwd", ".symlink_to"): KIT,
    # stale links in the provider's own cwd
    ("kit/deploy/terraform.py", "_link_into_provider_cwd", ".unlink"): KIT,
    ("kit/deploy/terraform.py", "_outside_the_build", ".read_text"): KIT,
    ("kit/history.py", "History.load", ".read_bytes"): KIT,
    ("kit/history.py", "History.save", ".write_text"): KIT,
    # the kit's own bootstrap.py
    ("kit/lambdas/invoke.py", "<module>", ".read_text"): KIT,
    ("kit/lambdas/invoke.py", "Environment._spawn", ".open"): KIT,
    # by the descriptor of files.directory; the name lstat'ed a real directory;
    # rmtree(dir_fd=) follows no link
    ("kit/lambdas/package.py", "_fresh", "shutil.rmtree"): COPY,
    # in the directory the .mkdir just made (it failed if the name was taken): nothing in it
    ("kit/mutate/reach.py", "load", ".read_text"): KIT,
    ("kit/mutate/reach.py", "measure", ".read_text"): KIT,
    ("kit/mutate/reach.py", "save", ".mkdir"): KIT,
    ("kit/mutate/reach.py", "save", ".write_text"): KIT,
    ("kit/mutate/report.py", "write", ".mkdir"): KIT,
    ("kit/mutate/report.py", "write", ".write_text"): KIT,
    ("kit/mutate/reuse.py", "_from_runs", ".read_text"): KIT,
    ("kit/mutate/reuse.py", "load", ".read_text"): KIT,
    ("kit/rds/backups.py", "Backups.remove", "shutil.rmtree"): KIT,
    ("kit/rds/plane.py", "DataPlane.enable", ".mkdir"): KIT,
    ("kit/rds/plane.py", "DataPlane.reset", "shutil.rmtree"): KIT,
    ("kit/rds/server.py", "PgServer._copy", ".unlink"): KIT,
    ("kit/rds/server.py", "PgServer._copy", "subprocess.run"): KIT,
    ("kit/rds/server.py", "PgServer.configure", ".write_text"): KIT,
    ("kit/rds/server.py", "PgServer.destroy", "shutil.rmtree"): KIT,
    ("kit/rds/server.py", "own", ".mkdir"): KIT,
    ("kit/rds/server.py", "run_tool", "subprocess.Popen"): KIT,
    ("kit/rds/snapshots.py", "Snapshots.clear", "shutil.rmtree"): KIT,
    ("kit/report/document.py", "load", ".read_text"): KIT,
    ("kit/report/document.py", "write", ".mkdir"): KIT,
    ("kit/report/document.py", "write", ".write_text"): KIT,
    ("kit/report/html.py", "write", ".mkdir"): KIT,
    ("kit/report/html.py", "write", ".write_text"): KIT,
    ("kit/report/junit.py", "write", ".mkdir"): KIT,
    ("kit/report/junit.py", "write", ".write_text"): KIT,
    ("kit/report/markdown.py", "write", ".mkdir"): KIT,
    ("kit/report/markdown.py", "write", ".write_text"): KIT,
    # the session's temp dir (rmtree follows no link)
    ("kit/rl/session.py", "KitSession.close", "shutil.rmtree"): KIT,
    ("kit/rl/tools.py", "ci_report", ".read_text"): KIT,
    # the workspace root, in the session's fresh temp dir
    ("kit/rl/workspace.py", "Workspace.__init__", ".mkdir"): KIT,
    ("kit/evaluate/baseline.py", "_exported", ".mkdir"): KIT,
    ("kit/evaluate/baseline.py", "_exported", "shutil.rmtree"): KIT,
    ("kit/run/deploy.py", "_baseline", ".mkdir"): KIT,
    ("kit/run/drill.py", "DrillWorkload._runbook_env", ".mkdir"): KIT,
    ("kit/run/pipeline.py", "_keep_service_logs", ".mkdir"): KIT,
    # the sandbox's runs/ in its own temp dir (kit/run/sandbox.py)
    ("kit/run/sandbox.py", "Sandbox.__enter__", ".mkdir"): KIT,
    ("kit/run/pipeline.py", "_keep_service_logs", ".open"): KIT,
    ("kit/run/pipeline.py", "_keep_service_logs", ".write_bytes"): KIT,
    ("kit/run/pipeline.py", "run_once", ".mkdir"): KIT,
    ("kit/run/pipeline.py", "run_once", ".write_text"): KIT,
    ("kit/run/pipeline.py", "run_once", "shutil.rmtree"): KIT,
    ("kit/run/queue.py", "QueueWorkload._supervisor", ".mkdir"): KIT,
    ("kit/evaluate/runcost.py", "load", ".read_text"): KIT,
    ("kit/evaluate/runcost.py", "save", ".mkdir"): KIT,
    ("kit/evaluate/runcost.py", "save", ".write_text"): KIT,
    ("kit/settings.py", "stand_in_fingerprint", ".read_bytes"): KIT,
    # kit new-scenario: the directory the operator names
    ("kit/skeleton.py", "create", ".mkdir"): USER_ARG,
    # the kit's own template
    ("kit/skeleton.py", "create", ".read_text"): KIT,
    # kit new-scenario: the directory the operator names
    ("kit/skeleton.py", "create", ".write_text"): USER_ARG,
    ("kit/tasks/bundle.py", "write", ".mkdir"): KIT,
    ("kit/tasks/bundle.py", "write", ".write_text"): KIT,
    # a fresh temp dir or the bundle's --out
    ("kit/tasks/bundle.py", "write_files", ".mkdir"): KIT,
    # a fresh temp dir or the bundle's --out
    ("kit/tasks/bundle.py", "write_files", ".write_text"): KIT,
    # the golden with a variant's patch, materialized in a temp dir
    ("kit/tasks/catalog.py", "read_tree", ".read_text"): SCENARIO,
    # the scenario's prompt.md
    ("kit/tasks/catalog.py", "scenario_tasks", ".read_text"): SCENARIO,
    # a kit scenario variant's change.patch
    ("kit/tasks/grade.py", "patched_files", ".read_text"): SCENARIO,
    ("kit/testing/stack.py", "deploy_stack", ".mkdir"): KIT,
    ("kit/toolchain/__init__.py", "_build_into", ".mkdir"): KIT,
    ("kit/toolchain/__init__.py", "_point_at_source", ".read_text"): KIT,
    ("kit/toolchain/__init__.py", "_point_at_source", ".write_text"): KIT,
    ("kit/toolchain/__init__.py", "_run", ".open"): KIT,
    ("kit/toolchain/__init__.py", "_run", ".read_text"): KIT,
    ("kit/toolchain/__init__.py", "_run", "subprocess.run"): KIT,
    ("kit/toolchain/__init__.py", "build_stand_in", "shutil.copytree"): KIT,
    ("kit/toolchain/__init__.py", "build_stand_in", "shutil.rmtree"): KIT,
    ("kit/toolchain/__init__.py", "go_build", ".mkdir"): KIT,
    ("kit/toolchain/__init__.py", "go_build", ".read_text"): KIT,
    ("kit/toolchain/__init__.py", "go_build", ".write_text"): KIT,
    ("kit/toolchain/__init__.py", "go_build", "subprocess.run"): KIT,
    ("kit/toolchain/__init__.py", "install_debian", ".mkdir"): KIT,
    ("kit/toolchain/__init__.py", "install_provider", ".mkdir"): KIT,
    ("kit/toolchain/__init__.py", "install_provider", ".unlink"): KIT,
    ("kit/toolchain/__init__.py", "install_provider", ".write_text"): KIT,
    ("kit/toolchain/__init__.py", "install_provider", "shutil.copyfile"): KIT,
    ("kit/toolchain/__init__.py", "provider_current", ".read_text"): KIT,
    ("kit/toolchain/__init__.py", "write_cli_config", ".mkdir"): KIT,
    ("kit/toolchain/__init__.py", "write_cli_config", ".read_text"): KIT,
    # pip into the kit's staging dir (wheels only; names checked in kit/toolchain/deps.py)
    ("kit/toolchain/deps.py", "_pip_install", "subprocess.run"): KIT,
    ("kit/toolchain/deps.py", "ensure", ".mkdir"): KIT,
    ("kit/toolchain/deps.py", "ensure", ".rename"): KIT,
    ("kit/toolchain/deps.py", "ensure", ".write_text"): KIT,
    ("kit/toolchain/deps.py", "ensure", "shutil.rmtree"): KIT,
    ("kit/toolchain/localstack_install.py", "found", ".read_text"): KIT,
    ("kit/toolchain/localstack_install.py", "install", ".mkdir"): KIT,
    ("kit/toolchain/localstack_install.py", "install", ".write_text"): KIT,
    ("kit/toolchain/localstack_install.py", "install", "shutil.rmtree"): KIT,
    ("kit/toolchain/localstack_install.py", "python", ".read_text"): KIT,
    ("kit/toolchain/lockfile.py", "digest", ".read_bytes"): KIT,
    ("kit/toolchain/lockfile.py", "installed", "subprocess.run"): KIT,
    ("kit/toolchain/lockfile.py", "locked", ".read_text"): KIT,
    ("kit/toolchain/lockfile.py", "pinned", ".read_text"): KIT,
    ("kit/toolchain/provider_patches.py", "patched_source", ".read_text"): KIT,
    ("kit/toolchain/provider_patches.py", "patched_source", ".rename"): KIT,
    ("kit/toolchain/provider_patches.py", "patched_source", ".write_text"): KIT,
    ("kit/toolchain/provider_patches.py", "patched_source", "shutil.copytree"): KIT,
    ("kit/toolchain/provider_patches.py", "patched_source", "shutil.rmtree"): KIT,
    ("kit/toolchain/provider_trim.py", "_imports", ".read_text"): KIT,
    ("kit/toolchain/provider_trim.py", "catalogue", ".read_text"): KIT,
    ("kit/toolchain/provider_trim.py", "trim", ".read_text"): KIT,
    ("kit/toolchain/provider_trim.py", "trim", ".write_text"): KIT,
    ("kit/toolchain/provider_trim.py", "write_catalogue", ".write_text"): KIT,
    ("kit/toolchain/runtime.py", "base_interpreter", "subprocess.run"): KIT,
    ("kit/toolchain/runtime.py", "checked_output", "subprocess.run"): KIT,
    ("kit/toolchain/runtime.py", "install", ".write_text"): KIT,
    ("kit/toolchain/runtime.py", "install", "shutil.rmtree"): KIT,
    ("kit/toolchain/runtime.py", "manifest", ".read_text"): KIT,
    # the target the kit named; rmtree removes a link, never follows it
    ("kit/variants.py", "patched_copy", "shutil.rmtree"): COPY,
    # the patch's text, in the kit's own temp dir (git in its sandbox reads it there)
    ("kit/variants.py", "patched_copy", ".write_text"): KIT,
    ("kit/workload/runbook.py", "RunbookRunner._tail", ".read_text"): KIT,
    ("kit/workload/supervisor.py", "Supervisor._tail", ".read_text"): KIT,
    # the run dir's worker log (the worker gets the descriptor)
    ("kit/workload/supervisor.py", "spawn", ".open"): KIT,
}


def modules() -> dict[str, str]:
    """Module path -> source, of every module under kit/ outside ALLOWED."""
    found = {}
    for path in sorted((ROOT / "kit").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if not rel.startswith(ALLOWED):
            found[rel] = path.read_text()
    return found


def found_sites(sources: Mapping[str, str]) -> set[Key]:
    return {(module, *site) for module, source in sources.items() for site in sites(source)}


def compare(found: set[Key], listed: Collection[Key]) -> tuple[list[Key], list[Key]]:
    """(sites found that no table lists, listed sites no longer found)."""
    return sorted(found - set(listed)), sorted(set(listed) - found)


def _show(keys: list[Key]) -> str:
    return "\n".join(f"  {k!r}," for k in keys)


def test_every_call_on_a_path_is_reviewed() -> None:
    unlisted, stale = compare(found_sites(modules()), REVIEWED)
    assert not unlisted, (
        "calls that open, copy, move, remove or run, in no table of "
        f"{Path(__file__).name}: read each; one on a path a solution controls belongs in "
        "kit/intake or the sandbox, else list it in REVIEWED with its "
        "reason:\n" + _show(unlisted))
    assert not stale, "listed calls no longer found (remove them):\n" + _show(stale)


def test_the_table_uses_the_defined_reasons() -> None:
    assert {r for r in REVIEWED.values() if r not in REASONS} == set()
    assert not [k for k in REVIEWED if k[0].startswith(ALLOWED)]


SOURCE = """
import os
import shutil as sh
from pathlib import Path
from subprocess import run as execute


def top(p):
    return open(p).read()


class Copy:
    def make(self, src, dst):
        sh.copytree(src, dst)
        (dst / "x").write_text("y")

        def inner():
            execute(["git", "status"], cwd=dst)
            os.execv("/bin/sh", ["sh"])
            os.unlink(dst / "z")

        return inner


Path("a").read_bytes()
sh.which("git")
os.path.exists("a")
"""


def test_the_walker_names_each_call_by_its_function() -> None:
    assert sites(SOURCE) == {
        ("top", "open"),
        ("Copy.make", "shutil.copytree"),
        ("Copy.make", ".write_text"),
        ("Copy.make.inner", "subprocess.run"),
        ("Copy.make.inner", "os.execv"),
        ("Copy.make.inner", "os.unlink"),
        ("<module>", ".read_bytes"),
    }


def test_an_unlisted_call_is_reported_and_a_gone_one_is_stale() -> None:
    found = found_sites({"kit/new.py": SOURCE})
    listed = [k for k in found if k != ("kit/new.py", "Copy.make", ".write_text")]
    listed.append(("kit/new.py", "gone", "shutil.rmtree"))
    assert compare(found, listed) == ([("kit/new.py", "Copy.make", ".write_text")],
                                      [("kit/new.py", "gone", "shutil.rmtree")])
    assert compare(found, found) == ([], [])
