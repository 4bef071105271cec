"""kit/mutate/reach.py: the lines a mutant changes, the faults that reach them, the fault
drawn among those, and the tracer that reports the lines a worker runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from kit import scenario
from kit.mutate import reach
from kit.mutate.mutant import Edit, make
from kit.run.bind import WORKSPACE

WORKER = """import time


def handle(conn):
    try:
        conn.commit()
    except OSError:
        time.sleep(1)
        return False
    return True
"""


def _handler_mutant():
    # The handler's body (lines 8-9) becomes `raise`, as kit/mutate/python.py makes it.
    return make("consumer.py", WORKER, Edit("py.handler-raise", 7, "re-raises", 7, 9,
                                            ("        raise\n",)))


def test_the_changed_lines_are_those_the_patch_removes() -> None:
    assert reach.changed_lines(_handler_mutant()) == {"consumer.py:8", "consumer.py:9"}


def test_the_fault_is_drawn_among_those_that_ran_the_changed_code() -> None:
    sc = scenario.load("order-pipeline")
    mutant = _handler_mutant()
    ran = {fault: {"consumer.py:6", "consumer.py:10"} for fault in sc.faults}
    ran["db_outage"] |= {"consumer.py:8"}
    assert reach.reaching(sc, mutant, ran) == ["db_outage"]
    assert {reach.drawn(sc, mutant, seed, ran) for seed in range(20)} == {"db_outage"}
    # Code no fault ran: any fault, as without a reach.
    unreached = {fault: set() for fault in sc.faults}
    assert len({reach.drawn(sc, mutant, seed, unreached) for seed in range(30)}) > 1


def test_terraform_mutants_are_drawn_among_every_fault() -> None:
    sc = scenario.load("order-pipeline")
    tf = make("sqs.tf", 'resource "x" "y" {\n  a = 1\n}\n',
              Edit("setting.drop", 2, "drop a", 1, 2, ()))
    ran = {fault: {"sqs.tf:2"} if fault == "none" else set() for fault in sc.faults}
    assert len({reach.drawn(sc, tf, seed, ran) for seed in range(30)}) > 1


def test_the_traced_scenario_puts_the_tracer_first_on_the_workers_path() -> None:
    traced = reach.traced(scenario.load("order-pipeline"))
    assert traced is not None and traced.workers is not None
    assert traced.workers.env["PYTHONPATH"].value == f"{WORKSPACE}/{reach.DIR}"


def test_the_tracer_reports_each_line_of_the_workspace_once(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / reach.DIR).mkdir(parents=True)
    (root / reach.DIR / "sitecustomize.py").write_text(
        reach.TRACER.replace(repr(WORKSPACE), repr(str(root))))
    (root / "consumer.py").write_text(WORKER + "\nfor _ in range(3):\n    handle(None)\n")
    done = subprocess.run([sys.executable, "-c", "import consumer"], cwd=root,
                          env={"PYTHONPATH": str(root / reach.DIR)}, capture_output=True,
                          text=True, check=False)
    marks = [line for line in done.stderr.splitlines() if line.startswith(reach.MARK)]
    # `conn.commit()` on None raises AttributeError, which the OSError handler does not
    # catch: the handler's lines never ran.
    assert f"{reach.MARK}{root}/consumer.py:6" in marks
    assert not [m for m in marks if m.endswith((":8", ":9"))]
    assert len(marks) == len(set(marks))
