"""The AWS emulator interface, and which emulator serves each AWS service of a sandbox.

An emulator is a service of the sandbox (moto server, LocalStack): it starts in its
constructor, and has `wait_ready`, `reset` and `stop` like every other service. Besides that
it says what the kit must know to use it: its endpoint, the account it serves, the admin
paths the gateway must refuse to workloads, and the AWS services it serves.

A sandbox has a primary emulator (`--emulator`) and, when the primary lacks a service a run
may call (LocalStack community has no RDS), moto serves that service only: `Routes` says who
serves what, for the provider (one AWS_ENDPOINT_URL_<SERVICE> per service routed away from
the primary), the gateway (per request, by the service its signature names) and the kit's
own clients. RDS always goes to the kit's RDS front (kit/rds/front.py), which answers for
the data plane of drills and passes everything else to moto. Every run records the routes
it had (`emulators` in the history and reports). What moto's RDS refers to (subnets, KMS
keys, its master secret) is looked up on the primary: kit/sandbox/localstack_split.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

NAMES = ("moto", "localstack")


class Emulator(Protocol):
    """What the kit needs of an AWS emulator (kit/sandbox/moto.py, kit/sandbox/localstack.py)."""

    name: str  # "moto" | "localstack"
    url: str  # its endpoint, http://127.0.0.1:<port>
    account_id: str  # the account the kit's credentials act in
    admin_paths: tuple[str, ...]  # path prefixes only the kit may call (never a workload)
    services: frozenset[str] | None  # AWS services it serves (None: every one the kit knows)

    def wait_ready(self) -> None:
        """Block until it answers (bounded); raises SandboxError with its log tail."""

    def reset(self) -> None:
        """Forget every resource (between runs of one sandbox)."""

    def stop(self) -> None:
        """Stop it and remove what it wrote."""


@dataclass(frozen=True)
class Routes:
    """Which emulator serves each AWS service: the primary, or the fallback (moto) for the
    services the primary lacks."""

    primary: Emulator
    fallback: Emulator | None = None
    # Services the kit answers itself before moto (RDS: kit/rds/front.py), by endpoint.
    fronts: Mapping[str, str] = field(default_factory=dict)

    def emulator(self, service: str) -> Emulator:
        """The emulator that serves `service`."""
        lacks = self.primary.services is not None and service not in self.primary.services
        return self.fallback if lacks and self.fallback is not None else self.primary

    def url(self, service: str) -> str:
        """The endpoint of `service`."""
        return self.fronts.get(service) or self.emulator(service).url

    def away_from_primary(self, services: Iterable[str]) -> dict[str, str]:
        """service -> endpoint, for those of `services` the primary does not serve."""
        return {s: self.url(s) for s in services if self.url(s) != self.primary.url}

    @property
    def admin_paths(self) -> tuple[str, ...]:
        """Every path prefix the gateway refuses: the admin APIs of all emulators behind it."""
        emulators = [self.primary, *([self.fallback] if self.fallback else [])]
        return tuple(dict.fromkeys(p for e in emulators for p in e.admin_paths))

    def served_by(self, services: Iterable[str]) -> dict[str, str]:
        """service -> the name of the emulator that serves it (the run's record)."""
        return {s: self.emulator(s).name for s in sorted(services)}
