"""A loopback HTTP server in a background thread for the kit's own services (the gateway,
the RDS front): each request is handed whole to one function, which returns the reply.

With `Bounds` (the gateway, which workers reach), what one request or client can make the
kit hold is bounded: the request line and headers together (431 beyond them, before the
rest is read), the body (`check` sees the headers first and may refuse it unread: the
connection is then closed), and the connections served at once (one thread and one
descriptor each; beyond the cap a connection is closed at once). Every refusal is told to
`refused`, so the run's history counts it.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = tuple[int, dict[str, str], bytes]
# (method, path, headers with lower-case names, body, client address) -> reply
Handle = Callable[[str, str, dict[str, str], bytes, str], Reply]
# (method, path, headers, client address) -> a reply that refuses the unread body, or None
Check = Callable[[str, str, dict[str, str], str], Reply | None]
_DRAIN = 64 * 1024  # bytes of an unread body discarded before closing, so the reply arrives


@dataclass(frozen=True)
class Bounds:
    """What one request and all clients together may make the server hold."""

    max_header_bytes: int  # request line and headers of one request
    max_connections: int  # served at once (a thread and a descriptor each)
    check: Check  # before a body is read
    refused: Callable[[str, str], None]  # (what, detail): a refusal the check did not make


class _HeaderBudget:
    """The connection's input, where the request line and headers of each request may
    use only `limit` bytes together (http.client's LineTooLong beyond: a 431)."""

    def __init__(self, raw: Any, limit: int) -> None:
        self._raw = raw
        self.limit = self.left = limit

    def readline(self, size: int = -1) -> bytes:
        cap = self.left + 1 if size < 0 else min(size, self.left + 1)
        line: bytes = self._raw.readline(cap)
        self.left -= len(line)
        if self.left < 0:
            raise http.client.LineTooLong(f"request line and headers over {self.limit} bytes")
        return line

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


class _Server(ThreadingHTTPServer):
    """ThreadingHTTPServer that serves at most `bounds.max_connections` at once; its
    handler answers each request with `answer` (`failed` when `answer` raises)."""

    answer: Handle
    failed: Callable[[Exception, str], Reply]
    bounds: Bounds | None = None
    # socketserver's default backlog is 5: a burst of connections (Toxiproxy dials one per
    # client it accepts) would wait for SYN retransmits, seconds each, before being served.
    request_queue_size = 1024

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._active = 0
        self._count_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        if self.bounds is not None:
            with self._count_lock:
                full = self._active >= self.bounds.max_connections
                if not full:
                    self._active += 1
            if full:
                self.shutdown_request(request)
                self.bounds.refused("connection", f"over {self.bounds.max_connections} "
                                    f"connections at once, from {client_address[0]}")
                return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            if self.bounds is not None:
                with self._count_lock:
                    self._active -= 1


class LoopbackServer:
    """Serves `handle` on a free loopback port; `failed` answers when `handle` raises."""

    def __init__(self, handle: Handle, failed: Callable[[Exception, str], Reply],
                 name: str, bounds: Bounds | None = None) -> None:
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.answer = handle
        self._server.failed = failed
        self._server.bounds = bounds
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True,
                                        name=name)

    def start(self) -> None:
        """Start serving."""
        self._thread.start()

    def stop(self) -> None:
        """Stop serving and close the port."""
        if self._thread.ident is not None:
            self._server.shutdown()
        self._server.server_close()


class _Handler(BaseHTTPRequestHandler):
    """Hands each request whole to its server's `answer`, within the server's bounds."""

    protocol_version = "HTTP/1.1"  # keep-alive: a connection per request costs ~1 ms
    # Headers and body are separate writes: with Nagle's algorithm on, the body waits
    # for the client's delayed ACK (~40 ms per call).
    disable_nagle_algorithm = True
    server: _Server

    def setup(self) -> None:
        super().setup()
        if self.server.bounds is not None:
            self.rfile = _HeaderBudget(self.rfile, self.server.bounds.max_header_bytes)

    def handle_one_request(self) -> None:
        if isinstance(self.rfile, _HeaderBudget):
            self.rfile.left = self.rfile.limit  # each request has the whole budget
        super().handle_one_request()

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        # Malformed or oversized request lines and headers (http.server's own refusals).
        if self.server.bounds is not None:
            self.server.bounds.refused("request", f"HTTP {code}: {message or ''}")
        super().send_error(code, message, explain)

    def _serve(self) -> None:
        bounds = self.server.bounds
        headers = {k.lower(): v for k, v in self.headers.items()}
        refusal = bounds.check(self.command, self.path, headers, self.client_address[0]) \
            if bounds is not None else None
        if refusal is not None:
            self.close_connection = True
            self._reply(*refusal)
            self._drain()
            return
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        try:
            status, out, data = self.server.answer(self.command, self.path, headers, body,
                                                   self.client_address[0])
        except Exception as exc:  # noqa: BLE001 - answered by `failed`
            status, out, data = self.server.failed(exc, self.path)
        self._reply(status, out, data)

    def _reply(self, status: int, out: dict[str, str], data: bytes) -> None:
        # A client killed or stopped mid-call has gone away: nothing to answer.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self.send_response(status)
            for key, value in out.items():
                self.send_header(key, value)
            if not any(key.lower() == "content-length" for key in out):
                self.send_header("Content-Length", str(len(data)))
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()

    def _drain(self) -> None:
        """Half-close, then discard a little of the unread body (never all of it), so
        the client reads the refusal before the close resets the connection."""
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_WR)
            self.connection.settimeout(1.0)
            left = _DRAIN
            while left > 0 and (chunk := self.connection.recv(min(left, 16384))):
                left -= len(chunk)

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _serve

    def log_message(self, *args: Any) -> None:  # the history is the log
        pass
