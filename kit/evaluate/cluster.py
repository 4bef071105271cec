"""Runs of a matrix (kit/evaluate/matrix.py) as Ray tasks: one actor per parallel slot, each
holding its own sandbox, on a local cluster started for the command or on an existing one
(`--address`).

Ray (an optional extra, `kit[ray]`) is the scale-out engine rather than a pool written here:
it places actors by resources across machines, restarts nothing behind the kit's back
(max_restarts=0: a lost node is the kit's error, never a verdict), and its local mode is the
same API as a cluster. What each node needs: the kit installed at the same version and
`kit setup` run (the toolchain cache, ~/.cache/kit); the scenarios at the same paths (the
driver's KIT_SCENARIOS is passed on). A run's directory is written on the node that ran it
and shipped back to the driver as a tar archive when that node is not the driver's.
"""

from __future__ import annotations

import io
import os
import secrets
import shutil
import tarfile
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit.errors import InputError, KitError
from kit.run.result import RunResult

if TYPE_CHECKING:
    from kit.evaluate.matrix import Matrix, Row

# For a cluster on this machine, every Ray process inherits these: token auth keeps other
# local users' (and a confined worker's) hands off the cluster's ports; Ray's switch for
# single-machine clusters makes "this node" loopback, where Ray would otherwise resolve
# 127.0.0.1 to the host's first address and connect there; on a loaded machine a raylet
# may take longer than Ray's default 10 s to register.
_LOCAL = {"RAY_AUTH_MODE": "token", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
          "RAY_raylet_start_wait_time_s": "180"}


def local_env() -> None:
    """The settings of a cluster on this machine (`_LOCAL`), set before Ray is imported (it
    reads them once, at import); the auth token lives in this process's environment, not
    in ~/.ray."""
    for name, value in {**_LOCAL, "RAY_AUTH_TOKEN": secrets.token_hex(32)}.items():
        os.environ.setdefault(name, value)


def _ray() -> Any:
    """The ray module, or a clear error naming the extra to install."""
    try:
        import ray
    except ImportError:
        raise InputError("--executor ray needs Ray: pip install 'kit[ray]' (in the kit's "
                         "checkout, from the lock: make extras)") from None
    return ray


@contextmanager
def connected(address: str | None, cpus: int) -> Iterator[Any]:
    """Ray, connected to the cluster at `address`, or to a local one of `cpus` CPUs started
    for this block (its processes and temp dir gone at the end)."""
    temp = None
    loopback = not address or address.split(":")[0] in ("127.0.0.1", "localhost")
    if loopback:
        local_env()
    ray = _ray()
    if ray.is_initialized():  # a caller (a test, the RL server) connected already
        yield ray
        return
    env = {"KIT_SCENARIOS": os.environ.get("KIT_SCENARIOS", "")}
    try:
        if address:
            ray.init(address=address, runtime_env={"env_vars": env}, log_to_driver=False,
                     **({"_node_ip_address": "127.0.0.1"} if loopback else {}))
        else:
            temp = tempfile.mkdtemp(prefix="kit-ray-")
            ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False,
                     _node_ip_address="127.0.0.1", _temp_dir=temp,
                     runtime_env={"env_vars": env})
        yield ray
    finally:
        if ray.is_initialized():
            ray.shutdown()
        if temp:
            shutil.rmtree(temp, ignore_errors=True)


class Runner:
    """A Ray actor: one sandbox, reused (reset) across the runs it is given."""

    def __init__(self, emulator: str, emulator_url: str | None) -> None:
        self._emulator, self._emulator_url = emulator, emulator_url
        self._sandbox: Any = None

    def run(self, scenario_dir: str, subject: Any, fault: str, seed: int, run_dir: str,
            driver_node: str) -> tuple[RunResult, str, bytes | None]:
        """One run; its result, the node it ran on, and its directory as a tar archive when
        that node is not the driver's."""
        import ray

        from kit import scenario
        from kit.run.pipeline import run_once
        from kit.run.sandbox import Sandbox

        if self._sandbox is None:
            self._sandbox = Sandbox(provider=True, emulator=self._emulator,
                                    emulator_url=self._emulator_url).__enter__()
        sc = scenario.load(Path(scenario_dir))
        with tempfile.TemporaryDirectory(prefix="kit-solution-") as tmp:
            solution = subject.solution(sc, Path(tmp) / "solution")
            result = run_once(sc, solution, fault, seed, Path(run_dir), self._sandbox)
        node = ray.get_runtime_context().get_node_id()
        return result, node, None if node == driver_node else pack(Path(run_dir))

    def close(self) -> None:
        """Stop the sandbox."""
        if self._sandbox is not None:
            self._sandbox.__exit__(None, None, None)
            self._sandbox = None


def pack(directory: Path, skip: Callable[[str], bool] = lambda name: False) -> bytes:
    """`directory` as a gzipped tar archive, without the entries whose name `skip`s."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        tar.add(directory, arcname=".",
                filter=lambda info: None if skip(Path(info.name).name) else info)
    return buf.getvalue()


def unpack(archive: bytes, directory: Path) -> None:
    """Extract a directory shipped from another node (a run's, a solution's)."""
    directory.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        tar.extractall(directory, filter="data")


def run_matrix(matrix: Matrix, tasks: list[tuple[Row, int]], jobs: int,
               address: str | None) -> dict[tuple[str, str, int], str]:
    """Run the tasks on `jobs` Ray actors, each taking the next task when it is free;
    returns the node each (subject, fault, seed) ran on. The first failure cancels the
    rest."""
    with connected(address, jobs) as ray:
        actor = ray.remote(num_cpus=1, max_restarts=0)(Runner)
        runners = [actor.remote(matrix.sandboxes.emulator, matrix.sandboxes.emulator_url)
                   for _ in range(max(1, min(jobs, len(tasks))))]
        try:
            placed = _dispatch(ray, matrix, tasks, runners)
            ray.get([r.close.remote() for r in runners])
            return placed
        finally:
            # A runner still busy (Ctrl-C, a failure) is killed; its sandbox's services die
            # with it (PR_SET_PDEATHSIG).
            for r in runners:
                ray.kill(r)


def _dispatch(ray: Any, matrix: Matrix, tasks: list[tuple[Row, int]],
              runners: list[Any]) -> dict[tuple[str, str, int], str]:
    """Hand tasks to free runners until all are done; record each result in its row."""
    driver = ray.get_runtime_context().get_node_id()
    todo = list(reversed(tasks))
    pending: dict[Any, tuple[Any, Row, int, Path]] = {}
    placed: dict[tuple[str, str, int], str] = {}

    def give(runner: Any) -> None:
        row, seed = todo.pop()
        run_dir = matrix.run_dir(row, seed)
        ref = runner.run.remote(str(matrix.scenario.directory), matrix.subjects[row.subject],
                                row.fault, seed, str(run_dir), driver)
        pending[ref] = (runner, row, seed, run_dir)

    for runner in runners:
        if todo:
            give(runner)
    while pending:
        [ref], _ = ray.wait(list(pending), num_returns=1)
        runner, row, seed, run_dir = pending.pop(ref)
        try:
            result, node, archive = ray.get(ref)
        except ray.exceptions.RayActorError as exc:
            raise KitError(f"a Ray node running {row.subject} under {row.fault} was lost: "
                           f"{exc}") from exc
        if archive is not None:
            unpack(archive, run_dir)
        placed[(row.subject, row.fault, seed)] = node
        matrix.record(row, result)
        if todo:
            give(runner)
    return placed
