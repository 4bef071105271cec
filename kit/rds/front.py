"""The HTTP server in front of moto for RDS: Terraform's provider and the kit's gateway both
send their RDS calls here (the provider through AWS_ENDPOINT_URL_RDS).

While the data plane is enabled, the actions of kit.rds.api act on real servers; every
other call, and every call while it is disabled, goes to moto unchanged. The front does not
authenticate or authorize: the gateway in front of it does that for workloads, and
Terraform runs with the kit's own credentials.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import urllib3

from kit import aws
from kit.rds import api
from kit.rds.plane import DataPlane
from kit.rds.wire import Reply
from kit.sandbox.http import LoopbackServer
from kit.sandbox.toxiproxy import ToxiproxyServer

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "upgrade", "host",
              "content-length", "te", "trailers"}


class RdsFront:
    """The front server, on a free loopback port, in a background thread."""

    def __init__(self, moto: str, toxiproxy: ToxiproxyServer, workdir: Path) -> None:
        self.moto = moto.rstrip("/")
        self.plane = DataPlane(workdir / "rds", toxiproxy)
        self._admin = aws.client("rds", self.moto)
        self._pool = urllib3.PoolManager(maxsize=16, retries=False,
                                         timeout=urllib3.Timeout(connect=5, read=60))
        self._http = LoopbackServer(self.handle, self._failed, "rds-front")
        self.port, self.url = self._http.port, self._http.url
        self._http.start()

    def wait_ready(self) -> None:
        """Ready as soon as it exists (it listens from its constructor on)."""

    def stop(self) -> None:
        """Stop serving and stop every server of the data plane."""
        self._http.stop()
        self.plane.close()
        self._pool.clear()

    def _failed(self, exc: Exception, path: str) -> Reply:
        # The kit's failure, not the caller's: the run reports the plane's errors.
        self.plane.errors.append(f"the RDS front failed on {path}: {exc!r}")
        return 500, {"Content-Type": "text/plain"}, str(exc).encode()

    def handle(self, method: str, path: str, headers: dict[str, str], body: bytes,
               client: str = "") -> Reply:
        """Answer one RDS call: by a handler of kit.rds.api, or by moto."""
        params = dict(parse_qsl(urlsplit(path).query))
        if body:
            params.update(parse_qsl(body.decode(errors="replace"), keep_blank_values=True))
        action = params.get("Action", "")

        def forward() -> Reply:
            return self._forward(method, path, headers, body)

        if self.plane.enabled and action in api.UNMODELLED:
            self.plane.errors.append(f"RDS {action} is not modelled by the kit's data plane "
                                     "(kit/rds): the run cannot judge what it would do")
        if not self.plane.enabled or action not in api.HANDLERS:
            return forward()
        return api.handle(action, api.Request(params, self.plane, forward, self._admin,
                                              region(headers, params)))

    def _forward(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Reply:
        out = {k: v for k, v in headers.items() if k.lower() not in HOP_BY_HOP}
        resp = self._pool.request(method, self.moto + path, body=body, headers=out,
                                  preload_content=True, redirect=False)
        reply = {k: v for k, v in resp.headers.items() if k.lower() not in HOP_BY_HOP}
        return resp.status, reply, resp.data


def region(headers: dict[str, str], params: dict[str, str]) -> str:
    """The Region a call was signed for (the kit's when it carries no signature)."""
    auth = next((v for k, v in headers.items() if k.lower() == "authorization"), "")
    return (aws.signed_region(auth)
            or aws.signed_region("Credential=" + params.get("X-Amz-Credential", ""))
            or aws.REGION)
