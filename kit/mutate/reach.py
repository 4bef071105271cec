"""Which faults reach which lines of worker code: the solution run once under each of the
scenario's faults with a line tracer in its workers, so that a worker-code mutant is
judged under a fault that executes the code it changed (a handler that only a database
outage enters is never judged under duplicate delivery alone).

The tracer is a `sitecustomize` module on the workers' PYTHONPATH, in their copy of the
solution: it writes each line of the solution's own files the first time one of its
threads runs it, to the worker's log (stderr, unbuffered), so a worker a fault kills has
already reported what it ran. Written here rather than with coverage.py: the worker
runtime does not carry it, and coverage.py loses the data of a process killed by SIGKILL.
"""

from __future__ import annotations

import json
import random
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from kit.evaluate.matrix import Matrix, Row, _Sandboxes, execute
from kit.intake import files
from kit.mutate.mutant import Mutant
from kit.run.bind import WORKSPACE
from kit.scenario import EnvLiteral, Scenario

FILE = "reach.json"
DIR = ".kit-reach"  # in the traced copy of the solution
MARK = "KIT-REACH "
TRACER = f'''"""The kit's line tracer (kit/mutate/reach.py): each line of the workspace's own
files, the first time it runs, to stderr."""
import os
import sys
import threading

_ROOT = {WORKSPACE!r} + "/"
_SEEN = set()
_MINE = {{}}  # a code object's file name -> whether it is the workspace's own


def _line(frame, event, arg):
    if event == "line":
        key = (frame.f_code.co_filename, frame.f_lineno)
        if key not in _SEEN:
            _SEEN.add(key)
            sys.stderr.write({MARK!r} + os.path.abspath(key[0]) + ":" + str(key[1]) + "\\n")
            sys.stderr.flush()
    return _line


def _call(frame, event, arg):
    name = frame.f_code.co_filename
    mine = _MINE.get(name)
    if mine is None:  # "<frozen ...>", "<string>": no file of the workspace
        path = os.path.abspath(name)
        mine = _MINE[name] = (not name.startswith("<") and path.startswith(_ROOT)
                              and "/{DIR}/" not in path)
    return _line if mine else None


sys.settrace(_call)
threading.settrace(_call)
'''
_LINE = re.compile(rf"^{MARK}{re.escape(WORKSPACE)}/(.+):(\d+)$", re.M)
_HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@")

Reach = dict[str, set[str]]  # fault -> "file:line" of the solution's code it ran


@dataclass(frozen=True)
class Traced:
    """The solution with the tracer beside it (a subject of kit/evaluate/matrix.py)."""

    base: Path

    def solution(self, scenario: Scenario, target: Path) -> Path:
        """A copy of the solution with the tracer in DIR."""
        shutil.copytree(self.base, target, symlinks=True)
        # Through no link: the solution may hold DIR itself (its fault, named, not ours).
        files.create(target, f"{DIR}/sitecustomize.py", TRACER, why="the kit's line tracer")
        return target


def traced(scenario: Scenario) -> Scenario | None:
    """The scenario with the tracer on its workers' PYTHONPATH; None when its consumers are
    no worker processes (a Lambda consumer, a drill's runbook). A team's workers with
    declared dependencies keep their sandbox's PYTHONPATH (kit/run/bind.py) and run untraced:
    nothing reaches their code, so their mutants are drawn among every fault."""
    workers = scenario.workers
    if workers is None or workers.kind != "process" or "PYTHONPATH" in workers.env:
        return None
    env = {**workers.env, "PYTHONPATH": EnvLiteral(value=f"{WORKSPACE}/{DIR}")}
    return scenario.model_copy(update={"workers": workers.model_copy(update={"env": env})})


def measure(scenario: Scenario, solution: Path, out: Path, *, seed: int, jobs: int,
            emulator: str = "moto") -> Reach | None:
    """The lines each fault's run of `solution` executed (saved in out/FILE); None when
    the scenario's consumers cannot be traced."""
    tracing = traced(scenario)
    if tracing is None:
        return None
    rows = [Row("reach", fault, ()) for fault in sorted(scenario.faults)]
    matrix = Matrix(tracing, {"reach": Traced(solution)}, out / "reach",
                    _Sandboxes(emulator, None), lambda row, run: None)
    execute(matrix, [(row, seed) for row in rows], jobs)
    found: Reach = {}
    for row in rows:
        found[row.fault] = {f"{path}:{line}" for run in row.runs
                            for log in Path(run.run_dir).glob("worker-*.log")
                            for path, line in _LINE.findall(log.read_text(errors="replace"))}
    save(found, out)
    return found


def save(found: Reach, out: Path) -> None:
    """Keep a reach in out/FILE (what `--reuse` of that directory loads)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / FILE).write_text(json.dumps({f: sorted(lines) for f, lines in found.items()},
                                       indent=1) + "\n")


def load(path: Path) -> Reach | None:
    """An earlier measure's reach.json in `path` (a kit mutate output directory), if any."""
    try:
        data = json.loads((path / FILE).read_text())
    except (OSError, ValueError):
        return None
    return {fault: set(lines) for fault, lines in data.items()}


def changed_lines(mutant: Mutant) -> set[str]:
    """'file:line' of each line of the original file the mutant's patch removes."""
    lines: set[str] = set()
    number = 0
    for text in mutant.patch.splitlines():
        hunk = _HUNK.match(text)
        if hunk:
            number = int(hunk.group(1))
        elif text.startswith("-") and not text.startswith("---"):
            lines.add(f"{mutant.file}:{number}")
            number += 1
        elif text.startswith(" "):
            number += 1
    return lines


def reaching(scenario: Scenario, mutant: Mutant, reach: Reach) -> list[str]:
    """The scenario's faults whose run executed a line the mutant changes."""
    lines = changed_lines(mutant)
    return [f for f in sorted(scenario.faults) if lines & reach.get(f, set())]


def drawn(scenario: Scenario, mutant: Mutant, seed: int, reach: Reach | None) -> str:
    """The fault a mutant runs under by default, drawn from the seed and its id (stable):
    among the faults that reach the code it changes when that is known (worker code),
    else among every fault."""
    pool = reaching(scenario, mutant, reach) if reach and mutant.file.endswith(".py") else []
    return random.Random(f"{seed}:{mutant.id}").choice(pool or sorted(scenario.faults))
