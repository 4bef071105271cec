"""`KitSession`: one episode's API in-process, the same as the OpenEnv environment's.

reset(task_id, seed, mode) -> the task's text and its workspace's files; step(action) ->
an observation. Actions (`tool` and its arguments):

- `write` (path, content), `read` (path), `list`, `delete` (path): confined to the
  session's own workspace (kit/rl/workspace.py); a refusal is an observation with
  `refused: true` and the reason, never a host file;
- `validate`: terraform init + validate in the kit's deploy sandbox; `static`: the
  static gate and the policy lint; `ci_report`: a repair or diagnose task's failing report;
- `submit`: grades the workspace (kit/tasks/grade.py) and ends the episode: the reward and
  the per-invariant evidence.

Every session has its own temporary workspace (removed by close()); grading copies it into
a sandbox of its own, so concurrent sessions never see each other's files. With `executor`
"ray", a submit runs each fault as a Ray task (the workspace's files shipped to it), on the
cluster this process connected to (kit/evaluate/cluster.py `connected`, as `kit serve` does) or, if
none, on a local one started for that submit."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from kit.errors import InputError, KitError, SolutionError
from kit.rl import tools
from kit.rl.workspace import Workspace, WorkspaceRefusal
from kit.tasks import bundle, catalog
from kit.tasks.grade import grade
from kit.tasks.model import Task
from kit.tasks.modes import MODES

TOOLS = ("write", "read", "list", "delete", "validate", "static", "ci_report", "submit")


class KitSession:
    """One agent's episode on one task, in a workspace of its own."""

    def __init__(self, mode: str = "sampled", base: Path | None = None,
                 executor: str = "local", address: str | None = None) -> None:
        if mode not in MODES:
            raise InputError(f"unknown reward mode {mode!r}; known: {', '.join(MODES)}")
        self.mode = mode
        self.executor, self.address = executor, address
        self._base = base
        self._dir: Path | None = None
        self.task: Task | None = None
        self.workspace: Workspace | None = None
        self.seed = 1
        self.done = False
        self.steps = 0

    def reset(self, task_id: str | None = None, seed: int | None = None,
              mode: str | None = None) -> dict[str, Any]:
        """Start an episode: a fresh workspace holding the task's starting files."""
        self.close()
        tid = task_id or catalog.all_tasks()[0].id
        self.task = catalog.get(tid)
        self.seed = 1 if seed is None else seed
        self.mode = mode or self.mode
        self._dir = Path(tempfile.mkdtemp(prefix="kit-rl-", dir=self._base))
        self.workspace = Workspace(self._dir / "workspace")
        bundle.write_files(self.task.files, self.workspace.root)
        self.done, self.steps = False, 0
        return {"task_id": self.task.id, "kind": self.task.kind, "text": self.task.text,
                "files": self.workspace.snapshot(), "tools": list(TOOLS),
                "mode": self.mode, "seed": self.seed}

    def step(self, tool: str, path: str | None = None, content: str | None = None
             ) -> dict[str, Any]:
        """One action; the observation: {tool, ok, output, refused?, reward?, grade?}."""
        if self.task is None or self.workspace is None:
            return _obs(tool, False, "no episode: call reset(task_id, seed) first")
        if self.done:
            return _obs(tool, False, "the episode is over (submitted): call reset")
        self.steps += 1
        try:
            return self._act(tool, path, content)
        except WorkspaceRefusal as exc:
            return _obs(tool, False, str(exc)) | {"refused": True}
        except (SolutionError, InputError) as exc:
            return _obs(tool, False, str(exc))
        except (OSError, UnicodeError) as exc:
            # The agent's action failed on its own files (a file where a directory is
            # needed, a name too long, text that is no UTF-8): said by the path it gave,
            # never by the host path of the workspace.
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else \
                type(exc).__name__
            return _obs(tool, False, f"{tool} {path!r} failed: {reason}")

    def _act(self, tool: str, path: str | None, content: str | None) -> dict[str, Any]:
        """Dispatch one action (the workspace refuses what leaves it)."""
        ws, task = self.workspace, self.task
        assert ws is not None and task is not None  # noqa: S101 - step() checked both
        if tool == "write":
            return _obs(tool, True, ws.write(_need(path, "path"), content or ""))
        if tool == "read":
            return _obs(tool, True, ws.read(_need(path, "path")))
        if tool == "delete":
            return _obs(tool, True, ws.delete(_need(path, "path")))
        if tool == "list":
            return _obs(tool, True, "\n".join(ws.files()))
        if tool == "static":
            return _obs(tool, True, tools.on_snapshot(
                ws.root, lambda taken: tools.static_check(task, taken)))
        if tool == "validate":
            return _obs(tool, True, tools.on_snapshot(
                ws.root, lambda taken: tools.terraform_validate(task, taken)))
        if tool == "ci_report":
            return _obs(tool, True, tools.ci_report(task, self.seed))
        if tool == "submit":
            return self._submit()
        return _obs(tool, False, f"unknown tool {tool!r}; known: {', '.join(TOOLS)}")

    def _submit(self) -> dict[str, Any]:
        """Grade the workspace; the episode ends."""
        assert self.task is not None and self.workspace is not None  # noqa: S101
        try:
            result = grade(self.task, self.workspace.root, self.seed, self.mode,
                           (self._dir or Path(tempfile.gettempdir())) / "grade",
                           self.executor, self.address)
        except KitError as exc:  # the kit's own failure: no reward, never the agent's 0
            self.done = True
            return _obs("submit", False, f"the kit could not grade: {exc}") | {"reward": None}
        self.done = True
        text = (f"reward {result.reward} ({result.mode}, seed {result.seed}, faults "
                f"{', '.join(result.faults) or '-'}): {result.outcome}"
                + (f"; {result.note}" if result.note else ""))
        return _obs("submit", True, text) | {"reward": result.reward,
                                              "grade": result.to_dict()}

    def close(self) -> None:
        """Remove the session's workspace and runs."""
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
        self._dir = self.workspace = None


def _need(value: str | None, name: str) -> str:
    """An action's required argument."""
    if value is None:
        raise InputError(f"this tool needs the argument {name!r}")
    return value


def _obs(tool: str, ok: bool, output: str) -> dict[str, Any]:
    """An observation's common fields."""
    return {"tool": tool, "ok": ok, "output": output, "refused": False}
