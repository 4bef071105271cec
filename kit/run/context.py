"""What the stages of one run share: its inputs, directories, sandbox and ledger, and the
clock that times each stage."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kit import aws, interrupt
from kit.deploy import hcl
from kit.deploy.terraform import Terraform
from kit.recorder import Recorder
from kit.run.sandbox import Sandbox
from kit.scenario import Scenario

# Under kit.run: the stage lines are what tests/integration/conftest.py's CtrlC listens to.
log = logging.getLogger(__name__)


class Stages:
    """Times each stage of the run and logs when each one begins."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.timings: dict[str, float] = {}

    @contextlib.contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        interrupt.checkpoint()
        log.info("%s: stage %s", self.label, name)
        started = time.monotonic()
        try:
            yield
        finally:
            self.timings[name] = self.timings.get(name, 0.0) + time.monotonic() - started


@dataclass
class RunContext:
    """One run's shared context; the deploy stage fills in config, tf and harness."""

    scenario: Scenario
    solution: Path
    fault: str
    seed: int
    run_dir: Path
    work: Path
    sandbox: Sandbox
    stage: Stages
    stack: contextlib.ExitStack
    recorder: Recorder = field(default_factory=Recorder)
    config: hcl.Configuration | None = None
    tf: Terraform | None = None
    harness: aws.Credentials = aws.ADMIN  # replaced by the harness user's key at init
    # Wall clock at the start: no request of the run is older (final.iam's `since`).
    started_at: float = field(default_factory=time.time)

    def admin(self, service: str, region: str = aws.REGION) -> Any:
        """A boto3 client of `service` in `region` as the kit's admin, straight to its
        emulator."""
        return aws.client(service, self.sandbox.endpoint(service), region=region)
