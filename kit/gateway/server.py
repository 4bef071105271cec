"""An HTTP proxy between workload processes and moto: attributes, records, blocks, faults.

Every request carries SigV4 credentials; the access key id names the session the kit
created for one worker process, so each SQS call is recorded in the run's history under
that process (the kit's CloudTrail). The emulator's admin API is refused to everyone who
comes through here. Fault hooks (e.g. lost deletes) act on requests in flight.
"""

from __future__ import annotations

import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import urllib3

from kit.gateway import sqs
from kit.workload.recorder import Recorder

_CREDENTIAL = re.compile(r"Credential=([A-Z0-9]+)/")
HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te",
              "trailers", "transfer-encoding", "upgrade", "host", "content-length"}


class Gateway:
    """The proxy server, on a free loopback port, in a background thread."""

    def __init__(self, upstream: str, recorder: Recorder) -> None:
        self.upstream = upstream.rstrip("/")
        self.recorder = recorder
        self.principals: dict[str, str] = {}  # access key id -> process name
        self.lost_deletes = 0
        self.receipts: dict[str, str] = {}  # receipt handle -> message id
        self._lock = threading.Lock()
        self._pool = urllib3.PoolManager(maxsize=32, retries=False,
                                         timeout=urllib3.Timeout(connect=5, read=60))
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True,
                                        name="gateway")

    def __enter__(self) -> Gateway:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._pool.clear()

    def register(self, access_key_id: str, process: str) -> None:
        """Attribute calls signed with `access_key_id` to `process` in the history."""
        with self._lock:
            self.principals[access_key_id] = process

    def lose_deletes(self, count: int) -> None:
        """Fault hook: acknowledge the next `count` deletes without performing them."""
        with self._lock:
            self.lost_deletes += count

    def _take_lost_delete(self) -> bool:
        with self._lock:
            if self.lost_deletes > 0:
                self.lost_deletes -= 1
                return True
            return False

    def handle(self, method: str, path: str, headers: dict[str, str], body: bytes
               ) -> tuple[int, dict[str, str], bytes]:
        """Answer one request: refuse, swallow, or forward and record."""
        if path.startswith("/moto-api"):
            return 403, {"Content-Type": "text/plain"}, b"the emulator admin API is not for you"
        found = _CREDENTIAL.search(headers.get("authorization", ""))
        process = self.principals.get(found.group(1), "unknown") if found else "anonymous"
        request = sqs.parse(headers, body)
        if request is not None and request.action == "ReceiveMessage":
            body = sqs.with_receive_count(request, body)
        if request is not None and request.action.startswith("DeleteMessage") \
                and self._take_lost_delete():
            self._record_lost(process, request)
            return sqs.success_reply(request)
        forward = {k: v for k, v in headers.items() if k.lower() not in HOP_BY_HOP}
        resp = self._pool.request(method, self.upstream + path, body=body, headers=forward,
                                  preload_content=True, redirect=False)
        if request is not None:
            self._record(process, request, resp.status, resp.data)
        out = {k: v for k, v in resp.headers.items() if k.lower() not in HOP_BY_HOP}
        return resp.status, out, resp.data

    def _record(self, process: str, request: sqs.SqsRequest, status: int, data: bytes) -> None:
        action = request.action
        if action == "ReceiveMessage":
            for msg in sqs.received(request, status, data):
                with self._lock:
                    self.receipts[msg["receipt"]] = msg["message_id"]
                self.recorder.record(process, "receive", message_id=msg["message_id"],
                                     order_id=_order_id(msg["body"]),
                                     receive_count=msg["receive_count"])
        elif status == 200 and action in ("DeleteMessage", "DeleteMessageBatch"):
            for entry in request.entries():
                self.recorder.record(process, "delete", message_id=self._message_of(entry))
        elif status == 200 and action.startswith("ChangeMessageVisibility"):
            for entry in request.entries():
                self.recorder.record(process, "change_visibility",
                                     message_id=self._message_of(entry),
                                     timeout=float(entry.get("VisibilityTimeout", 0)))

    def _record_lost(self, process: str, request: sqs.SqsRequest) -> None:
        for entry in request.entries():
            message_id = self._message_of(entry)
            self.recorder.record(process, "delete", message_id=message_id)
            self.recorder.record("nemesis", "fault_effect", effect="delete lost",
                                 message_id=message_id)

    def _message_of(self, entry: dict[str, Any]) -> str:
        with self._lock:
            return self.receipts.get(entry.get("ReceiptHandle", ""), "unknown")


def _order_id(body: str) -> str | None:
    from kit.history import describe_body

    return describe_body(body).get("order_id")


def _handler(gateway: Gateway) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive: a connection per request costs ~1 ms

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            try:
                status, out, data = gateway.handle(self.command, self.path, headers, body)
            except Exception as exc:  # noqa: BLE001 - the upstream may be down (a fault)
                status, out, data = 502, {"Content-Type": "text/plain"}, str(exc).encode()
            self.send_response(status)
            for key, value in out.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _serve

        def log_message(self, *args: Any) -> None:  # the history is the log
            pass

    return Handler
