"""A long-lived AWS provider process that every terraform command of a sandbox attaches to.

The hashicorp/aws provider binary takes seconds to start (it initialises hundreds of
services) and terraform starts it afresh several times per command. Started once with
`-debug`, it prints a TF_REATTACH_PROVIDERS value; terraform then talks to this process
instead of launching its own. Commands of one sandbox run one at a time, so they never
configure the shared provider concurrently.

It runs confined like Terraform (kit/sandbox/confine.py), as the deploy user: it sees its
binary, the sandbox's run directories (read-only: resources that upload a local file read
the solution's copy), its working directory (links to the solution's files) and its socket
directory, which the Terraform sandboxes are shown too;
it keeps the host's network, as it must reach the emulator.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from kit import settings
from kit.deploy.override import SERVICES, endpoint_env
from kit.errors import ToolchainError
from kit.sandbox import identity
from kit.sandbox.confine import Confinement
from kit.sandbox.emulator import Routes
from kit.sandbox.limits import DEPLOY
from kit.sandbox.process import ManagedProcess
from kit.sandbox.view import View
from kit.toolchain import provider_path

READY_TIMEOUT = 120.0
_REATTACH = re.compile(r"TF_REATTACH_PROVIDERS='(\{.*\})'")
# The provider reads this in its own process: waiters poll fast against the emulator.
PROVIDER_ENV = {"KIT_EMULATOR_WAITERS": "1"}


class ProviderServer:
    """The hashicorp/aws provider in debug (reattach) mode."""

    def __init__(self, workdir: Path, routes: Routes) -> None:
        binary = provider_path("aws", settings.AWS_PROVIDER["version"])
        if not binary.exists():
            raise ToolchainError(f"the AWS provider is not in the mirror ({binary}): "
                                 "run `make setup`")
        self.log = workdir / "provider-aws.log"
        sockets, runs = workdir / "plugin", workdir / "runs"  # runs/: kit/run/sandbox.py
        deploy = identity.deploy()
        sockets.mkdir(mode=0o700)
        identity.give(sockets, deploy)
        # A directory of its own: the provider resolves a solution's relative file paths
        # (an object's `source`, a function's `filename`) against it, and each deploy
        # links its solution's files there (kit/deploy/terraform.py).
        self.cwd = workdir / "provider-cwd"
        self.cwd.mkdir()
        env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp",
               "PLUGIN_UNIX_SOCKET_DIR": str(sockets), **PROVIDER_ENV,
               **endpoint_env(routes.primary.url, routes.away_from_primary(SERVICES))}
        view = View().program(binary).show(runs, self.cwd).show(sockets, writable=True)
        self.process = ManagedProcess(
            "provider-aws", [str(binary), "-debug"], self.log, env=env, cwd=self.cwd,
            confinement=Confinement("provider", view, DEPLOY, identity=deploy, network="host"))
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
            # It printed its pid inside its sandbox; terraform checks that the pid it is
            # given is alive, so give the host's (a confined terraform is given its own:
            # kit/deploy/terraform.py).
            attach["Pid"] = self.process.pid
            self.reattach = json.dumps({f"{host}/hashicorp/aws": attach
                                        for host in settings.REGISTRY_HOSTS})
        return found is not None

    def stop(self) -> None:
        """Stop the provider."""
        self.process.stop()
