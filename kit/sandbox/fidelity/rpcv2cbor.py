"""Smithy RPC v2 CBOR requests are answered, through the service's AWS JSON protocol.

AWS serves CloudWatch (and, for newer SDKs, a few more services) in the Smithy RPC v2
CBOR protocol (Smithy 2.0, "RPC v2 CBOR protocol"): a POST to
`/service/<ServiceShape>/operation/<Operation>` with the header `smithy-protocol:
rpc-v2-cbor` and a CBOR body, answered with the same header and a CBOR body; an error is
an HTTP 4xx/5xx whose body has `__type` and `message`. aws-sdk-go-v2's CloudWatch client,
which the AWS provider 6.x uses, speaks nothing else (botocore prefers AWS JSON where a
model lists both, so boto3 is not affected). moto 5.2.5 serves CloudWatch in the AWS JSON
1.0 and query protocols only: it answered 404 without the header, and the SDK failed with
"deserialization failed, unexpected smithy-protocol response header ''", so no
aws_cloudwatch_metric_alarm could be made.

Here, in front of moto's dispatcher, such a request becomes the AWS JSON request of the
same operation (`X-Amz-Target: <ServiceShape>.<Operation>`, the CBOR values as JSON
values: kit/sandbox/fidelity/cbor_shapes.py), moto answers it as it answers any JSON
client, and its answer goes back in CBOR with the protocol header. A service whose model
has no JSON protocol gets a CBOR 501 NotImplemented naming it (journaled), which the
kit's classification turns into an `error` naming the gap (kit/deploy/divergences.py).

moto internals touched: moto.moto_server.werkzeug_app.DomainDispatcherApplication.__call__,
DomainDispatcherApplication.get_application (its app's `service`),
moto.core.utils.get_service_model.
"""

from __future__ import annotations

import functools
import io
import json
import re
from collections.abc import Callable, Iterable
from typing import Any

import cbor2

from kit.sandbox import journal
from kit.sandbox.fidelity import cbor_shapes, errors

PROTOCOL = "rpc-v2-cbor"
CONTENT_TYPE = "application/cbor"
_PATH = re.compile(r"^/service/(?P<service>[\w.]+)/operation/(?P<operation>\w+)/?$")
_XML_FIELD = {name: re.compile(rf"<{name}>([^<]*)</{name}>".encode())
              for name in ("Code", "Message")}
Answer = tuple[str, list[tuple[str, str]], bytes]  # status line, headers, body


@functools.cache
def json_model(service: str, shape: str) -> Any:
    """botocore's model of moto's `service` when it answers `shape` in AWS JSON too; None
    when moto has no JSON protocol for it."""
    from botocore.exceptions import UnknownServiceError
    from moto.core.utils import get_service_model

    try:
        model = get_service_model(service)
    except UnknownServiceError:
        return None
    protocols = model.metadata.get("protocols", [model.protocol])
    if "json" not in protocols or model.metadata.get("targetPrefix") != shape:
        return None
    return model


def requests_in_rpc_v2_cbor_are_answered() -> None:
    """moto's dispatcher answers Smithy RPC v2 CBOR requests (the module's docstring)."""
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication

    original = DomainDispatcherApplication.__call__
    if getattr(original, "_kit_fix", False):
        return

    def call(self: Any, environ: dict[str, Any], start_response: Any) -> Any:
        found = _PATH.match(environ.get("PATH_INFO", ""))
        if environ.get("HTTP_SMITHY_PROTOCOL") != PROTOCOL or found is None:
            return original(self, environ, start_response)
        service = str(getattr(self.get_application(environ), "service", "unknown"))
        status, headers, body = answer(
            environ, service, found["service"], found["operation"],
            lambda inner: _served(original, self, inner))
        start_response(status, headers)
        return [body]

    call._kit_fix = True  # type: ignore[attr-defined]
    DomainDispatcherApplication.__call__ = call  # type: ignore[method-assign]


def answer(environ: dict[str, Any], service: str, shape: str, operation: str,
           serve: Callable[[dict[str, Any]], Answer]) -> Answer:
    """The CBOR answer to one RPC v2 CBOR request, served as JSON by `serve`."""
    model = json_model(service, shape)
    if model is None or operation not in model.operation_names:
        return _not_spoken(service, operation)
    op = model.operation_model(operation)
    body = _body(environ)
    try:
        decoded = cbor2.loads(body) if body else {}
    except (cbor2.CBORDecodeError, ValueError) as exc:
        return _cbor_answer("400 Bad Request", [], {
            "__type": "SerializationException", "message": f"the CBOR body does not parse: {exc}"})
    payload = json.dumps(cbor_shapes.to_json(decoded, op.input_shape)).encode()
    version = model.metadata.get("jsonVersion", "1.0")
    inner = {**environ, "PATH_INFO": "/", "CONTENT_TYPE": f"application/x-amz-json-{version}",
             "CONTENT_LENGTH": str(len(payload)), "wsgi.input": io.BytesIO(payload),
             "HTTP_X_AMZ_TARGET": f"{shape}.{operation}"}
    inner.pop("HTTP_SMITHY_PROTOCOL", None)
    status, headers, out = serve(inner)
    return _translated(status, headers, out, op)


def _translated(status: str, headers: list[tuple[str, str]], body: bytes, op: Any) -> Answer:
    """moto's JSON answer to an operation as its RPC v2 CBOR answer."""
    if int(status.split()[0]) < 300:
        value = json.loads(body) if body.strip() else {}
        return _cbor_answer(status, headers, cbor_shapes.to_cbor(value, op.output_shape))
    document = _error_document(body)
    name = str(document.get("__type", "")).rsplit("#", 1)[-1]
    shape = next((s for s in op.error_shapes if s.name == name), None)
    return _cbor_answer(status, headers, cbor_shapes.to_cbor(document, shape))


def _error_document(body: bytes) -> dict[str, Any]:
    """An error answer's `__type` and `message` (and other members): JSON, or XML."""
    try:
        document = json.loads(body)
    except ValueError:
        document = None
    if isinstance(document, dict):
        if "message" not in document and "Message" in document:
            document["message"] = document.pop("Message")
        return document
    code, message = (_XML_FIELD[n].search(body) for n in ("Code", "Message"))
    return {"__type": code.group(1).decode() if code else "InternalFailure",
            "message": message.group(1).decode() if message else body[:300].decode(
                errors="replace")}


def _cbor_answer(status: str, headers: Iterable[tuple[str, str]], value: Any) -> Answer:
    """An answer in RPC v2 CBOR: the protocol header, a CBOR body, moto's other headers."""
    body = cbor2.dumps(value)
    dropped = {"content-type", "content-length", "smithy-protocol"}
    kept = [(k, v) for k, v in headers if k.lower() not in dropped]
    return status, [*kept, ("Content-Type", CONTENT_TYPE), ("smithy-protocol", PROTOCOL),
                    ("Content-Length", str(len(body)))], body


def _not_spoken(service: str, operation: str) -> Answer:
    """HTTP 501 in CBOR for an operation moto cannot answer in any protocol it speaks,
    recorded in the sandbox's journal like every other answer of moto's."""
    from flask import Response

    message = (f"moto does not implement {service} {operation} in the Smithy RPC v2 CBOR "
               "protocol (moto serves no JSON protocol for it): an emulator gap, not an AWS "
               "answer")
    answered = _cbor_answer("501 Not Implemented", [("x-amzn-ErrorType", errors.NOT_IMPLEMENTED)],
                            {"__type": errors.NOT_IMPLEMENTED, "message": message})
    writer = errors.journal_writer()
    if writer is not None:
        journal.journaling(writer, service, lambda: operation, lambda: Response(
            answered[2], status=501, headers=answered[1]))
    return answered


def _body(environ: dict[str, Any]) -> bytes:
    """The request's body: Content-Length bytes, or all of a chunked one (werkzeug marks
    a stream it ends itself with wsgi.input_terminated)."""
    if environ.get("wsgi.input_terminated"):
        return environ["wsgi.input"].read()
    length = int(environ.get("CONTENT_LENGTH") or 0)
    return environ["wsgi.input"].read(length) if length > 0 else b""


def _served(original: Any, dispatcher: Any, environ: dict[str, Any]) -> Answer:
    """moto's own answer to a (translated) request: status line, headers and body."""
    seen: dict[str, Any] = {}
    chunks: list[bytes] = []

    def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        seen["status"], seen["headers"] = status, list(headers)
        return chunks.append

    result = original(dispatcher, environ, start)
    try:
        chunks.extend(result)
    finally:
        if hasattr(result, "close"):
            result.close()
    return seen["status"], seen["headers"], b"".join(chunks)
