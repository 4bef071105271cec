"""Answers to requests moto cannot serve: fast, named, and not retried.

moto internals touched: moto.core.utils.convert_to_flask_response.__call__,
convert_to_flask_response.callback (its owner's __module__, moto.<service>.responses, names
the service).
"""

from __future__ import annotations

import re
import traceback
from pathlib import Path
from typing import Any

from kit.sandbox import journal
from kit.sandbox.fidelity import retries

NOT_IMPLEMENTED = "NotImplemented"
_WRITER: journal.Writer | None = None  # the sandbox's journal of answers, once opened
_REPLAYS = retries.Replays()
EMULATOR_FAILURE = "KitEmulatorFailure"
_GENERIC = re.compile(r"^The \w+ action has not been implemented$")


def unimplemented_actions_fail_fast() -> None:
    """An action moto does not implement (or crashes on) is refused at once, naming it.

    moto answers HTTP 500 to both, which every AWS SDK retries (the AWS provider up to 25
    times, with backoff): an apply then hangs until its timeout, and the action is named
    only in moto's log. AWS answers an unsupported operation with a client error that is
    not retried (S3: 501 NotImplemented). Here the answer is HTTP 501 with error code
    NotImplemented (KitEmulatorFailure for a crash) and a message naming the service and
    action, in a body every AWS protocol's error parser reads (JSON, or XML with the code
    at the root, under <Error> and under <Errors><Error>). The kit's classification
    (kit/deploy/divergences.py) turns it into an `error` naming the gap.
    """
    from flask import Response
    from flask import request as flask_request
    from moto.core.utils import convert_to_flask_response
    from werkzeug.exceptions import HTTPException

    if getattr(convert_to_flask_response.__call__, "_kit_fix", False):
        return
    original = convert_to_flask_response.__call__

    def call(self: Any, args: Any = None, **kwargs: Any) -> Any:
        owner = getattr(self.callback, "__self__", self.callback)
        service = getattr(owner, "__module__", "moto.unknown").split(".")[1]

        def answer() -> Any:
            try:
                return original(self, args, **kwargs)
            except HTTPException:
                raise  # moto's own error answers
            except NotImplementedError as exc:
                code = NOT_IMPLEMENTED
                detail = "" if _GENERIC.search(str(exc)) else f" ({exc})"
            except Exception as exc:  # noqa: BLE001 - any crash of moto is an emulator gap
                code, detail = EMULATOR_FAILURE, f" ({type(exc).__name__}: {exc})"
                traceback.print_exc()  # into moto's log, for whoever fixes the gap
            verb = "does not implement" if code == NOT_IMPLEMENTED else "failed on"
            message = (f"moto {verb} {service} {_action(flask_request)}{detail}: an emulator "
                       "gap, not an AWS answer")
            return _error_response(Response, flask_request, code, message[:1000])

        def answer_once() -> Any:
            replayed = _REPLAYS.replay(flask_request)
            if replayed is not None:  # the SDK retried what was answered: the same answer
                status, headers, body = replayed
                return Response(body, status=status, headers=headers)
            response = answer()
            _REPLAYS.keep(flask_request, response)
            return response

        if _WRITER is None:
            return answer_once()
        # The action is read after the answer: reading the form first would consume the body.
        return journal.journaling(_WRITER, service, lambda: _action(flask_request),
                                  answer_once)

    call._kit_fix = True  # type: ignore[attr-defined]
    convert_to_flask_response.__call__ = call  # type: ignore[method-assign]


def answers_are_journaled(path: Path) -> None:
    """Record every answer of this moto process in the journal at `path`
    (kit/sandbox/journal.py): the evidence blame is decided from."""
    global _WRITER
    _WRITER = journal.Writer(path)


def journal_writer() -> journal.Writer | None:
    """The sandbox's journal of answers, for a fix that answers a request itself."""
    return _WRITER


def _action(request: Any) -> str:
    """The AWS action of a request: Action parameter, X-Amz-Target, or method and path."""
    action = request.values.get("Action")
    target = request.headers.get("X-Amz-Target")
    if action:
        return action
    if target:
        return target.rsplit(".", 1)[-1]
    return f"{request.method} {request.path}"


def _error_response(response: Any, request: Any, code: str, message: str) -> Any:
    """An error document for HTTP 501 in the request's protocol (JSON or XML)."""
    from xml.sax.saxutils import escape

    if "json" in (request.content_type or ""):
        import json

        return response(json.dumps({"__type": code, "message": message}), status=501,
                        headers={"x-amzn-ErrorType": code,
                                 "Content-Type": "application/x-amz-json-1.1"})
    inner = f"<Code>{code}</Code><Message>{escape(message)}</Message>"
    body = (f'<?xml version="1.0" encoding="UTF-8"?>\n<ErrorResponse>{inner}<Error>{inner}'
            f"</Error><Errors><Error>{inner}</Error></Errors><RequestId>kit-fidelity"
            "</RequestId></ErrorResponse>")
    return response(body, status=501, headers={"Content-Type": "text/xml"})
