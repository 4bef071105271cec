"""A fake GitHub REST API on a free loopback port: the issue-comment calls of kit/ci/github.py,
with pagination, recording every request (to prove a comment was created once, then
updated, never duplicated)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse


@dataclass
class State:
    """The fake's comments, by id, and every request it answered."""

    comments: dict[int, dict[str, Any]] = field(default_factory=dict)
    requests: list[tuple[str, str, str]] = field(default_factory=list)  # method, path, token
    forbid_writes: bool = False
    next_id: int = 1

    def add(self, number: int, body: str, user: str = "someone") -> dict[str, Any]:
        """A comment on PR `number`, as the API returns it."""
        comment = {"id": self.next_id, "body": body, "issue": number, "user": {"login": user},
                   "html_url": f"https://github.example/pr/{number}#c{self.next_id}"}
        self.comments[self.next_id] = comment
        self.next_id += 1
        return comment

    def on(self, number: int) -> list[dict[str, Any]]:
        """The comments of PR `number`, oldest first."""
        return [c for c in self.comments.values() if c["issue"] == number]


def _handler(state: State, repo: str) -> type[BaseHTTPRequestHandler]:
    prefix = f"/repos/{repo}/issues/"

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _answer(self, status: int, payload: Any) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _begin(self) -> tuple[str, dict[str, list[str]], dict[str, Any]]:
            url = urlparse(self.path)
            state.requests.append((self.command, url.path, self.headers.get("Authorization",
                                                                            "")))
            size = int(self.headers.get("Content-Length") or 0)
            sent = json.loads(self.rfile.read(size)) if size else {}
            return url.path, parse_qs(url.query), sent

        def do_GET(self) -> None:  # noqa: N802
            path, query, _ = self._begin()
            parts = path.removeprefix(prefix).split("/")
            if not path.startswith(prefix) or len(parts) != 2 or parts[1] != "comments":
                return self._answer(404, {"message": "Not Found"})
            per_page, page = int(query["per_page"][0]), int(query.get("page", ["1"])[0])
            found = state.on(int(parts[0]))
            self._answer(200, found[(page - 1) * per_page: page * per_page])

        def do_POST(self) -> None:  # noqa: N802
            path, _, sent = self._begin()
            parts = path.removeprefix(prefix).split("/")
            if state.forbid_writes:
                return self._answer(403, {"message": "Resource not accessible by integration"})
            if not path.startswith(prefix) or len(parts) != 2 or parts[1] != "comments":
                return self._answer(404, {"message": "Not Found"})
            self._answer(201, state.add(int(parts[0]), sent["body"], "github-actions[bot]"))

        def do_PATCH(self) -> None:  # noqa: N802
            path, _, sent = self._begin()
            parts = path.removeprefix(prefix).split("/")
            if len(parts) != 2 or parts[0] != "comments" or int(parts[1]) not in state.comments:
                return self._answer(404, {"message": "Not Found"})
            comment = state.comments[int(parts[1])]
            comment["body"] = sent["body"]
            self._answer(200, comment)

    return Handler


@contextmanager
def serve(repo: str = "acme/infra") -> Iterator[tuple[str, State]]:
    """The fake API's base URL (a free loopback port) and its state."""
    state = State()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state, repo))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
