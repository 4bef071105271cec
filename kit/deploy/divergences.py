"""Known ways the emulator differs from AWS, and how a failed deploy's output shows them.

`classify` (kit/deploy/terraform.py) blames a failed deploy on the emulator only on
evidence: every error in Terraform's output must be an emulator gap, named here, for the
deploy to be the kit's `error`. Any other error is Terraform's own diagnostic and the
solution's `fail`, so a solution cannot turn its own mistake into an `error` (which drops
the run from the reward) by also touching a gap.

Two kinds of evidence:
- general signs, which name the action: an action moto does not implement or fails on
  (kit/sandbox/fidelity/errors.py answers those with NotImplemented or
  KitEmulatorFailure), any other HTTP 5xx answer, an answer the AWS SDK cannot parse, an
  emulator address that does not resolve;
- `KNOWN`: specific refusals found by `make fidelity` (fidelity/corpus) or by the kit's
  tests, each with the request AWS accepts and the example that shows it.

Divergences the kit has fixed are not listed (kit/sandbox/fidelity/ fixes them, each with
a test); when a fix lands, its entry goes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Divergence:
    """One known difference between moto and AWS."""

    name: str  # stable id: <service>.<what>
    pattern: str  # regex over one error of Terraform's output
    gap: str  # what moto does, and what AWS does instead
    seen_in: str  # where it shows (a corpus example or a test)
    evidence: str  # an error of Terraform's output that shows it (tested against pattern)
    aws_accepts: bool = True  # False: AWS refuses it too, so it is no gap (documented only)


@dataclass(frozen=True)
class Gap:
    """The emulator gap one error of a failed deploy shows."""

    name: str
    detail: str

    def __str__(self) -> str:
        return f"{self.name}: {self.detail}"


KNOWN: tuple[Divergence, ...] = (
)

_NOT_IMPLEMENTED = re.compile(r"api error NotImplemented: (?P<detail>[^\n]*)")
_EMULATOR_FAILURE = re.compile(r"api error KitEmulatorFailure: (?P<detail>[^\n]*)")
_OPERATION = r"operation error (?P<service>[\w ]+): (?P<operation>\w+), "
_SERVER_ERROR = re.compile(_OPERATION + r"https response error StatusCode: (?P<status>5\d\d)")
_UNPARSABLE = re.compile(_OPERATION + r"https response error StatusCode: \d+, RequestID: "
                         r"[^,]*, deserialization failed")
# Hosts the AWS SDK derives from the sandbox's endpoint (S3 Control: <account>.<host>).
_UNRESOLVED = re.compile(r"lookup (?P<host>[\w.-]*(?:127\.0\.0\.1|localhost)|"
                         r"[\w.-]+\.amazonaws\.com)(?::\d+)?(?: on [\d.:]+)?: no such host")
_ERROR_START = re.compile(r"^Error: ", re.M)
_GAP_SUFFIX = ": an emulator gap, not an AWS answer"


def _general(error: str) -> Gap | None:
    for pattern, name in ((_NOT_IMPLEMENTED, "moto.not-implemented"),
                          (_EMULATOR_FAILURE, "moto.failure")):
        found = pattern.search(error)
        if found:
            return Gap(name, found.group("detail").removesuffix(_GAP_SUFFIX))
    found = _SERVER_ERROR.search(error)
    if found:
        return Gap("moto.server-error", f"the emulator answered HTTP {found['status']} to "
                   f"{found['service']} {found['operation']}")
    found = _UNPARSABLE.search(error)
    if found:
        return Gap("moto.unparsable-answer", f"the AWS SDK cannot parse the emulator's answer "
                   f"to {found['service']} {found['operation']}")
    found = _UNRESOLVED.search(error)
    if found:
        return Gap("sandbox.unresolved-address", f"the emulator's address {found['host']} "
                   "does not resolve")
    return None


def gap_of(error: str) -> Gap | None:
    """The emulator gap one error of Terraform's output shows; None if it shows none."""
    general = _general(error)
    if general:
        return general
    for known in KNOWN:
        if known.aws_accepts and re.search(known.pattern, error):
            return Gap(known.name, known.gap)
    return None


def errors(output: str) -> list[str]:
    """Each `Error:` diagnostic of Terraform's output (-no-color), with its detail."""
    starts = [m.start() for m in _ERROR_START.finditer(output)]
    ends = [*starts[1:], len(output)] if starts else []
    return [output[a:b].strip() for a, b in zip(starts, ends, strict=True)]


def gaps(output: str) -> list[Gap] | None:
    """The emulator gaps a failed command's output shows, when every error it reports is
    one (deduplicated, in order); None when any error is not a known gap, or there is
    none."""
    found = [gap_of(error) for error in errors(output)]
    if not found or any(g is None for g in found):
        return None
    return list(dict.fromkeys(g for g in found if g is not None))
