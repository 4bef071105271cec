"""Real SDK requests for gateway tests: what botocore would put on the wire, unsent."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import urlencode, urlsplit

import boto3
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

HOST = "127.0.0.1:4566"
KEY, SECRET = "AKIDTEST", "secret-test"


@dataclass(frozen=True)
class Wire:
    """One HTTP request as the gateway receives it."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


class _Captured(Exception):
    def __init__(self, request: Any) -> None:
        super().__init__("captured")
        self.request = request


def _stop(request: Any, **_: Any) -> None:
    raise _Captured(request)


@cache
def _client(service: str, key: str, secret: str, token: str | None, host: str,
            region: str = "us-east-1") -> Any:
    client = boto3.session.Session().client(
        service, endpoint_url=f"http://{host}", region_name=region,
        aws_access_key_id=key, aws_secret_access_key=secret, aws_session_token=token)
    client.meta.events.register("before-send", _stop)
    return client


def capture(service: str, operation: str, *, key: str = KEY, secret: str = SECRET,
            token: str | None = None, host: str = HOST, region: str = "us-east-1",
            **params: Any) -> Wire:
    """The signed request boto3 sends for `operation(**params)` in `region` (nothing is
    sent)."""
    try:
        getattr(_client(service, key, secret, token, host, region), operation)(**params)
    except _Captured as captured:
        return _wire(captured.request, host)
    raise AssertionError(f"{service}.{operation} sent nothing")


def _wire(request: Any, host: str) -> Wire:
    url = urlsplit(request.url)
    body = request.body or b""
    if hasattr(body, "read"):
        body = body.read()
    if isinstance(body, str):
        body = body.encode()
    headers = {k.lower(): v.decode() if isinstance(v, bytes) else v
               for k, v in request.headers.items()}
    headers["host"] = host
    return Wire(request.method, url.path + (f"?{url.query}" if url.query else ""), headers, body)


def query(service: str, params: dict[str, str], *, key: str = KEY, secret: str = SECRET,
          token: str | None = None, host: str = HOST, path: str = "/") -> Wire:
    """A signed query-protocol request (form body), as older SDKs send SQS calls."""
    request = AWSRequest(method="POST", url=f"http://{host}{path}", data=urlencode(params),
                         headers={"Content-Type":
                                  "application/x-www-form-urlencoded; charset=utf-8"})
    SigV4Auth(Credentials(key, secret, token), service, "us-east-1").add_auth(request)
    return _wire(request.prepare(), host)
