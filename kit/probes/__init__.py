"""Documented AWS behaviours the scenarios rely on, each with a probe that tells whether an
emulator has it.

A probe acts on an emulator directly, as the kit's admin (no gateway: the behaviour of the
emulator itself is what is measured), makes resources of its own (unique names) and returns
an `Observation`: whether the emulator behaves as the AWS documentation quoted in `aws`
says, and what it saw. The same probes fill the fidelity table of docs/emulators.md
(tests/integration/test_emulator_behaviour.py runs each on moto and on LocalStack and checks
the table against what it measured) and tell a cross-check (kit/evaluate/crosscheck.py) which
emulator matches AWS where their verdicts disagree (each invariant's row names the behaviours
it rests on: kit/checks/invariants.py `relied_on`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

Clients = Callable[[str], Any]  # service name -> a boto3 admin client for the emulator


@dataclass(frozen=True)
class Observation:
    """What a probe saw: whether it matches the documented behaviour, in one line."""

    matches: bool
    detail: str


@dataclass(frozen=True)
class Behaviour:
    """One documented behaviour: where AWS states it, and the probe that checks it."""

    id: str
    title: str
    aws: str  # the documentation's words, and where they are
    probe: Callable[[Clients], Observation]


def _registry() -> dict[str, Behaviour]:
    from kit.probes import iam, kms, sqs

    return {b.id: b for b in (*sqs.BEHAVIOURS, *iam.BEHAVIOURS, *kms.BEHAVIOURS)}


def behaviours() -> dict[str, Behaviour]:
    """Every behaviour the kit can probe, by id."""
    return _registry()


def observe(ids: Iterable[str], clients: Clients) -> dict[str, Observation]:
    """Run the probes of `ids` on one emulator; a probe that breaks is reported, not raised
    (the emulator failed a call AWS answers)."""
    found = _registry()
    out: dict[str, Observation] = {}
    for behaviour_id in ids:
        try:
            out[behaviour_id] = found[behaviour_id].probe(clients)
        except Exception as exc:  # noqa: BLE001 - an emulator's error is an observation
            out[behaviour_id] = Observation(False, f"the probe failed: {type(exc).__name__}: "
                                            f"{str(exc)[:200]}")
    return out


def of_services(services: Iterable[str]) -> list[str]:
    """The behaviours of the services a run reached (by the service their id names)."""
    wanted = set(services)
    return [b for b in _registry() if b.split(".")[0] in wanted]


def verdict(by_emulator: Mapping[str, Observation]) -> str:
    """Which emulators behave as AWS documents, in words."""
    right = [name for name, seen in by_emulator.items() if seen.matches]
    if len(right) == len(by_emulator):
        return "both behave as AWS documents"
    if not right:
        return "neither behaves as AWS documents"
    return f"{' and '.join(right)} behaves as AWS documents"


def as_dict(observation: Observation) -> dict[str, Any]:
    """Plain data for reports."""
    return asdict(observation)
