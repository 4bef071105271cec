"""A loopback HTTP server in a background thread for the kit's own services (the gateway,
the RDS front): each request is handed whole to one function, which returns the reply."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = tuple[int, dict[str, str], bytes]
# (method, path, headers with lower-case names, body, client address) -> reply
Handle = Callable[[str, str, dict[str, str], bytes, str], Reply]


class LoopbackServer:
    """Serves `handle` on a free loopback port; `failed` answers when `handle` raises."""

    def __init__(self, handle: Handle, failed: Callable[[Exception, str], Reply],
                 name: str) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(handle, failed))
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


def _handler(handle: Handle, failed: Callable[[Exception, str], Reply]
             ) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive: a connection per request costs ~1 ms
        # Headers and body are separate writes: with Nagle's algorithm on, the body waits
        # for the client's delayed ACK (~40 ms per call).
        disable_nagle_algorithm = True

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            try:
                status, out, data = handle(self.command, self.path, headers, body,
                                           self.client_address[0])
            except Exception as exc:  # noqa: BLE001 - answered by `failed`
                status, out, data = failed(exc, self.path)
            # A client killed or stopped mid-call has gone away: nothing to answer.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.send_response(status)
                for key, value in out.items():
                    self.send_header(key, value)
                if not any(key.lower() == "content-length" for key in out):
                    self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _serve

        def log_message(self, *args: Any) -> None:  # the history is the log
            pass

    return Handler
