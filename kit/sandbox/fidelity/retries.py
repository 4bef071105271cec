"""A retried request the emulator already answered gets the same answer again.

Every AWS SDK marks the attempts of one operation with the same `amz-sdk-invocation-id`
header and counts them in `amz-sdk-request: attempt=N; max=M` (AWS SDKs and Tools
reference guide, "Retry behavior"; botocore and aws-sdk-go-v2 both send them). When the
SDK does not get an answer it was given (a slow answer under load, a connection closed
under it), it sends the operation again: a create then meets the entity its first attempt
made, and the deploy fails with `EntityAlreadyExists: Role order-worker`, a `fail` the
solution did not cause. Here the second attempt of an invocation the emulator already
answered with success gets that answer again, as the first attempt would have been read.

Only for the kit's own credentials (the deploy's provider and the kit's clients): a
workload's requests keep AWS's at-least-once answers to retries (a retried SendMessage
whose answer was lost sends twice), which the scenarios' faults rely on.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from typing import Any

from kit.sandbox.moto import ACCOUNT_ID  # the access key of the deploy and the kit

KEPT = 4096  # answers kept for replay (the last ones: a retry follows its first attempt)
_ATTEMPT = re.compile(r"attempt=(\d+)")


class Replays:
    """The successful answers of the last KEPT invocations, by invocation id."""

    def __init__(self) -> None:
        self._answers: OrderedDict[str, tuple[int, list[tuple[str, str]], bytes]] = \
            OrderedDict()
        self._lock = threading.Lock()

    def replay(self, request: Any) -> tuple[int, list[tuple[str, str]], bytes] | None:
        """The answer already given to this retried request's invocation, if any."""
        invocation, attempt = _invocation(request)
        if invocation is None or attempt < 2:
            return None
        with self._lock:
            return self._answers.get(invocation)

    def keep(self, request: Any, response: Any) -> None:
        """Remember a successful answer for the retries of its invocation."""
        invocation, _ = _invocation(request)
        status = int(getattr(response, "status_code", 0))
        if invocation is None or not 200 <= status < 300 or response.is_streamed:
            return
        with self._lock:
            self._answers[invocation] = (status, list(response.headers.items()),
                                         response.get_data())
            while len(self._answers) > KEPT:
                self._answers.popitem(last=False)


def _invocation(request: Any) -> tuple[str | None, int]:
    """(invocation id, attempt number) of an SDK request signed with the kit's own key;
    (None, 0) for any other request."""
    if f"Credential={ACCOUNT_ID}/" not in request.headers.get("Authorization", ""):
        return None, 0
    invocation = request.headers.get("amz-sdk-invocation-id")
    found = _ATTEMPT.search(request.headers.get("amz-sdk-request", ""))
    return invocation, int(found.group(1)) if found else 1
