"""The emulator's own record of the requests it answered: evidence the solution cannot write.

The moto server process (kit/sandbox/moto_main.py) appends one JSON line per answer to a
file in the sandbox's directory, which it alone writes (mode 0600, the kit's user; no
process of the solution sees that directory: the deploy sandbox shows only its working copy,
the provider reads run copies only). A request still unanswered after `STUCK_SECONDS` gets
a line of its own (`pending`), so a hung handler shows before it ends, or if it never does.

The kit reads it to decide blame (kit/deploy/evidence.py): an emulator gap, outage or slow
answer is the kit's only when this journal, or the kit's own probe, shows it; never from
what Terraform printed, which a solution can forge (a precondition's `error_message`).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

STUCK_SECONDS = 10.0  # an answer slower than this is the emulator's, not a big plan's
_CODE = (re.compile(rb"<Code>([^<]{1,200})</Code>"),
         re.compile(rb'"__type"\s*:\s*"([^"]{1,200})"'))


@dataclass(frozen=True)
class Answer:
    """One request the emulator answered (or had not answered after STUCK_SECONDS)."""

    service: str
    action: str
    status: int  # 0 for a request still pending
    code: str  # the AWS error code of a 4xx/5xx answer, "" otherwise
    seconds: float
    pending: bool = False

    def __str__(self) -> str:
        if self.pending:
            return f"{self.service} {self.action} unanswered after {self.seconds:.0f} s"
        code = f" {self.code}" if self.code else ""
        return f"{self.service} {self.action}: HTTP {self.status}{code} in {self.seconds:.1f} s"


def error_code(status: int, headers: Any, body: bytes) -> str:
    """The AWS error code of an answer: its x-amzn-ErrorType header or its body's code."""
    if status < 400:
        return ""
    typed = headers.get("x-amzn-ErrorType") if headers is not None else None
    if typed:
        return str(typed).split(":", 1)[0].rsplit("#", 1)[-1]
    for pattern in _CODE:
        found = pattern.search(body[:4096])
        if found:
            return found.group(1).decode(errors="replace").rsplit("#", 1)[-1]
    return ""


class Writer:
    """The moto process's side: one line per answer, and one per request stuck unanswered."""

    def __init__(self, path: Path) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self._file = os.fdopen(fd, "a", buffering=1)
        self._lock = threading.Lock()
        self._ids = itertools.count()
        self._open: dict[int, tuple[float, str, str]] = {}
        threading.Thread(target=self._watch, name="journal-watch", daemon=True).start()

    def begin(self, service: str, action: str) -> int:
        """Note a request that has arrived; its id for `end`."""
        ident = next(self._ids)
        with self._lock:
            self._open[ident] = (time.monotonic(), service, action)
        return ident

    def end(self, ident: int, action: str, status: int, code: str) -> None:
        """Record the answer to request `ident` (its action known by now)."""
        with self._lock:
            started, service, _ = self._open.pop(ident)
            self._write({"service": service, "action": action, "status": status,
                         "code": code, "seconds": round(time.monotonic() - started, 3)})

    def _write(self, entry: dict[str, Any]) -> None:
        self._file.write(json.dumps(entry) + "\n")

    def _watch(self) -> None:
        """Write a `pending` line, once, for each request open longer than STUCK_SECONDS."""
        told: set[int] = set()
        while True:
            time.sleep(1.0)
            now = time.monotonic()
            with self._lock:
                for ident, (started, service, action) in self._open.items():
                    if ident not in told and now - started > STUCK_SECONDS:
                        told.add(ident)
                        self._write({"service": service, "action": action, "status": 0,
                                     "code": "", "seconds": round(now - started, 3),
                                     "pending": True})
                told &= set(self._open)


class Journal:
    """The kit's side: read what the emulator answered since a mark."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def mark(self) -> int:
        """Where the journal ends now (read `since` it after a command)."""
        try:
            return self.path.stat().st_size
        except FileNotFoundError:
            return 0

    def since(self, mark: int) -> tuple[Answer, ...]:
        """Every answer recorded after `mark` (a torn last line is left out)."""
        try:
            with self.path.open("rb") as source:
                source.seek(mark)
                data = source.read()
        except FileNotFoundError:
            return ()
        answers = []
        for line in data.splitlines():
            try:
                answers.append(Answer(**json.loads(line)))
            except (ValueError, TypeError):
                continue  # a line being written as the kit reads
        return tuple(answers)


def journaling(writer: Writer, service: str, action: Callable[[], str],
               answer: Callable[[], Any]) -> Any:
    """Call `answer` (a moto handler returning a flask Response), recording it in `writer`
    under `action()`, read once the handler has read the request."""
    ident = writer.begin(service, "?")
    status, code = 0, ""
    try:
        response = answer()
        status = int(getattr(response, "status_code", 200))
        if status >= 400:
            code = error_code(status, response.headers, response.get_data())
        return response
    except Exception as exc:
        status = int(getattr(exc, "code", None) or 500)  # werkzeug's HTTPException has one
        raise
    finally:
        try:
            name = action()
        except Exception:  # noqa: BLE001 - a request moto could not parse still counts
            name = "?"
        writer.end(ident, name, status, code)
