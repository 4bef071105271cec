"""LocalStack (community, host mode, no Docker) as the sandbox's emulator: a process of its
own on a free loopback port, everything it writes under the sandbox's directory.

It has no state reset without a licence, so `reset` restarts it on the same port (the
provider and the gateway keep its address) with an emptied directory. `RemoteLocalStack`
is one the user runs already (`--emulator-url`, e.g. for tflocal workflows): the kit does
not own it, so its reset deletes what the kit's account holds (kit/sandbox/sweep.py).

The kit's credentials carry the account id as their access key id: LocalStack reads a
12-digit access key id as the account (its default account is 000000000000, the kit's is
123456789012), and the keys it issues itself (IAM users, STS sessions) encode their account.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import requests

from kit.errors import InputError, SandboxError, ToolchainError
from kit.sandbox.moto import ACCOUNT_ID
from kit.sandbox.ports import free_port
from kit.sandbox.process import ManagedProcess
from kit.toolchain import localstack_install

READY_TIMEOUT = 90.0  # ~3 s alone on the machine, 6-15 s on a busy one
ADMIN_PATHS = ("/_localstack", "/_aws", "/_extension", "/_pods")
# What LocalStack community 4.13 serves (its /_localstack/health lists these as available);
# every other service the kit knows (rds, elasticache, ecs, ...) is routed to moto. Not
# cloudwatch: it lists it, but its RPC v2 CBOR answer to the provider's DescribeAlarms is a
# 500 ("An unknown error occurred when trying to serialize the response"), retried until the
# apply's limit; moto answers CBOR through the kit (kit/sandbox/fidelity/rpcv2cbor.py).
SERVICES = frozenset({
    "acm", "apigateway", "cloudformation", "config", "dynamodb", "ec2", "es",
    "events", "firehose", "iam", "kinesis", "kms", "lambda", "logs", "opensearch", "redshift",
    "route53", "s3", "s3control", "scheduler", "secretsmanager", "ses", "sns", "sqs", "ssm",
    "stepfunctions", "sts", "swf",
})


def _settings(port: int, root: Path) -> dict[str, str]:
    """Its environment: everything under `root`, nothing reached outside the machine."""
    return {
        "PATH": "/usr/bin:/bin", "HOME": str(root / "home"), "TMPDIR": str(root / "tmp"),
        "LANG": "C.UTF-8",
        "GATEWAY_LISTEN": f"127.0.0.1:{port}", "LOCALSTACK_HOST": f"127.0.0.1:{port}",
        # Host mode: its /var/lib/localstack, /tmp/localstack, ... live under FILESYSTEM_ROOT
        # (in a container it would write to the real ones).
        "OVERRIDE_IN_DOCKER": "0", "FILESYSTEM_ROOT": str(root / "fs"),
        "CONFIG_DIR": str(root / "config"),
        # No DNS server, no certificate download, no usage events: no network beyond loopback.
        "DNS_ADDRESS": "0", "SKIP_SSL_CERT_DOWNLOAD": "1", "DISABLE_EVENTS": "1",
        # Queue URLs as moto writes them: http://127.0.0.1:<port>/<account>/<name>.
        "SQS_ENDPOINT_STRATEGY": "off",
    }


def _health(url: str) -> dict[str, object]:
    resp = requests.get(f"{url}/_localstack/health", timeout=2)
    resp.raise_for_status()
    return resp.json()


class LocalStackServer:
    """A LocalStack process owned by the sandbox (kit/sandbox/emulator.py)."""

    name = "localstack"
    account_id = ACCOUNT_ID
    admin_paths = ADMIN_PATHS
    services: frozenset[str] | None = SERVICES

    def __init__(self, workdir: Path) -> None:
        interpreter = localstack_install.python()
        if interpreter is None:
            raise ToolchainError("--emulator localstack: LocalStack is not installed; run "
                                 f"`{localstack_install.FIX}`")
        # Its interpreter runs the kit's launcher as a file (the kit is not installed there);
        # -P: without the launcher's directory on sys.path, where kit/sandbox/localstack.py
        # would hide the `localstack` package.
        self._argv = [str(interpreter), "-P", str(Path(__file__).with_name("localstack_main.py"))]
        self.root = workdir / "localstack"
        self.log = workdir / "localstack.log"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = self._start()

    def _start(self) -> ManagedProcess:
        shutil.rmtree(self.root, ignore_errors=True)
        for sub in ("home", "tmp", "fs", "config"):
            (self.root / sub).mkdir(parents=True)
        return ManagedProcess("localstack", self._argv, self.log,
                              env=_settings(self.port, self.root), cwd=self.root)

    def wait_ready(self) -> None:
        """Block until it says Ready (bounded); raises SandboxError with its log tail."""
        self.process.wait_ready(self._ready, READY_TIMEOUT,
                                f"its health check and 'Ready.' on port {self.port}")

    def _ready(self) -> bool:
        log = self.log.read_text(errors="replace")
        if "Couldn't listen on" in log:
            # It says Ready even when its port is taken, and never serves: stop it, so that
            # the wait fails now, with this log, instead of timing out.
            self.process.stop()
            return False
        # The health endpoint answers before the services are up; "Ready." comes after.
        return "\nReady." in log and bool(_health(self.url))

    def reset(self) -> None:
        """Restart it on the same port with an empty state (no reset without a licence)."""
        self.process.stop()
        self.log.write_text("")  # "Ready." must come from the new process
        self.process = self._start()
        self.wait_ready()

    def stop(self) -> None:
        """Stop it and remove its directory."""
        self.process.stop()
        shutil.rmtree(self.root, ignore_errors=True)


class RemoteLocalStack:
    """A LocalStack the user runs (`--emulator-url`): used, swept, never stopped."""

    name = "localstack"
    account_id = ACCOUNT_ID
    admin_paths = ADMIN_PATHS

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")
        try:
            health = _health(self.url)
        except (requests.RequestException, ValueError) as exc:
            raise InputError(f"--emulator-url {url}: no LocalStack answers there "
                             f"(GET /_localstack/health: {exc}); start it (`localstack start`) "
                             "or pass its address, e.g. http://localhost:4566") from None
        listed = health.get("services")
        if not isinstance(listed, dict):
            raise InputError(f"--emulator-url {url}: /_localstack/health lists no services; "
                             "is this LocalStack?")
        self.version = str(health.get("version", "unknown"))
        self.services: frozenset[str] | None = frozenset(
            name for name, state in listed.items() if state in ("available", "running"))
        self.reset()  # the first run starts from an empty account too

    def wait_ready(self) -> None:
        """It answered its health check when it was made."""

    def reset(self) -> None:
        """Delete what the kit's account holds there (kit/sandbox/sweep.py)."""
        from kit.sandbox import sweep

        try:
            sweep.sweep(self.url, self.services or frozenset())
        except Exception as exc:  # noqa: BLE001 - any failure leaves state behind: say so
            raise SandboxError(f"could not empty account {self.account_id} on the LocalStack "
                               f"at {self.url} between runs: {exc}") from exc

    def stop(self) -> None:
        """Leave it as the kit found it: without the kit's resources."""
        self.reset()
