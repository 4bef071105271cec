"""Drive terraform or tofu on a copy of a solution: init, validate, apply, outputs, destroy.

A small subprocess layer over the CLI's `-json` outputs rather than python-terraform
(unmaintained since 2019) or tftest (no per-stage failure classification, and it hides the
CLI's own diagnostics). Terraform's diagnostics are kept verbatim.

Every command runs confined (kit/sandbox/confine.py) as the deploy user: it reads its
binary, the provider mirror and the kit's CLI config, writes only its working copy and a
private home, and has no network when it attaches to the sandbox's provider (a unix
socket); a configuration that reaches for anything else (`file("/...")`, a template or
module outside the copy) fails as the solution's own error.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kit import interrupt, settings
from kit.deploy import toolchain
from kit.deploy.command import Completed, run
from kit.deploy.hcl import Configuration, parse
from kit.deploy.override import endpoint_env, write_provider_config
from kit.errors import InputError, KitError, SolutionError, ToolchainError
from kit.sandbox import identity
from kit.sandbox.confine import Confinement
from kit.sandbox.limits import DEPLOY
from kit.sandbox.view import View

IGNORED = shutil.ignore_patterns(".terraform", "terraform.tfstate*", ".terraform.lock.hcl",
                                 ".git", "__pycache__")
TIMEOUTS = {"init": 300.0, "validate": 120.0, "apply": 600.0, "output": 60.0,
            "destroy": 600.0}
KIT_PROVIDERS = ("aws", "random")
_CONSTRAINT = re.compile(
    r"(?:no\s+available\s+releases\s+match\s+the\s+given\s+constraints\s+([^\n]*)|"
    r"locked provider registry\.\S+/hashicorp/(\w+) \S+ does not match)", re.I)
_PROVIDER_IN_ERROR = re.compile(r"provider (?:registry\.[a-z.]+/)?hashicorp/(\w+)", re.I)
_UNSUPPORTED_TYPE = re.compile(r'does not support (resource type|data source) "(aws_\w+)"')


@dataclass
class DeployFailure(SolutionError):
    """Terraform rejected the solution at `stage`; `diagnostics` is Terraform's own text."""

    stage: str
    diagnostics: str

    def __str__(self) -> str:
        return f"terraform {self.stage} failed:\n{self.diagnostics}"


@dataclass
class EnvironmentFailure(KitError):
    """Terraform failed because of the kit's environment (mirror, sandbox, timeout)."""

    stage: str
    reason: str
    diagnostics: str = field(default="")

    def __str__(self) -> str:
        return f"terraform {self.stage}: {self.reason}\n{self.diagnostics}".rstrip()


def classify(stage: str, result: Completed) -> KitError | SolutionError:
    """Decide whose fault a failed Terraform command is, with a message naming the cause."""
    text = result.stderr + result.stdout
    if result.returncode is None:
        return EnvironmentFailure(stage, f"timed out after {TIMEOUTS[stage]:.0f} s", text)
    if stage == "init" and _CONSTRAINT.search(text):
        provider = _PROVIDER_IN_ERROR.search(text)
        name = provider.group(1).lower() if provider else "aws"
        if name in KIT_PROVIDERS:
            have = ", ".join(toolchain.mirror_versions(name)) or "none"
            return EnvironmentFailure(
                stage, f"the provider mirror has no hashicorp/{name} version matching the "
                f"solution's constraint; the mirror has: {have}", text)
    trimmed = _outside_the_build(text)
    if trimmed:
        return EnvironmentFailure(stage, trimmed, text)
    if re.search(r"dial tcp 127\.0\.0\.1:\d+: connect: connection refused", text):
        return EnvironmentFailure(stage, "the sandbox emulator stopped answering", text)
    return DeployFailure(stage, text.strip())


def _outside_the_build(text: str) -> str | None:
    """Why a type Terraform calls unsupported is the kit's gap: it exists in the AWS
    provider but the kit's build leaves its service out (kit/deploy/provider_trim.py)."""
    found = _UNSUPPORTED_TYPE.search(text)
    path = toolchain.catalogue_path()
    if found is None or not path.exists():
        return None
    catalogue = json.loads(path.read_text())
    service = catalogue["types"].get(found.group(2))
    if service is None or service in catalogue["services"]:
        return None  # not an AWS provider type at all: the solution's own mistake
    return (f"{found.group(1)} {found.group(2)} (AWS service {service!r}) exists in "
            f"hashicorp/aws but is not in the kit's provider build, which has the services: "
            f"{', '.join(catalogue['services'])}")


class Terraform:
    """One working copy of a solution and the CLI that deploys it."""

    def __init__(self, solution: Path, workdir: Path, *, binary: str | None = None,
                 reattach: str | None = None) -> None:
        if not solution.is_dir():
            raise InputError(f"solution directory {solution} does not exist")
        if not any(solution.glob("*.tf")):
            raise InputError(f"solution directory {solution} holds no *.tf file")
        found = binary or settings.terraform_binary()
        if not found:
            raise ToolchainError("neither terraform nor tofu is installed: run `make setup`")
        self.binary = found
        self.dir = workdir / "solution"
        shutil.copytree(solution, self.dir, ignore=IGNORED, symlinks=False)
        self.identity = identity.deploy()
        identity.give(self.dir, self.identity)  # its working copy: the one place it writes
        home = self.home = workdir / "home"
        home.mkdir(exist_ok=True)
        # A scrubbed environment: no host credentials, no ~/.terraformrc, no proxies.
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "TMPDIR": str(home),
            "LANG": "C.UTF-8",
            "TF_CLI_CONFIG_FILE": str(toolchain.write_cli_config()),
            "TF_IN_AUTOMATION": "1",
            "TF_INPUT": "0",
            "CHECKPOINT_DISABLE": "1",
            "AWS_EC2_METADATA_DISABLED": "true",
            # Read by the provider (when terraform launches it): poll fast, the emulator
            # is consistent at once (see kit/deploy/provider_patches.py).
            "KIT_EMULATOR_WAITERS": "1",
        }
        self.reattach = reattach
        if reattach:  # as the host sees it (where no sandbox can be made)
            self.env["TF_REATTACH_PROVIDERS"] = reattach

    def configure(self, endpoint: str, config: Configuration | None = None,
                  endpoints: Mapping[str, str] | None = None) -> None:
        """Add the kit's provider override aimed at `endpoint` (per-service `endpoints`
        win); `config` is the solution's parse, when the caller already has it."""
        write_provider_config(self.dir, config or parse(self.dir), endpoint, endpoints)
        # Read by a provider that terraform launches itself (no reattach).
        self.env |= endpoint_env(endpoint, endpoints)

    def _cli(self, stage: str, *args: str) -> Completed:
        with contextlib.ExitStack() as stack:
            with interrupt.deferred():  # its cgroup is removed even on a Ctrl-C
                confinement = stack.enter_context(self.confinement())
            result = run([self.binary, *args], cwd=self.dir, env=self.env,
                         timeout=TIMEOUTS[stage], confinement=confinement)
        if not result.ok:
            raise classify(stage, result)
        return result

    def axes(self) -> dict[str, Any]:
        """How its commands are confined, for the run's record."""
        with self.confinement() as confinement:
            return confinement.axes()

    def confinement(self) -> Confinement:
        """What one command may see and reach (its own cgroup, removed after it)."""
        view = View().program(self.binary).show(settings.mirror_dir(),
                                                settings.cli_config_file())
        view.show(self.dir, writable=True)
        view.tmpfs[str(self.home)] = DEPLOY.tmp_size
        env = {}
        network = "host"  # terraform starts the AWS provider, which calls the emulator
        if self.reattach:
            # Attach to the sandbox's running provider instead of starting one per command:
            # its socket is all it needs. Terraform checks that the pid it is given is alive
            # (kill 0): in its sandbox, the provider's is not there, its own (2, the init's
            # first child) is.
            attach = json.loads(self.reattach)
            for entry in attach.values():
                entry["Pid"] = 2
                view.show(os.path.dirname(entry["Addr"]["String"]))
            env["TF_REATTACH_PROVIDERS"] = json.dumps(attach)
            network = "none"
        if toolchain.registry_mode():
            view.show(*(p for p in ("/etc/resolv.conf", "/etc/ssl") if os.path.exists(p)))
            view.show(settings.cache_dir() / "plugin-cache", writable=True)
            network = "host"
        return Confinement("deploy", view, DEPLOY, identity=self.identity, network=network,
                           env=env)

    def init(self) -> None:
        """Install providers from the kit's offline mirror."""
        self._cli("init", "init", "-input=false", "-no-color", "-backend=false")

    def validate(self) -> None:
        """Check the configuration is valid HCL and schema."""
        self._cli("validate", "validate", "-no-color")

    def apply(self, variables: Mapping[str, str] | None = None) -> None:
        """Create the stack."""
        self._cli("apply", "apply", "-auto-approve", "-input=false", "-no-color",
                  *self._var_args(variables))

    def outputs(self) -> dict[str, Any]:
        """The root module's outputs, by name, as plain values."""
        raw = json.loads(self._cli("output", "output", "-json", "-no-color").stdout or "{}")
        return {name: entry.get("value") for name, entry in raw.items()}

    def destroy(self, variables: Mapping[str, str] | None = None) -> None:
        """Delete the stack."""
        self._cli("destroy", "destroy", "-auto-approve", "-input=false", "-no-color",
                  *self._var_args(variables))

    def managed_values(self) -> set[str]:
        """Every string attribute value of the resources the solution manages (from state)."""
        state = json.loads((self.dir / "terraform.tfstate").read_text())
        values: set[str] = set()
        for resource in state.get("resources", []):
            if resource.get("mode") != "managed":
                continue
            for instance in resource.get("instances", []):
                values |= {v for v in instance.get("attributes", {}).values()
                           if isinstance(v, str)}
        return values

    @staticmethod
    def _var_args(variables: Mapping[str, str] | None) -> list[str]:
        return [f"-var={key}={value}" for key, value in (variables or {}).items()]
