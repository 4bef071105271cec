"""`KitEnvironment`: KitSession behind OpenEnv's `Environment` interface (one per
WebSocket session: each its own workspace)."""

from __future__ import annotations

import os
import uuid
from typing import Any

from openenv.core.env_server.interfaces import Environment

from kit.rl.models import KitAction, KitObservation, KitState
from kit.rl.session import KitSession

# The server's reward mode (full | sampled) and where gradings run (local | ray, and the
# Ray cluster's address): set by `kit serve`, read by each session OpenEnv creates.
ENV_MODE, ENV_EXECUTOR, ENV_ADDRESS = "KIT_RL_MODE", "KIT_RL_EXECUTOR", "KIT_RL_ADDRESS"


class KitEnvironment(Environment[KitAction, KitObservation, KitState]):
    """The kit's tasks as an OpenEnv environment: reset(task_id, seed), step(KitAction)."""

    SUPPORTS_CONCURRENT_SESSIONS = True  # a session's workspace and sandboxes are its own

    def __init__(self) -> None:
        super().__init__()
        self.session = KitSession(os.environ.get(ENV_MODE, "sampled"),
                                  executor=os.environ.get(ENV_EXECUTOR, "local"),
                                  address=os.environ.get(ENV_ADDRESS) or None)
        self._state = KitState(episode_id=None, mode=self.session.mode)

    def reset(self, seed: int | None = None, episode_id: str | None = None,
              task_id: str | None = None, **kwargs: Any) -> KitObservation:
        """A fresh workspace for `task_id` (default: the first task); the task's text."""
        first = self.session.reset(task_id, seed)
        self._state = KitState(episode_id=episode_id or str(uuid.uuid4()),
                               task_id=first["task_id"], seed=first["seed"],
                               mode=first["mode"])
        return KitObservation(task_id=first["task_id"], kind=first["kind"],
                              text=first["text"], files=first["files"], tool="reset",
                              output="tools: " + ", ".join(first["tools"]), done=False,
                              reward=None)

    def step(self, action: KitAction, timeout_s: float | None = None,
             **kwargs: Any) -> KitObservation:
        """One tool call; `submit` ends the episode with the reward."""
        obs = self.session.step(action.tool, action.path, action.content)
        self._state.step_count += 1
        self._state.submitted = self.session.done
        return KitObservation(task_id=self._state.task_id or "", tool=obs["tool"],
                              ok=obs["ok"], output=obs["output"], refused=obs["refused"],
                              grade=obs.get("grade"), reward=obs.get("reward"),
                              done=self.session.done)

    @property
    def state(self) -> KitState:
        """The episode's id, task, seed, mode and step count."""
        return self._state

    def close(self) -> None:
        """Remove the session's workspace."""
        self.session.close()
