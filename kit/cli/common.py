"""What every command shares: the console and exit codes, a solution's intake, the
scenario roots, the emulator and confinement options."""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from kit.aws import ACCOUNT_ID
from kit.errors import InputError
from kit.sandbox.emulator import NAMES

if TYPE_CHECKING:
    from kit.scenario import Scenario


console = Console(stderr=True, soft_wrap=True)  # CI logs: never wrap a message


EXIT_OK, EXIT_FAIL, EXIT_ERROR, EXIT_USAGE = 0, 1, 3, 2


def team_preflight(sc: Scenario, solution: Path) -> None:
    """Team mode, before any run: the registry modules are in the scenario's cache,
    workers.cwd names a directory of the solution, and the workers' declared dependencies
    are installed (once; InputError if the index cannot)."""
    if sc.trust != "team":
        return
    from kit.deploy import modules
    from kit.run.bind import worker_deps

    modules.preflight(sc.module_cache, solution, Path(sc.terraform.dir))
    sc.workers_dir(solution)
    worker_deps(sc, solution)


def take_solution(stack: contextlib.ExitStack, solution: Path, sc: Scenario) -> Path:
    """The intake's snapshot of `solution` (kit/intake/snapshot.py) for as long as `stack`
    lives, team mode's preflight done on it: nothing reads the original after this."""
    from kit.intake import snapshot

    taken = stack.enter_context(snapshot.taken(solution))
    team_preflight(sc, taken)
    return taken


def solution_path(given: str | None, golden: Path, module: str = ".") -> Path:
    """The solution directory to grade (default: the golden one); InputError if unusable.
    `module`: where its Terraform is inside it (the scenario's terraform.dir)."""
    solution = Path(given) if given else golden
    if not solution.is_dir() or not any((solution / module).glob("*.tf")):
        where = "at its root" if module == "." else f"in {module}/ (terraform.dir)"
        raise InputError(f"solution directory {solution} does not exist or holds no *.tf "
                         f"file {where}; pass --solution DIR (a directory with the Terraform "
                         f"{where})")
    return solution


def faults_of(fault: str, sc: Scenario) -> list[str]:
    """[fault], checked against the scenario's faults."""
    if fault not in sc.faults:
        raise InputError(f"unknown fault {fault!r} for {sc.name}; known: "
                         f"{', '.join(sc.faults)}")
    return [fault]


def emulator_of(args: argparse.Namespace) -> tuple[str, str | None]:
    """The primary emulator and the URL of a running LocalStack (or None), checked before
    anything starts: the emulator its fixes expect, and a LocalStack the kit must start
    has to be installed."""
    from kit.toolchain import emulators, localstack_install

    emulators.require()

    url = args.emulator_url
    emulator = args.emulator or ("localstack" if url else "moto")
    if url and emulator != "localstack":
        raise InputError("--emulator-url is the address of a running LocalStack: use it "
                         "with --emulator localstack (or alone)")
    cross = getattr(args, "cross_check", False)
    if (emulator == "localstack" or cross) and not url \
            and localstack_install.python() is None:
        flag = "--cross-check" if cross else "--emulator localstack"
        raise InputError(f"{flag}: LocalStack is not installed; run "
                         f"`{localstack_install.FIX}`, or point at a running one with "
                         "--emulator-url URL")
    if url and (getattr(args, "jobs", 1) or 1) > 1:
        raise InputError("--emulator-url with --jobs above 1: parallel runs would empty "
                         "each other's account on the one LocalStack; use --jobs 1")
    return emulator, url


def emulator_flags(args: argparse.Namespace) -> str:
    """The emulator flags of a command, to reproduce it."""
    return ((f" --emulator {args.emulator}" if args.emulator else "")
            + (f" --emulator-url {args.emulator_url}" if args.emulator_url else "")
            + (" --cross-check" if getattr(args, "cross_check", False) else ""))


def require_confinement(args: argparse.Namespace) -> None:
    """Refuse to grade (exit 2) when asked for full confinement this machine cannot give;
    otherwise warn that the runs will be marked."""
    from kit.sandbox.support import missing

    lacking = missing()
    if lacking and args.require_confinement:
        raise InputError("--require-confinement: this machine cannot confine the solution's "
                         "processes on every axis, so nothing was graded. Missing:\n  - "
                         + "\n  - ".join(lacking))
    for line in lacking:
        console.print(f"[yellow]not confined[/] (runs are marked): {line}")


def reruns(value: str) -> int:
    """A --confirm value: how many reruns, 0 or more."""
    try:
        n = int(value)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"--confirm {value!r}: a number of reruns, 0 or "
                                         "more (0: report new failures without rerunning)")
    return n


def roots_options() -> argparse.ArgumentParser:
    """The options of every command that looks scenarios up."""
    roots = argparse.ArgumentParser(add_help=False)
    roots.add_argument("--scenarios", action="append", metavar="DIR", default=[],
                       help="also look for scenarios in DIR (holding scenarios/, golden/, "
                       "variants/); repeatable; also KIT_SCENARIOS")
    return roots


def emulator_options() -> argparse.ArgumentParser:
    """The options of every command that starts sandboxes: which emulator."""
    emulators = argparse.ArgumentParser(add_help=False)
    emulators.add_argument("--emulator", choices=NAMES, default=None,
                           help="the AWS emulator (default: moto); with localstack, moto "
                           "serves what LocalStack lacks (RDS)")
    emulators.add_argument("--emulator-url", metavar="URL",
                           help="use the LocalStack running at URL (e.g. the one your "
                           "tflocal workflow uses) instead of starting one; the kit empties "
                           f"its account {ACCOUNT_ID} before, between and after runs")
    return emulators


def executor_options() -> argparse.ArgumentParser:
    """The options of every command that runs many runs: where they execute
    (kit/evaluate/matrix.py)."""
    executors = argparse.ArgumentParser(add_help=False)
    executors.add_argument("--executor", choices=("local", "ray"), default="local",
                           help="where the runs execute: threads here, or Ray actors "
                           "(kit[ray])")
    executors.add_argument("--address", help="with --executor ray: an existing Ray cluster "
                           "(default: a local one of --jobs CPUs, started for the command)")
    return executors


def graded_options() -> argparse.ArgumentParser:
    """What eval and drill share: one solution, its faults in turn (or one), one seed."""
    graded = argparse.ArgumentParser(add_help=False)
    graded.add_argument("scenario")
    graded.add_argument("--solution", help="solution directory (default: the golden one)")
    graded.add_argument("--fault", help="run only this fault (default: each fault in turn)")
    graded.add_argument("--seed", type=int, default=1)
    graded.add_argument("--out", default="runs", help="where histories and reports go")
    graded.add_argument("--require-confinement", action="store_true",
                        help="refuse (exit 2) unless every axis of confinement is available")
    return graded


@contextlib.contextmanager
def scenario_roots(dirs: list[str]) -> Iterator[None]:
    """The --scenarios roots first in the scenario search path while a command runs, then
    KIT_SCENARIOS's: each as the intake's snapshot of it."""
    from kit import scenario

    for directory in dirs:
        if not (Path(directory) / "scenarios").is_dir():
            raise InputError(f"--scenarios {directory}: no scenarios/ folder in it (a root "
                             "holds scenarios/<name>/scenario.yaml, golden/ and variants/)")
    # They reach the command's subprocesses (and Ray's nodes) through the environment; an
    # in-process caller gets its own back (a later `kit serve` saw a team's scenarios).
    given = os.environ.get(scenario.ENV_ROOTS)
    with contextlib.ExitStack() as stack:
        found = [*dirs, *(given.split(os.pathsep) if given else [])]
        paths = [str(root_taken(stack, Path(d))) for d in found if Path(d).is_dir()]
        os.environ[scenario.ENV_ROOTS] = os.pathsep.join(paths)
        try:
            yield
        finally:
            if given is None:
                os.environ.pop(scenario.ENV_ROOTS, None)
            else:
                os.environ[scenario.ENV_ROOTS] = given


def root_taken(stack: contextlib.ExitStack, root: Path) -> Path:
    """A scenario root as the command reads it: a team's `.kit/` as the intake's snapshot
    of its repository (its golden, module cache and workers too), for as long as `stack`
    lives, so that a team's scenarios, variants and modules are read from the kit's copy,
    never from the tree a pull request shaped; any other root (scenarios/, golden/,
    variants/ of a scenario author: trusted input, as the kit's own) as it is."""
    from kit.intake import snapshot

    real = Path(os.path.realpath(root))
    if real.name != ".kit":
        return real
    return stack.enter_context(snapshot.taken(real.parent)) / ".kit"
