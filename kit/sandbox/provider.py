"""A long-lived AWS provider process that every terraform command of a sandbox attaches to.

The hashicorp/aws provider binary takes seconds to start (it initialises hundreds of
services) and terraform starts it afresh several times per command. Started once with
`-debug`, it prints a TF_REATTACH_PROVIDERS value; terraform then talks to this process
instead of launching its own. Commands of one sandbox run one at a time, so they never
configure the shared provider concurrently.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from kit import settings
from kit.deploy.override import endpoint_env
from kit.deploy.toolchain import provider_path
from kit.errors import ToolchainError
from kit.sandbox.process import ManagedProcess

READY_TIMEOUT = 120.0
_REATTACH = re.compile(r"TF_REATTACH_PROVIDERS='(\{.*\})'")
# The provider reads this in its own process: waiters poll fast against the emulator.
PROVIDER_ENV = {"KIT_EMULATOR_WAITERS": "1"}


class ProviderServer:
    """The hashicorp/aws provider in debug (reattach) mode."""

    def __init__(self, workdir: Path, endpoint: str, rds_endpoint: str | None = None) -> None:
        binary = provider_path("aws", settings.AWS_PROVIDER["version"])
        if not binary.exists():
            raise ToolchainError(f"the AWS provider is not in the mirror ({binary}): "
                                 "run `make setup`")
        self.log = workdir / "provider-aws.log"
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(workdir),
               **PROVIDER_ENV, **endpoint_env(endpoint)}
        if rds_endpoint:  # RDS goes through the kit's front (kit/rds/front.py)
            env["AWS_ENDPOINT_URL_RDS"] = rds_endpoint
        self.process = ManagedProcess("provider-aws", [str(binary), "-debug"], self.log,
                                      env=env, cwd=workdir)
        self.reattach: str | None = None

    def wait_ready(self) -> None:
        """Block until the provider printed its reattach address."""
        self.process.wait_ready(self._ready, READY_TIMEOUT, "its reattach address")

    def _ready(self) -> bool:
        found = _REATTACH.search(self.log.read_text(errors="replace"))
        if found:
            # Keyed by registry address: terraform resolves hashicorp/aws on its registry,
            # OpenTofu on its own, so offer the same process under both.
            attach = next(iter(json.loads(found.group(1)).values()))
            self.reattach = json.dumps({f"{host}/hashicorp/aws": attach
                                        for host in settings.REGISTRY_HOSTS})
        return found is not None

    def stop(self) -> None:
        """Stop the provider."""
        self.process.stop()
