"""The kit's layering: a module imports only modules of its own layer or of those below.

LAYERS lists the layers bottom first, each a set of module prefixes: an entry names a
module or package and covers everything under it, unless a longer entry names the part (so
a module added inside a package needs no edit here). A package's own module (its
__init__.py) is `<package>.__init__`, so it can sit in another layer than its children.

The import graph is read with `ast` from every file under kit/: every `import` and
`from ... import`, wherever it stands (module level, inside functions, under
TYPE_CHECKING), relative ones resolved. An import of a module from a higher layer is an
upward import; at most three are allowed, each in UPWARD with its reason.

A package's own module may sit above its children, so an import cycle between two
packages could still form at load time (a package module that imports a higher package,
which imports the first package's pieces): the imports that run when a module loads must
not form a cycle spanning two top-level packages.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

KIT = Path(__file__).resolve().parents[2] / "kit"

LAYERS: list[tuple[str, set[str]]] = [
    # Imports nothing of the kit but each other: the error tree, settings, Ctrl-C deferral,
    # the history and the recorder that writes it, boto3 clients and their credentials, the
    # binding vocabulary. Every layer records ops, raises KitErrors, calls AWS.
    ("base", {"kit.__init__", "kit.errors", "kit.settings", "kit.interrupt", "kit.history",
              "kit.recorder", "kit.aws", "kit.bindings"}),
    # Where the offline binaries and the worker runtime are, and how `kit setup` makes
    # them: what the services run (sandbox, rds), what deploy runs and workers run on.
    ("toolchain", {"kit.toolchain"}),
    # Pure functions: the IAM policy evaluator, the checkers over a history, the reward
    # over verdicts; and the behaviour probes, which only ask AWS clients. No process, no
    # service: read by the gateway, the pipeline and the reports alike.
    ("logic", {"kit.iam", "kit.checks", "kit.reward", "kit.probes"}),
    # The pieces every local service is built from: processes, confinement, ports, the
    # emulators, Toxiproxy, PostgreSQL, fidelity fixes.
    ("services", {"kit.sandbox"}),
    # Built on those pieces: the RDS front and its data plane (real PostgreSQL servers
    # behind Toxiproxy), Terraform with its long-lived provider process, and the trust
    # boundary (kit/intake/: the snapshot its confined walker makes, the no-follow file
    # and git primitives every layer that touches a solution's tree uses).
    ("planes", {"kit.rds", "kit.deploy", "kit.intake"}),
    # What runs on the deployed infrastructure: producer, supervised workers, observers,
    # the drill's app and runbook; the Lambda service that runs a function's handler.
    ("workload", {"kit.workload", "kit.lambdas"}),
    # The kit's AWS front door: authenticates and authorizes each worker call (IAM logic)
    # and records it; reads resource policies the way the workload's observer does.
    ("gateway", {"kit.gateway"}),
    # The nemesis: acts on services, the gateway and the workload.
    ("faults", {"kit.faults"}),
    # scenario.yaml's schema and loader (it checks fault kinds, checkers and workload
    # modules exist, so it sits above them), and the skeleton a new scenario starts from.
    ("scenario", {"kit.scenario", "kit.skeleton"}),
    # Variants (one-defect solutions) materialized from the golden.
    ("solution", {"kit.variants"}),
    # One run, a stage per module (kit/run/): the sandbox that starts every service of a
    # run together (the RDS front and the provider among them), deploy, bind, the Lambda
    # wiring, workload or drill, fault, observe, check.
    ("pipeline", {"kit.run"}),
    # The pytest plugin: a run's stages as fixtures for a team's own tests.
    ("testing", {"kit.testing"}),
    # Many runs (kit/evaluate/): their runner and its Ray executor, what a run costs (--jobs
    # auto), the kill matrix, the cross-check of two emulators, a PR's base against its head.
    ("evaluations", {"kit.evaluate"}),
    # What people and CI read of runs and matrices.
    ("report", {"kit.report"}),
    # A pull-request check's pieces beyond a run: the sticky PR comment, the static check.
    ("ci", {"kit.ci"}),
    # Mutation analysis of the grader: mutants of a solution judged statically (ci) and by
    # runs (the kill matrix's executor).
    ("mutation", {"kit.mutate"}),
    # Tasks for agents made from the scenarios, graded through the pipeline and reports.
    ("tasks", {"kit.tasks"}),
    # The RL environment over the tasks (OpenEnv's interface and server: the rl extra).
    ("rl", {"kit.rl"}),
    # The command line (kit/cli/, a module per command): everything above is its library.
    ("commands", {"kit.cli"}),
]

# (importer, imported) -> why the import runs upward. At most three.
UPWARD: dict[tuple[str, str], str] = {
    ("kit.toolchain.deps", "kit.intake.files"):
        "a team's workers' requirements are a solution's file: read without following a "
        "link, by the intake's reader (the intake's snapshot needs the sandbox, above the "
        "toolchain)",
}


@dataclass(frozen=True)
class Import:
    """One import statement's target, as a kit module name."""

    importer: str
    imported: str
    path: Path
    line: int
    at_load: bool  # runs when the importer loads (not in a function, not TYPE_CHECKING)


def module_names(root: Path) -> dict[str, Path]:
    """Every module under `root` (a package directory named like its import name), by
    dotted name; a package's own module is `<package>.__init__`."""
    names = {}
    for path in sorted(root.rglob("*.py")):
        parts = (root.name, *path.relative_to(root).with_suffix("").parts)
        names[".".join(parts)] = path
    return names


def _target(modules: dict[str, Path], name: str) -> str:
    """The module an import name means: the module itself, or a package's own module."""
    return name if name in modules else f"{name}.__init__"


def _run_at_load(body: list[ast.stmt]) -> set[ast.stmt]:
    """The statements of `body` Python runs when the module loads: not inside functions,
    not under `if TYPE_CHECKING:`."""
    out: set[ast.stmt] = set()
    for node in body:
        out.add(node)
        if isinstance(node, ast.If):
            typing_only = isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
            out |= _run_at_load(node.orelse if typing_only else node.body + node.orelse)
        elif isinstance(node, ast.Try):
            out |= _run_at_load(node.body + node.orelse + node.finalbody
                                + [s for h in node.handlers for s in h.body])
        elif isinstance(node, ast.ClassDef | ast.With):
            out |= _run_at_load(node.body)
    return out


def _imports(modules: dict[str, Path], importer: str, path: Path) -> list[Import]:
    """Every kit import in one file, with its line."""
    package = importer.rsplit(".", 1)[0]
    top = next(iter(modules)).split(".")[0]
    tree = ast.parse(path.read_text(), str(path))
    at_load = _run_at_load(tree.body)
    out = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [_target(modules, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                sub = full if full in modules or f"{full}.__init__" in modules else base
                targets.append(_target(modules, sub))
        out += [Import(importer, t, path, node.lineno, node in at_load)
                for t in dict.fromkeys(targets) if t.split(".")[0] == top]
    return out


@cache  # parsed once per root for all the tests
def import_graph(root: Path) -> list[Import]:
    """Every import of one of the package's modules by another, over the whole package."""
    modules = module_names(root)
    return [i for name, path in modules.items() for i in _imports(modules, name, path)
            if i.imported != i.importer]


def layer_of(module: str, layers: list[tuple[str, set[str]]]) -> int | None:
    """The index of the layer whose longest entry covers `module` (None: no entry does)."""
    best: tuple[int, int] | None = None
    for index, (_, entries) in enumerate(layers):
        for entry in entries:
            covers = module == entry or module.startswith(entry + ".")
            if covers and (best is None or len(entry) > best[0]):
                best = (len(entry), index)
    return None if best is None else best[1]


def upward(graph: list[Import], layers: list[tuple[str, set[str]]]) -> list[Import]:
    """The imports of a module from a higher layer than their importer's."""
    def rank(module: str) -> int:
        index = layer_of(module, layers)
        return -1 if index is None else index  # unplaced: its own test names it

    return [i for i in graph if rank(i.imported) > rank(i.importer) >= 0]


def describe(i: Import, root: Path, layers: list[tuple[str, set[str]]]) -> str:
    """`file:line: importer (layer) imports imported (layer)`."""
    low, high = layer_of(i.importer, layers), layer_of(i.imported, layers)
    assert low is not None and high is not None
    return (f"{i.path.relative_to(root.parent)}:{i.line}: {i.importer} ({layers[low][0]}) "
            f"imports {i.imported} ({layers[high][0]})")


def test_every_kit_module_has_a_layer() -> None:
    unplaced = [m for m in module_names(KIT) if layer_of(m, LAYERS) is None]
    assert not unplaced, f"add these modules to a layer of LAYERS: {unplaced}"


def test_every_layer_entry_names_a_module() -> None:
    modules = module_names(KIT)
    stale = [e for _, entries in LAYERS for e in entries
             if not any(m == e or m.startswith(e + ".") for m in modules)]
    assert not stale, f"LAYERS names modules that are gone; remove them: {stale}"


def test_every_folder_is_in_one_layer() -> None:
    # The layering lives in the folders (issue 46): an entry names a top-level module or
    # package of kit/ (or kit's own __init__), never a part of a package placed elsewhere.
    assert [e for _, entries in LAYERS for e in entries if e.count(".") > 1] == []


def test_no_import_runs_up_the_layers_beyond_the_allowed() -> None:
    assert len(UPWARD) <= 3, "at most three upward imports may remain"
    found = upward(import_graph(KIT), LAYERS)
    extra = [describe(i, KIT, LAYERS) for i in found if (i.importer, i.imported) not in UPWARD]
    assert not extra, ("imports against the layering of tests/unit/test_layers.py (move the "
                       "code down, or make the import go the other way):\n" + "\n".join(extra))
    gone = set(UPWARD) - {(i.importer, i.imported) for i in found}
    assert not gone, f"UPWARD allows imports that are gone: {sorted(gone)}"


def load_cycles(root: Path) -> list[list[str]]:
    """The import cycles that run when modules load and span two top-level packages (a
    package's own module runs before any of its modules, so that is an edge too): which
    module of such a cycle is imported first decides whether a name is there yet."""
    graph: dict[str, set[str]] = {name: set() for name in module_names(root)}
    for i in import_graph(root):
        if i.at_load:
            graph[i.importer].add(i.imported)
    for name in graph:
        parts = name.removesuffix(".__init__").split(".")
        graph[name] |= {f"{'.'.join(parts[:k])}.__init__" for k in range(1, len(parts))} - {name}
    return [c for c in _components(graph) if len({".".join(m.split(".")[:2]) for m in c}) > 1]


def _components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph[node] & graph.keys():
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = stack[stack.index(node):]
            del stack[stack.index(node):]
            if len(component) > 1:
                out.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return out


def test_no_import_cycle_between_packages_runs_at_load() -> None:
    cycles = load_cycles(KIT)
    assert not cycles, ("modules of different packages import each other when they load "
                        "(import one of them inside the function that needs it):\n"
                        + "\n".join(", ".join(c) for c in cycles))


# The checker itself, on a planted package: each kind of import it must see.
PLANTED = {
    "__init__.py": "",
    "low.py": "VALUE = 1\n",
    "high/__init__.py": "from pkg import low\n",
    "high/mod.py": "from ..low import VALUE\n",
    "at_top.py": "from pkg.high import mod\n",
    "in_function.py": "def f():\n    from pkg import high\n    return high\n",
    "typing_only.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                       "    import pkg.high.mod\n"),
    "relative.py": "from .high import mod\n",
}
PLANTED_LAYERS = [("low", {"pkg.__init__", "pkg.low", "pkg.at_top", "pkg.in_function",
                           "pkg.typing_only", "pkg.relative"}),
                  ("high", {"pkg.high"})]


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    root = tmp_path / "pkg"
    for name, text in PLANTED.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_upward_imports_are_found_wherever_they_stand(planted: Path) -> None:
    found = sorted((i.importer, i.imported, i.line)
                   for i in upward(import_graph(planted), PLANTED_LAYERS))
    assert found == [("pkg.at_top", "pkg.high.mod", 1), ("pkg.in_function", "pkg.high.__init__", 2),
                     ("pkg.relative", "pkg.high.mod", 1), ("pkg.typing_only", "pkg.high.mod", 3)]


def test_a_longer_entry_places_a_part_of_a_package_elsewhere() -> None:
    layers = [("low", {"pkg"}), ("high", {"pkg.part"})]
    assert layer_of("pkg.part.mod", layers) != layer_of("pkg.other", layers)
    assert layer_of("pkg.new_module", layers) == layer_of("pkg.other", layers)


def test_a_cycle_between_packages_at_load_is_found(tmp_path: Path) -> None:
    for name, text in {"__init__.py": "", "a/__init__.py": "from pkg.b.y import Y\n",
                       "a/x.py": "X = 1\n", "b/__init__.py": "",
                       "b/y.py": "from pkg.a.x import X\nY = X\n",
                       "c/__init__.py": "", "c/z.py": "def f():\n    from pkg.a import x\n"
                       }.items():
        (tmp_path / "pkg" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "pkg" / name).write_text(text)
    assert load_cycles(tmp_path / "pkg") == [["pkg.a.__init__", "pkg.a.x", "pkg.b.y"]]
