"""`KitEnv`: OpenEnv's own WebSocket client (EnvClient) typed for the kit's environment."""

from __future__ import annotations

from typing import Any

from openenv.core import EnvClient
from openenv.core.client_types import StepResult

from kit.rl.models import KitAction, KitObservation, KitState


class KitEnv(EnvClient[KitAction, KitObservation, KitState]):
    """A session on a `kit serve` server: reset(task_id=..., seed=...), step(KitAction)."""

    def _step_payload(self, action: KitAction) -> dict[str, Any]:
        """The action as the step message's data."""
        return action.model_dump(exclude={"metadata"}, exclude_none=True)

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[KitObservation]:
        """The server's observation payload as a StepResult."""
        fields = dict(payload.get("observation", {}))
        fields.update(done=payload.get("done", False), reward=payload.get("reward"))
        return StepResult(observation=KitObservation(**fields), reward=payload.get("reward"),
                          done=payload.get("done", False))

    def _parse_state(self, payload: dict[str, Any]) -> KitState:
        """The episode's state."""
        return KitState(**payload)
