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

from kit import interrupt, settings, toolchain
from kit.deploy import divergences, modules, requirements
from kit.deploy.command import Completed, run
from kit.deploy.evidence import Evidence, Witness
from kit.deploy.hcl import NOT_COPIED, Configuration, parse
from kit.deploy.override import (
    REGION,
    configurations,
    endpoint_env,
    write_backend_override,
    write_provider_config,
)
from kit.errors import InputError, KitError, SolutionError, ToolchainError
from kit.intake.files import read_regular
from kit.sandbox import identity
from kit.sandbox.confine import Confinement
from kit.sandbox.limits import DEPLOY
from kit.sandbox.view import View

IGNORED = shutil.ignore_patterns(*NOT_COPIED)
TIMEOUTS = {"init": 300.0, "validate": 120.0, "apply": 600.0,
            "plan": 300.0, "destroy": 600.0}
_STILL = re.compile(r"^(\S+): Still (\w+)\.\.\.", re.M)
_DONE = re.compile(r"^(\S+): (?:Creation|Modifications|Destruction|Read) complete", re.M)
_PLANNED = re.compile(r"^\s*# (\S+) (?:will be|must be) (\S+(?: \S+)?)", re.M)
_REFUSED = re.compile(r"dial tcp 127\.0\.0\.1:\d+: connect: connection refused")
_ELAPSED = re.compile(r"Still \w+\.\.\. \[(?:(\d+)h)?(?:(\d+)m)?(\d+)s elapsed\]")
# A resource in progress this long waits on a state the emulator never reaches (moto
# answers at once; KIT_EMULATOR_WAITERS polls fast): no plan's size explains it.
LONG_WAIT_SECONDS = 120.0
MAX_STATE = 256 * 1024 * 1024  # bytes of terraform.tfstate the kit reads back
_INVALID_TYPE = re.compile(r"Error: Invalid (?:resource type|data source)\s*\n")
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
    """Terraform failed because of the kit's environment (mirror, sandbox, timeout, an
    emulator gap: `gaps` names those, see kit/deploy/divergences.py)."""

    stage: str
    reason: str
    diagnostics: str = field(default="")
    gaps: tuple[str, ...] = field(default=())

    def __str__(self) -> str:
        return f"terraform {self.stage}: {self.reason}\n{self.diagnostics}".rstrip()


def classify(stage: str, result: Completed, evidence: Evidence | None = None,
             promised: bool = True) -> KitError | SolutionError:
    """Decide whose fault a failed Terraform command is, with a message naming the cause.

    The kit's own observations decide (`evidence`: the emulator's journal of the command's
    requests and the kit's probe after it, kit/deploy/evidence.py); Terraform's text only
    names what they confirm, since the solution can write it (a precondition's
    error_message). Without evidence (a command no witness watched) the text decides, but
    never a diagnostic of the solution's own expressions. `promised`: a prompt named the
    versions the kit offers (kit/deploy/requirements.py)."""
    text = result.stderr + result.stdout
    if result.returncode is None:
        return _timed_out(stage, text, evidence)
    if evidence is not None and evidence.outage:
        return EnvironmentFailure(stage, "the sandbox emulator stopped answering: "
                                  + evidence.outage, text, ("sandbox.outage",))
    unguarded = None if promised else requirements.short_circuit(text)
    if unguarded is not None:
        return EnvironmentFailure(stage, unguarded.message, text)
    own = divergences.own_expression(text)
    if own:  # its own condition failed: whatever its message says is the solution's
        return DeployFailure(stage, text.strip())
    unmet = requirements.unmet(text, promised) if stage == "init" else None
    if unmet is not None:  # a provider constraint or required_version the kit cannot meet
        if unmet.kit:
            return EnvironmentFailure(stage, unmet.message, text)
        return DeployFailure(stage, f"{unmet.message}\n\n{text.strip()}")
    trimmed = _outside_the_build(text)
    if trimmed:
        return EnvironmentFailure(stage, trimmed, text)
    if evidence is None and _REFUSED.search(text):  # no probe: the text is all there is
        return EnvironmentFailure(stage, "the sandbox emulator stopped answering", text)
    found = divergences.gaps(text, evidence)
    if found:
        return EnvironmentFailure(
            stage, "emulator gap: " + "; ".join(str(g) for g in found), text,
            tuple(g.name for g in found))
    return DeployFailure(stage, text.strip())


def _timed_out(stage: str, text: str, evidence: Evidence | None) -> KitError | SolutionError:
    """Whose fault a command killed at its time limit is.

    The rule: the solution's `fail` when the kit saw the emulator answer every request of
    the command within STUCK_SECONDS, still answering after it, and no resource waiting
    longer than LONG_WAIT_SECONDS (a wait AWS would have ended): the time then went to the
    number of resources the solution's plan has. Otherwise (or unwatched) the kit's."""
    limit = f"timed out after {TIMEOUTS[stage]:.0f} s" + _in_progress(text)
    if evidence is None or not evidence.journaled:
        return EnvironmentFailure(stage, limit, text, ("sandbox.timeout",))
    slow = evidence.slow()
    waited = _longest_wait(text)
    if evidence.outage or slow or waited > LONG_WAIT_SECONDS:
        seen = evidence.outage or (
            "; ".join(map(str, slow[:3])) if slow else
            f"a resource was still in progress after {waited:.0f} s")
        return EnvironmentFailure(stage, f"{limit}; the kit saw: {seen}", text,
                                  ("sandbox.timeout",))
    done = len(set(_DONE.findall(text)))
    return DeployFailure(stage, (
        f"the plan did not {stage} within the limit of {TIMEOUTS[stage]:.0f} s: {done} "
        f"resources completed{_in_progress(text) or ''}; the emulator answered every one "
        f"of its {len(evidence.deploy_answers)} requests within "
        f"{evidence.slowest():.1f} s, so the time went to the plan's size\n\n"
        + text.strip()[-4000:]))


def _longest_wait(text: str) -> float:
    """The longest a resource was reported still in progress ("Still creating... [2m0s
    elapsed]"), in seconds."""
    longest = 0.0
    for hours, minutes, seconds in _ELAPSED.findall(text):
        longest = max(longest, int(hours or 0) * 3600 + int(minutes or 0) * 60
                      + int(seconds))
    return longest


def _in_progress(text: str) -> str:
    """' while <resource> was still <doing>, ...' from a killed command's progress lines."""
    pending: dict[str, str] = {}
    for address, doing in _STILL.findall(text):
        pending[address] = doing
    for address in _DONE.findall(text):
        pending.pop(address, None)
    if not pending:
        return ""
    shown = list(pending.items())[-3:]
    return " while " + ", ".join(f"{a} was still {d}" for a, d in shown)


# Types whose provider writes a file during the run, for another resource to read (an
# archive_file's zip as a Lambda's `filename`, a local_file).
_FILE_WRITERS = re.compile(r'^\s*(?:data|resource)\s+"(?:archive_file|local_file|'
                           r'local_sensitive_file)"', re.M)


def _writes_files(copy: Path) -> bool:
    """Whether a Terraform file of the copy declares a type that writes a file."""
    return any(_FILE_WRITERS.search(tf.read_text(errors="replace"))
               for tf in copy.rglob("*.tf") if tf.is_file())


def _link_into_provider_cwd(solution: Path, cwd: Path) -> None:
    """Make the solution's files visible from the attached provider's working directory.

    A provider opens a relative path (aws_s3_object's `source`, aws_lambda_function's
    `filename`) against its own working directory; one that terraform starts inherits the
    solution's, but the sandbox's long-lived provider has its own (kit/deploy/provider.py).
    Its top-level entries are replaced by links to this solution's (one deploy at a time
    per sandbox)."""
    for stale in cwd.iterdir():
        if stale.is_symlink():
            stale.unlink()
    for entry in solution.iterdir():
        if not (cwd / entry.name).exists():
            (cwd / entry.name).symlink_to(entry)


def _outside_the_build(text: str) -> str | None:
    """Why a type Terraform calls unsupported is the kit's gap: it exists in the AWS
    provider but the kit's build leaves its service out (kit/toolchain/provider_trim.py)."""
    # Only in Terraform's own diagnostic of the type, not in any text that quotes one.
    found = next((m for e in divergences.errors(text) if _INVALID_TYPE.match(e)
                  for m in [_UNSUPPORTED_TYPE.search(e)] if m), None)
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

    # Watches the sandbox's emulators around each command, for blame (set by the run;
    # None: Terraform's text decides, see `classify`).
    witness: Witness | None = None

    def __init__(self, solution: Path, workdir: Path, *, binary: str | None = None,
                 reattach: str | None = None, provider_cwd: Path | None = None,
                 readable: tuple[Path, ...] = (), module: Path = Path("."),
                 promised: bool = True) -> None:
        if not solution.is_dir():
            raise InputError(f"solution directory {solution} does not exist")
        if not any((solution / module).glob("*.tf")):
            where = "" if module == Path(".") else f" in its terraform.dir {module}"
            raise InputError(f"solution directory {solution} holds no *.tf file{where}")
        self.module = module  # the root module, relative to the copy (terraform.dir)
        # A prompt named the versions the kit offers (a scenario run); False for a stack
        # written for AWS (kit/deploy/requirements.py says what changes).
        self.promised = promised
        self.local_backend = False  # a backend override (local state) was written
        found = binary or settings.terraform_binary()
        if not found:
            raise ToolchainError("neither terraform nor tofu is installed: run `make setup`")
        self.binary = found
        self.readable = readable  # shown to its commands read-only (e.g. modules it reaches)
        self.dir = workdir / "solution"
        # Links are copied as links, never followed by this (root) process: the gate refused
        # every link out of the solution (kit/deploy/intake.py); one made after it dangles in
        # the deploy sandbox, where only the copy is.
        shutil.copytree(solution, self.dir, ignore=IGNORED, symlinks=True)
        # Where every command runs and the state is: the copy keeps the repository's layout
        # around it, so module sources such as ../modules/x resolve as they do at home.
        self.root = self.dir / module
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
            # is consistent at once (see kit/toolchain/provider_patches.py).
            "KIT_EMULATOR_WAITERS": "1",
        }
        if module != Path(".") or _writes_files(self.dir):
            # The long-lived provider resolves a relative path (a Lambda's `filename`)
            # against its own cwd, which mirrors the copy's top as it was copied, not the
            # root module's directory nor a file another provider writes during the run
            # (an archive_file's zip): terraform starts the provider in the root module.
            reattach = None
        self.reattach = reattach
        if reattach:  # as the host sees it (where no sandbox can be made)
            self.env["TF_REATTACH_PROVIDERS"] = reattach
            if provider_cwd is not None:
                _link_into_provider_cwd(self.dir, provider_cwd)

    def configure(self, endpoint: str, config: Configuration | None = None,
                  endpoints: Mapping[str, str] | None = None, *,
                  region: str | None = REGION) -> None:
        """Add the kit's provider override aimed at `endpoint` (per-service `endpoints`
        win); `config` is the solution's parse, when the caller already has it; the default
        provider is moved to `region` (None: the solution's regions stay)."""
        config = config or parse(self.dir)
        write_provider_config(self.dir, config, endpoint, endpoints, region, self.module)
        # Any backend the root module declares is replaced by the copy's local state: a
        # team's, whatever its type; an untrusted solution's can only be local (the gate
        # refuses the others), whose `path` would move the state away from where it is read.
        self.local_backend = write_backend_override(self.dir, config, self.module) is not None
        # Read by a provider that terraform launches itself (no reattach).
        self.env |= endpoint_env(endpoint, endpoints)
        if configurations(config, self.module) > 1:
            # An attached provider is one process for every configuration: each alias's
            # configure would replace the last one's (region, default tags), so aliases in
            # other regions would land in one. Terraform starts one process per
            # configuration instead (slower to start, kept apart).
            self.env.pop("TF_REATTACH_PROVIDERS", None)
            self.reattach = None

    def _cli(self, stage: str, *args: str, attach: bool = True,
             accept: tuple[int, ...] = (0,)) -> Completed:
        """Run one terraform command confined as every solution command is; the kit's
        classified error unless it exits with one of `accept`."""
        env = self.env if attach else {k: v for k, v in self.env.items()
                                       if k != "TF_REATTACH_PROVIDERS"}
        with contextlib.ExitStack() as stack:
            with interrupt.deferred():  # its cgroup is removed even on a Ctrl-C
                confinement = stack.enter_context(self.confinement(attach))
            marks = self.witness.mark() if self.witness else ()
            result = run([self.binary, *args], cwd=self.root, env=env,
                         timeout=TIMEOUTS[stage], confinement=confinement)
        if result.returncode not in accept:
            raise classify(stage, result, self._evidence(marks), self.promised)
        return result

    def _evidence(self, marks: tuple[int, ...]) -> Evidence | None:
        """What the witness saw since `marks` (None: no witness)."""
        return self.witness.evidence(marks) if self.witness else None

    def axes(self) -> dict[str, Any]:
        """How its commands are confined, for the run's record."""
        with self.confinement() as confinement:
            return confinement.axes()

    def confinement(self, attach: bool = True) -> Confinement:
        """What one command may see and reach (its own cgroup, removed after it); `attach`:
        to the sandbox's provider, when it has one (an init does not: `init`)."""
        view = View().program(self.binary).show(settings.mirror_dir(),
                                                settings.cli_config_file(), *self.readable)
        view.show(self.dir, writable=True)
        view.tmpfs[str(self.home)] = DEPLOY.tmp_size
        env = {}
        network = "host"  # terraform starts the AWS provider, which calls the emulator
        if self.reattach and not attach:
            network = "none"  # an init installs from the mirror: nothing to reach
        elif self.reattach:
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
        # With the kit's `backend "local"` override Terraform wants that backend initialised
        # (it is local state: nothing is contacted); otherwise none is.
        backend = () if self.local_backend else ("-backend=false",)
        # Never attached: Terraform skips an attached (reattached) provider's version
        # constraints, so a stack requiring `hashicorp/aws < 6.0` would be applied with the
        # mirror's 6.x. Unattached, init matches every module's constraints against the
        # mirror (a link into it: ~0.4 s) and fails on one the mirror cannot meet.
        self._cli("init", "init", "-input=false", "-no-color", *backend, attach=False)

    def seed_modules(self, cache: Path | None, calls: list[modules.Call]) -> None:
        """Install the repository's registry modules from the module cache into the copy
        (kit/deploy/modules.py); InputError when one is not there."""
        if calls:
            modules.seed(cache, calls, self.root)
            identity.give(self.root / modules.INSTALLED.parts[0], self.identity)

    def validate(self) -> None:
        """Check the configuration is valid HCL and schema."""
        self._cli("validate", "validate", "-no-color")

    def apply(self, variables: Mapping[str, str] | None = None) -> None:
        """Create the stack."""
        self._cli("apply", "apply", "-auto-approve", "-input=false", "-no-color",
                  *self._var_args(variables))

    def outputs(self) -> dict[str, Any]:
        """The root module's outputs, by name, as plain values."""
        # Read from the state `terraform output -json` reads (the gate allows the local
        # backend only): one terraform command and its sandbox fewer per run.
        return {name: entry.get("value")
                for name, entry in self._state().get("outputs", {}).items()}

    def pending_changes(self, variables: Mapping[str, str] | None = None) -> list[str]:
        """What a fresh plan would still change after an apply ("address: action"); empty
        when the stack reads back as it was declared."""
        # Confined as the apply was: a plan reads the solution's files and runs its
        # data sources' programs. Exit 2: the plan has changes.
        result = self._cli("plan", "plan", "-detailed-exitcode", "-input=false", "-no-color",
                           *self._var_args(variables), accept=(0, 2))
        return [f"{address}: {action}" for address, action in _PLANNED.findall(result.stdout)]

    def planned_configuration(self) -> dict[str, Any]:
        """The configuration as Terraform reads it: the `configuration` section of
        `terraform show -json` of a plan (provisioners, data sources, module calls); what
        the gate's reading is tested against. Plans only: no provisioner runs."""
        self._cli("plan", "plan", "-input=false", "-no-color", "-out=kit.tfplan")
        shown = self._cli("plan", "show", "-json", "kit.tfplan")
        return json.loads(shown.stdout).get("configuration", {})

    def required_providers(self) -> set[str]:
        """Every provider the configuration needs, in any module (`terraform providers`:
        it answers after an init that could not install them, too)."""
        listed = self._cli("plan", "providers", "-no-color").stdout
        return set(re.findall(r"provider\[(?:registry\.terraform\.io/)?([^\]]+)\]", listed))

    def destroy(self, variables: Mapping[str, str] | None = None) -> None:
        """Delete the stack."""
        self._cli("destroy", "destroy", "-auto-approve", "-input=false", "-no-color",
                  *self._var_args(variables))

    def managed_values(self) -> set[str]:
        """Every string attribute value of the resources the solution manages (from state)."""
        values: set[str] = set()
        for resource in self._state().get("resources", []):
            if resource.get("mode") != "managed":
                continue
            for instance in resource.get("instances", []):
                values |= {v for v in instance.get("attributes", {}).values()
                           if isinstance(v, str)}
        return values

    def _state(self) -> dict[str, Any]:
        """The state after an apply (empty before one)."""
        if not os.path.lexists(self.root / "terraform.tfstate"):
            return {}
        # The deploy user's file: read without following a link it could have made.
        data = read_regular(self.root, "terraform.tfstate", MAX_STATE)
        if data is None:
            raise SolutionError("terraform.tfstate in the run's copy is not a regular file "
                                f"of at most {MAX_STATE} bytes")
        return json.loads(data)

    def state(self) -> dict[str, Any]:
        """The state after an apply, as Terraform wrote it (empty before one)."""
        return self._state()

    @staticmethod
    def _var_args(variables: Mapping[str, str] | None) -> list[str]:
        return [f"-var={key}={value}" for key, value in (variables or {}).items()]
