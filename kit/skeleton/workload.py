"""{name}'s workload: what the producer sends and what a valid message is.

Fill in `plan` and `describe` (see kit/workload/api.py); until then every run of this
scenario is an `error` that names this file.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from kit.workload.api import Described, Send


class Params(BaseModel):
    """workload.params of scenario.yaml."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    messages: int = Field(ge=1)


def describe(body: str) -> Described:
    """The key and fields of a body, and whether it is a valid message."""
    raise NotImplementedError("scenarios/{name}/workload.py: describe() is not written yet")


def plan(seed: int, params: Params) -> list[Send]:
    """What the producer sends, in order, for `seed`."""
    raise NotImplementedError("scenarios/{name}/workload.py: plan() is not written yet")
