"""The HTTP server: OpenEnv's own app (create_app) around KitEnvironment, on loopback."""

from __future__ import annotations

import os

from openenv.core.env_server.http_server import create_app

from kit.rl.env import ENV_ADDRESS, ENV_EXECUTOR, ENV_MODE, KitEnvironment
from kit.rl.models import KitAction, KitObservation, KitState

MAX_SESSIONS = int(os.environ.get("KIT_RL_SESSIONS", "8"))


def app():  # noqa: ANN201 - FastAPI's type comes with the extra
    """The ASGI app: /reset, /step, /state, /schema, /health and the /ws sessions."""
    return create_app(KitEnvironment, KitAction, KitObservation, env_name="kit",
                      max_concurrent_envs=MAX_SESSIONS, state_cls=KitState)


def serve(port: int, mode: str, executor: str = "local", address: str | None = None) -> None:
    """Serve on 127.0.0.1:port until interrupted; gradings on `executor` (with ray: one
    connection to the cluster at `address`, or to a local one of this machine's cores, for
    the server's life)."""
    import uvicorn

    os.environ[ENV_MODE], os.environ[ENV_EXECUTOR] = mode, executor
    os.environ[ENV_ADDRESS] = address or ""
    if executor != "ray":
        uvicorn.run(app(), host="127.0.0.1", port=port, log_level="warning")
        return
    from kit.evaluate import cluster

    with cluster.connected(address, os.cpu_count() or 1):
        uvicorn.run(app(), host="127.0.0.1", port=port, log_level="warning")
