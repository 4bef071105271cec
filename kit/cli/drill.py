"""`kit drill`: one recovery drill, watched live."""

from __future__ import annotations

import argparse
import contextlib
import time
from pathlib import Path
from typing import TYPE_CHECKING

from kit.cli.common import (
    console,
    emulator_flags,
    emulator_of,
    faults_of,
    require_confinement,
    solution_path,
    take_solution,
)
from kit.cli.eval import report_runs
from kit.errors import InputError
from kit.report.escape import terminal as t

if TYPE_CHECKING:
    from kit.run.result import RunResult



def cmd_drill(args: argparse.Namespace) -> int:
    """Run a drill by hand: one fault (or each in turn), watched live, then its timeline."""
    from kit import scenario
    from kit.recorder import Recorder
    from kit.report.live import LiveView
    from kit.run.pipeline import run_once
    from kit.run.sandbox import Sandbox

    sc = scenario.load(args.scenario)
    if sc.workload.kind != "drill":
        raise InputError(f"{sc.name} is a {sc.workload.kind} scenario, not a drill "
                         "(workload.kind: drill): run it with `kit eval`")
    require_confinement(args)
    emulator, url = emulator_of(args)
    solution = solution_path(args.solution, sc.golden, sc.terraform.dir)
    faults = faults_of(args.fault, sc) if args.fault else [f for f in sc.faults if f != "none"]
    out = Path(args.out) / sc.name / ("drill-" + time.strftime("%Y%m%d-%H%M%S"))
    command = (f"kit drill {sc.name} --solution {solution} --seed {args.seed}"
               + (f" --fault {args.fault}" if args.fault else "") + emulator_flags(args))
    results = []
    with contextlib.ExitStack() as stack:
        taken = take_solution(stack, solution, sc)
        console.print(f"reproduce: {t(command)}")
        sandbox = stack.enter_context(Sandbox(provider=True, emulator=emulator,
                                              emulator_url=url))
        for fault in faults:
            recorder = Recorder()
            view = LiveView(recorder, console, f"{sc.name}: {fault} (seed {args.seed})")
            view.start()
            try:
                run = run_once(sc, taken, fault, args.seed, out / f"{fault}-seed{args.seed}",
                               sandbox, recorder)
            finally:
                view.stop()
            run.solution = str(solution)
            results.append(run)
            drill_report(run)
    return report_runs(sc, solution, results, command, out, [])


def drill_report(run: RunResult) -> None:
    """A drill's measured RPO and RTO and its whole timeline (also as timeline.md)."""
    from kit.history import History
    from kit.report.timeline import Timeline

    console.print(f"[bold]{t(run.fault)}[/] (seed {run.seed}): {run.outcome}"
                  + (t(f": {run.error}") if run.error else ""))
    for check_id in ("recovery.rpo", "recovery.rto", "recovery.consistent"):
        if check_id in run.results:
            result = run.results[check_id]
            console.print(t(f"  {check_id}: {result.verdict}: {result.summary}"),
                          highlight=False)
    path = Path(run.run_dir or ".") / "history.json"
    if not path.exists():
        return
    lines = [event.line() for event in Timeline.of(History.load(path).ops).events]
    (path.parent / "timeline.md").write_text(
        f"# Timeline: {run.scenario}, {run.fault}, seed {run.seed}\n\n```\n"
        + "\n".join(lines) + "\n```\n")
    console.print("  timeline:")
    for line in lines:
        console.print(f"    {t(line)}", highlight=False, soft_wrap=True)
