"""The environment's action and observation, as OpenEnv's pydantic types."""

from __future__ import annotations

from typing import Any

from openenv.core.env_server.types import Action, Observation, State
from pydantic import Field


class KitAction(Action):
    """One tool call: write, read, list, delete, validate, static, ci_report or submit."""

    tool: str = Field(..., description="write | read | list | delete | validate | static | "
                      "ci_report | submit")
    path: str | None = Field(None, description="a path relative to the workspace "
                             "(write, read, delete)")
    content: str | None = Field(None, description="the file's text (write)")


class KitObservation(Observation):
    """What the agent sees: after reset the task and its files, after a step the tool's
    output (a refusal says why), after submit the reward and the grade's evidence."""

    task_id: str = ""
    kind: str = ""
    text: str = Field("", description="the task's text (reset)")
    files: dict[str, str] = Field(default_factory=dict, description="the workspace (reset)")
    tool: str = ""
    ok: bool = True
    output: str = ""
    refused: bool = False
    grade: dict[str, Any] | None = Field(None, description="submit: reward, faults, "
                                         "per-run per-invariant verdicts and summaries")


class KitState(State):
    """The episode's task, seed, mode and whether it was submitted."""

    task_id: str | None = None
    seed: int = 1
    mode: str = "sampled"
    submitted: bool = False
