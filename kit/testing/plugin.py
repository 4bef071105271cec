"""The kit's pytest plugin: options, the seed in the report header, and the fixtures.

Fixtures (none starts anything until a test asks for it):
- `kit_seed`: the session's seed (--kit-seed, else $KIT_SEED, else the clock's; printed).
- `kit_sandbox`: the session's sandbox (moto, Toxiproxy, PostgreSQL, the RDS front, the
  provider), started on first use and stopped at the session's end, Ctrl-C included.
- `kit_history`: the test's Recorder: every op its stacks, role clients and faults record.
- `deployed`: `deployed(scenario, solution=None)` -> kit.testing.stack.Stack, the solution
  (default: --kit-solution, else the scenario's golden) deployed and bound; closed at the
  test's end.
- `inject`: `with inject("db_outage"):` holds a scenario fault on the test's stack.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from kit.testing import seed as seeds

if TYPE_CHECKING:
    from kit.recorder import Recorder
    from kit.run.sandbox import Sandbox
    from kit.scenario import Scenario
    from kit.testing.stack import Stack

SEED = pytest.StashKey[tuple[int, str]]()
FIXTURES = ("kit_sandbox", "deployed", "inject")  # a test using one is the kit's to report


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("kit", "kit: infrastructure tested under an injected fault")
    group.addoption("--kit-seed", dest="kit_seed", default=None, metavar="N",
                    help=f"the seed of the workload and faults (default: ${seeds.ENV}, else "
                         "drawn from the clock; the report header prints it)")
    group.addoption("--kit-solution", dest="kit_solution", default=None, metavar="DIR",
                    help="the solution deployed() deploys when a test names none "
                         "(default: the scenario's golden)")


def pytest_configure(config: pytest.Config) -> None:
    # An xdist worker takes the controller's seed: every worker runs the same session.
    given = getattr(config, "workerinput", {}).get("kit_seed")
    try:
        config.stash[SEED] = (int(given), "the xdist controller") if given is not None \
            else seeds.resolve(config.getoption("kit_seed"), os.environ)
    except seeds.SeedError as exc:
        raise pytest.UsageError(str(exc)) from None


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist: hand the controller's seed to each worker."""
    node.workerinput["kit_seed"] = node.config.stash[SEED][0]


def pytest_report_header(config: pytest.Config) -> str:
    seed, source = config.stash[SEED]
    return seeds.header(seed, source, config.invocation_params.args)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """The kit's error (a bad input, a missing toolchain) or a solution that did not
    deploy, in a test of the kit's fixtures: its message, not a traceback into the kit."""
    report = yield
    from kit.errors import KitError, SolutionError  # here: light until a test fails

    excinfo = call.excinfo
    if (excinfo is not None and report.failed and set(FIXTURES) & set(item.fixturenames)
            and excinfo.errisinstance((KitError, SolutionError))):
        report.longrepr = f"{excinfo.typename}: {excinfo.value}"
    return report


@pytest.fixture(scope="session")
def kit_seed(request: pytest.FixtureRequest) -> int:
    """The session's seed (the report header says where it came from)."""
    return request.config.stash[SEED][0]


@pytest.fixture(scope="session")
def kit_sandbox() -> Iterator[Sandbox]:
    """The session's sandbox, stopped at the session's end (a failure or Ctrl-C too)."""
    from kit import interrupt
    from kit.run.sandbox import Sandbox
    from kit.sandbox.limits import raise_own_open_files

    raise_own_open_files()
    with _signals_to_interrupt(interrupt.install), Sandbox(provider=True) as sandbox:
        yield sandbox


@pytest.fixture
def kit_history() -> Recorder:
    """The test's ledger: every op its stacks, role clients and faults record."""
    from kit.recorder import Recorder

    return Recorder()


class Deployer:
    """`deployed(scenario, solution=None)`: the test's stack (one at a time: each deploy
    resets the sandbox)."""

    def __init__(self, request: pytest.FixtureRequest, sandbox: Sandbox, seed: int,
                 recorder: Recorder, run_root: Path) -> None:
        self.request, self.sandbox, self.seed = request, sandbox, seed
        self.recorder, self.run_root = recorder, run_root
        self.stacks: list[Stack] = []
        self.intakes = contextlib.ExitStack()  # the snapshots the stacks were deployed from

    def __call__(self, scenario: str | Path | Scenario, solution: str | Path | None = None
                 ) -> Stack:
        from kit.errors import InputError
        from kit.intake import snapshot
        from kit.scenario import Scenario, load
        from kit.testing.stack import deploy_stack

        if self.stacks:
            raise InputError("deployed(): this test has a stack already; the sandbox holds "
                             "one at a time (deploy the other in a test of its own)")
        loaded = scenario if isinstance(scenario, Scenario) else load(scenario)
        chosen = solution or self.request.config.getoption("kit_solution") or loaded.golden
        if not Path(chosen).is_dir():
            raise InputError(f"deployed({loaded.name!r}, solution={str(chosen)!r}): "
                             "no such directory (the solution's Terraform)")
        # The intake's snapshot is deployed: nothing reads the given directory after it.
        taken = self.intakes.enter_context(snapshot.taken(Path(chosen)))
        stack = deploy_stack(loaded, taken, self.sandbox, self.seed, self.run_root / "run",
                             self.recorder)
        self.stacks.append(stack)
        return stack

    def close(self) -> None:
        """Close every stack of the test."""
        while self.stacks:
            self.stacks.pop().close()
        self.intakes.close()


@pytest.fixture
def deployed(request: pytest.FixtureRequest, kit_sandbox: Sandbox, kit_seed: int,
             kit_history: Recorder, tmp_path: Path) -> Iterator[Deployer]:
    """`deployed(scenario, solution=None)` -> Stack; the run's logs under tmp_path/run."""
    deployer = Deployer(request, kit_sandbox, kit_seed, kit_history, tmp_path)
    try:
        yield deployer
    finally:
        deployer.close()


@pytest.fixture
def inject(deployed: Deployer) -> Callable[..., contextlib.AbstractContextManager[None]]:
    """`with inject(name):` holds the scenario's fault `name` on the test's stack."""
    from kit.errors import InputError
    from kit.testing import fault

    def hold(name: str, stack: Stack | None = None) -> contextlib.AbstractContextManager[None]:
        target = stack or (deployed.stacks[-1] if deployed.stacks else None)
        if target is None:
            raise InputError(f"inject({name!r}): nothing deployed in this test; call "
                             "deployed(scenario) first")
        return fault.inject(target, name)

    return hold


@contextlib.contextmanager
def _signals_to_interrupt(install: Callable[[], None]) -> Iterator[None]:
    """SIGINT and SIGTERM raise KeyboardInterrupt while the sandbox runs (a CI's timeout
    then stops it as Ctrl-C does); the previous handlers come back after."""
    previous = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    hook = sys.unraisablehook
    install()
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        sys.unraisablehook = hook
