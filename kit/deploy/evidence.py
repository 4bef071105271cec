"""What the kit itself observed of the emulator while a Terraform command ran.

Blame of a failed deploy (kit/deploy/terraform.py `classify`) is decided from this, never
from Terraform's output alone, which the solution can write (a precondition's
`error_message` can read "connect: connection refused"):
- `answers`: the emulator's journal of the command's requests (kit/sandbox/journal.py);
- `outage`: what the kit saw when it probed the emulator after the command (None: it
  answered);
- `journaled`: False when the primary emulator keeps no journal (LocalStack): then a gap
  is accepted from Terraform's text, but never from a diagnostic of the solution's own
  expressions (the one rule that holds without a journal).

The RDS front (kit/rds/front.py) forwards every request it does not serve to moto, whose
journal records it; what it serves itself is the kit's data plane, whose failures are
recorded by the plane (`DataPlane.errors`) and blamed on the kit from there.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from kit.sandbox.journal import STUCK_SECONDS, Answer, Journal

KIT_SERVICES = ("moto_api", "unknown")  # the kit's own admin calls, not the deploy's


@dataclass(frozen=True)
class Evidence:
    """The emulator's answers during one command, and whether it still answered after."""

    answers: tuple[Answer, ...] = ()
    outage: str | None = None
    journaled: bool = True
    stuck_seconds: float = field(default=STUCK_SECONDS)

    @property
    def deploy_answers(self) -> tuple[Answer, ...]:
        """The answers to the deploy's own requests (not the kit's admin calls)."""
        return tuple(a for a in self.answers if a.service not in KIT_SERVICES)

    def slow(self) -> list[Answer]:
        """Answers slower than the bound, and requests left unanswered past it."""
        return [a for a in self.deploy_answers
                if a.pending or a.seconds > self.stuck_seconds]

    def answered(self, pattern: str) -> Answer | None:
        """The first answer whose "service action status code" line matches `pattern`."""
        found = re.compile(pattern)
        for answer in self.deploy_answers:
            if not answer.pending and found.search(
                    f"{answer.service} {answer.action} {answer.status} {answer.code}"):
                return answer
        return None

    def slowest(self) -> float:
        """The longest the emulator took to answer one of the deploy's requests."""
        return max((a.seconds for a in self.deploy_answers), default=0.0)


# A command no witness watched (e.g. bench/fidelity.py, which runs no solution of anyone):
# Terraform's text decides, but for the solution's own expressions (kit/deploy/divergences.py).
UNWATCHED = Evidence(journaled=False)


class Witness:
    """Watches the sandbox's emulators around each command: marks their journals before,
    reads them and probes the emulators after."""

    def __init__(self, journals: Sequence[Journal], probes: Sequence[Callable[[], str | None]],
                 journaled: bool = True) -> None:
        self.journals = tuple(journals)
        self.probes = tuple(probes)
        self.journaled = journaled

    def mark(self) -> tuple[int, ...]:
        """Where each journal ends before the command."""
        return tuple(j.mark() for j in self.journals)

    def evidence(self, marks: tuple[int, ...]) -> Evidence:
        """What the journals recorded since `marks`, and the probes' findings now."""
        answers = tuple(a for j, m in zip(self.journals, marks, strict=True)
                        for a in j.since(m))
        outages = [seen for probe in self.probes if (seen := probe())]
        return Evidence(answers, "; ".join(outages) or None, self.journaled)
