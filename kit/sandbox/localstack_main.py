"""Entry point of the sandbox's LocalStack, run by LocalStack's own interpreter (its venv:
kit/toolchain/localstack_install.py), so it imports nothing of the kit as a package: apply
the kit's compatibility shims and fidelity fixes, then run LocalStack.

LocalStack 4.13.1 is the last release that installs on Python 3.11, but its KMS calls
`uuid.uuid5(namespace, <bytes>)`, which only Python 3.12 accepts ("name" may be bytes since
3.12): on 3.11 every CreateKey failed with InternalError ("encoding without a string
argument"). The shim gives 3.11's uuid5 the 3.12 behaviour: bytes are hashed as they are.

One more of its modules needs 3.12: `localstack.packages.api` annotates `Lock | None`, and
3.11's threading.Lock is a function, so the module failed to import and every Lambda
CreateFunction with it ("Error while creating lambda: unsupported operand type(s) for |");
it is compiled with postponed annotations (PEP 563), as if it began with `from __future__
import annotations`. And its Lambda prepares each function version for its Docker
executor (a runtime binary downloaded from GitHub, a container image): in the kit's
sandbox, with no Docker and no network, every function ended `Failed` where AWS makes it
`Active`; `lambda_functions_activate_without_docker` keeps only the code's unpacking then.

LocalStack serves EC2 and Secrets Manager from its own bundled moto, which has the gaps
the kit fixes in its moto (kit/sandbox/fidelity/). The fixes that apply unchanged to
LocalStack's moto (`SHARED`: standalone modules, stdlib and moto only, loaded here by
path) are applied when LocalStack first imports the module they fix, so that LocalStack
starts as fast as before; `managed_rotation_needs_no_function` and the SQS and KMS fixes
below it are LocalStack's own (its SQS and KMS are not moto's).

moto internals touched: (LocalStack's bundled moto)
moto.secretsmanager.models.SecretsManagerBackend.rotate_secret,
SecretsManagerBackend.secrets, SecretsManagerBackend._is_valid_identifier,
FakeSecret.is_deleted, FakeSecret.owning_service, FakeSecret.rotation_lambda_arn,
FakeSecret.auto_rotate_after_days, FakeSecret.next_rotation_date,
FakeSecret.rotation_requested, FakeSecret.rotation_enabled, FakeSecret.last_rotation_date,
FakeSecret.to_short_dict, moto.ec2.responses.subnets (imported first), and those of the
SHARED fixes of kit/sandbox/fidelity/ec2.py and secretsmanager.py (their docstrings).
"""

from __future__ import annotations
import __future__

import functools
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import runpy
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

FIDELITY = Path(__file__).resolve().parent / "fidelity"


def uuid5_accepts_bytes() -> None:
    """uuid.uuid5 as in Python 3.12: a bytes name is hashed as is."""
    original = uuid.uuid5

    def uuid5(namespace: uuid.UUID, name: str | bytes) -> uuid.UUID:
        if isinstance(name, str):
            return original(namespace, name)
        digest = hashlib.sha1(namespace.bytes + name, usedforsecurity=False).digest()
        return uuid.UUID(bytes=digest[:16], version=5)

    uuid.uuid5 = uuid5  # type: ignore[assignment]


def managed_rotation_needs_no_function() -> None:
    """RotateSecret of a secret another service manages needs no Lambda function.

    AWS (Secrets Manager User Guide, "Managed rotation for AWS Secrets Manager secrets"):
    a secret managed by another service (the RDS master user secret) rotates without a
    Lambda function; RotateSecret sets its schedule. LocalStack 4.13.1 refuses any rotation
    without one ("No Lambda rotation function ARN is associated with this secret"), so
    terraform-aws-modules/rds's aws_secretsmanager_secret_rotation of the secret RDS made
    (on LocalStack, kit/sandbox/localstack_split.py) failed. The secret's value stays: the
    owning service rotates its own credentials.
    """
    from moto.secretsmanager.models import SecretsManagerBackend

    rotate = SecretsManagerBackend.rotate_secret

    def rotate_secret(self: Any, secret_id: str, client_request_token: str | None = None,
                      rotation_lambda_arn: str | None = None,
                      rotation_rules: dict[str, Any] | None = None,
                      rotate_immediately: bool = True) -> str:
        secret = self.secrets.get(secret_id) if self._is_valid_identifier(secret_id) else None
        if secret is None or secret.is_deleted() or not secret.owning_service or \
                rotation_lambda_arn or secret.rotation_lambda_arn:
            return rotate(self, secret_id, client_request_token, rotation_lambda_arn,
                          rotation_rules, rotate_immediately)  # LocalStack's answers stand
        days = (rotation_rules or {}).get("AutomaticallyAfterDays")
        if days:
            secret.auto_rotate_after_days = days
            secret.next_rotation_date = int(time.time()) + int(days) * 86400
        secret.rotation_lambda_arn = ""
        secret.rotation_requested = secret.rotation_enabled = True
        secret.last_rotation_date = int(time.time())
        return secret.to_short_dict()

    SecretsManagerBackend.rotate_secret = rotate_secret  # type: ignore[method-assign]


def lambda_functions_activate_without_docker() -> None:
    """A function version is ready once its code is unpacked, when there is no Docker.

    AWS (Lambda Developer Guide, "Lambda function states"): a new function is Pending, then
    Active once its resources are ready; Failed only when they could not be. LocalStack's
    Docker executor also fetches its runtime binary and image at that point, which the
    sandbox cannot (no Docker, no network): only the unpacking of the code (a bad archive
    still fails the function) is kept. Invoking the function still needs Docker there.
    """
    from localstack.services.lambda_.invocation import docker_runtime_executor as executor

    prepare = executor.DockerRuntimeExecutor.prepare_version

    def prepare_version(cls: Any, function_version: Any) -> None:
        if executor.CONTAINER_CLIENT.has_docker():
            prepare.__func__(cls, function_version)  # type: ignore[attr-defined]
        elif function_version.config.code:
            function_version.config.code.prepare_for_execution()

    executor.DockerRuntimeExecutor.prepare_version = classmethod(  # type: ignore[assignment]
        prepare_version)


def an_empty_redrive_allow_policy_is_removed() -> None:
    """SetQueueAttributes with an empty RedriveAllowPolicy removes it, as an empty Policy
    or RedrivePolicy.

    AWS (SQS API reference, SetQueueAttributes; GetQueueAttributes returns only the
    attributes a queue has): an attribute set to "" is cleared. LocalStack 4.13.1 clears
    Policy and RedrivePolicy so but kept RedriveAllowPolicy as "", which the AWS provider's
    destroy of aws_sqs_queue_redrive_allow_policy waits to see absent (an empty string is no
    JSON it can compare): every such destroy ran into its timeout.
    """
    from localstack.services.sqs.provider import SqsProvider

    original = SqsProvider.set_queue_attributes

    @functools.wraps(original)
    def set_queue_attributes(self: Any, context: Any, queue_url: str, attributes: Any,
                             **kwargs: Any) -> None:
        original(self, context, queue_url, attributes, **kwargs)
        if (attributes or {}).get("RedriveAllowPolicy") == "":
            queue = self._resolve_queue(context, queue_url=queue_url)
            queue.attributes.pop("RedriveAllowPolicy", None)

    SqsProvider.set_queue_attributes = set_queue_attributes  # type: ignore[method-assign]


def imported_key_material_keeps_its_expiry() -> None:
    """DescribeKey of a key whose imported material expires says when (ValidTo).

    AWS (KMS API reference, KeyMetadata.ValidTo: "The time at which the imported key
    material expires ... present only when Origin is EXTERNAL and whose ExpirationModel is
    KEY_MATERIAL_EXPIRES"). LocalStack 4.13.1 checks ImportKeyMaterial's ValidTo but never
    stores it, and the AWS provider waits for aws_kms_external_key's `valid_to` to read back
    (terraform-aws-modules/kms's external keys): every such apply ran into its timeout.
    """
    from localstack.services.kms.provider import KmsProvider

    original = KmsProvider.import_key_material

    @functools.wraps(original)
    def import_key_material(self: Any, context: Any, key_id: str, import_token: Any,
                            encrypted_key_material: Any, valid_to: Any = None,
                            expiration_model: Any = None, *args: Any, **kwargs: Any) -> Any:
        answer = original(self, context, key_id, import_token, encrypted_key_material,
                          valid_to, expiration_model, *args, **kwargs)
        key = self._get_kms_key(context.account_id, context.region, key_id,
                                enabled_key_allowed=True, disabled_key_allowed=True)
        if valid_to and key.metadata.get("ExpirationModel") == "KEY_MATERIAL_EXPIRES":
            key.metadata["ValidTo"] = valid_to
        return answer

    KmsProvider.import_key_material = import_key_material  # type: ignore[method-assign]


def replica_keys_take_their_own_policy_and_tags() -> None:
    """A replica key gets the Policy and Tags of its ReplicateKey request, not its primary's;
    the replica of a key with imported material waits for its own import.

    AWS (KMS API reference, ReplicateKey: Policy, "If you do not provide a key policy, AWS
    KMS attaches the default key policy"; Tags, "Tags are not a shared property of
    multi-Region keys"; and for a primary key whose Origin is EXTERNAL, "the replica key is
    created with no key material ... its key state is PendingImport"). LocalStack 4.13.1
    copies the primary key whole: the AWS provider waited for aws_kms_replica_key's own
    policy and tags to read back until the apply's timeout, and refused an
    aws_kms_replica_external_key that was Enabled before its import.
    """
    from localstack.services.kms.models import kms_stores
    from localstack.services.kms.provider import KmsProvider

    original = KmsProvider.replicate_key

    @functools.wraps(original)  # its dispatch marks (the request is passed whole)
    def replicate_key(self: Any, context: Any, request: Any) -> Any:
        answer = original(self, context, request)
        region = request.get("ReplicaRegion")
        replica = kms_stores[context.account_id][region].keys[
            answer["ReplicaKeyMetadata"]["KeyId"]]
        replica.tags = {}
        replica.add_tags(request.get("Tags"))
        replica.policy = request.get("Policy") or replica._get_default_key_policy(
            context.account_id, region)
        if replica.metadata.get("Origin") == "EXTERNAL":
            replica.metadata.update(KeyState="PendingImport", Enabled=False)
            answer["ReplicaKeyMetadata"].update(KeyState="PendingImport", Enabled=False)
        return answer

    KmsProvider.replicate_key = replicate_key  # type: ignore[method-assign]


class PostponedAnnotations(importlib.abc.MetaPathFinder):
    """Compiles the modules `names` as if they began with `from __future__ import
    annotations` (from source, never from a bytecode cache of the plain compile)."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(self, name: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """The module's own spec, with a loader compiling it so."""
        if name not in self.names:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is None or spec.origin is None:
            return spec
        spec.loader = _Postponed(name, spec.origin)
        return spec


class _Postponed(importlib.machinery.SourceFileLoader):
    def get_code(self, fullname: str) -> Any:
        source = self.get_source(fullname)
        assert source is not None
        return compile(source, self.path, "exec", dont_inherit=True,
                       flags=__future__.annotations.compiler_flag)


# Fixes of the kit's moto that LocalStack's moto needs too: by the module whose import they
# follow, the fix module of kit/sandbox/fidelity/ and its functions, in order.
SHARED: dict[str, tuple[str, tuple[str, ...]]] = {
    # After EC2's responses, which import its models: the subnets' fixes need both.
    # (LocalStack filters subnets by IPv6 association itself.)
    "moto.ec2.responses.subnets": ("ec2.py", ("ipv6_only_subnets_count_no_ipv4_addresses",
                                              "subnet_attributes_are_stored",
                                              "ipv6_association_state_reads_as_a_word")),
    # After LocalStack's own patches of Secrets Manager, which its provider module makes.
    "localstack.services.secretsmanager.provider": (
        "secretsmanager.py", ("rotation_schedules_are_kept",
                              "managed_rotation_can_be_cancelled")),
}


def shared_fix(filename: str, names: Sequence[str]) -> Callable[[], None]:
    """Applies the functions `names` of the kit's fix module `filename`, loaded by path."""

    def apply() -> None:
        spec = importlib.util.spec_from_file_location(f"kit_fidelity_{filename[:-3]}",
                                                      FIDELITY / filename)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for name in names:
            getattr(module, name)()

    return apply


class AfterImport(importlib.abc.MetaPathFinder):
    """Runs a fix right after the module it fixes is first imported."""

    def __init__(self, fixes: dict[str, Sequence[Callable[[], None]]]) -> None:
        self.fixes = fixes

    def find_spec(self, name: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """The module's own spec, its loader running the fixes after the module."""
        fixes = self.fixes.pop(name, None)
        if fixes is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is None or not isinstance(spec.loader, importlib.abc.Loader):
            return spec
        execute = spec.loader.exec_module

        def exec_module(module: ModuleType) -> None:
            execute(module)
            for fix in fixes:
                fix()

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def fidelity_fixes() -> AfterImport:
    """The import hook that applies the fixes LocalStack's moto needs."""
    fixes: dict[str, list[Callable[[], None]]] = {
        module: [shared_fix(filename, names)] for module, (filename, names) in SHARED.items()}
    # Innermost: the kit's schedule and cancel fixes wrap the rotation it lets through.
    fixes["localstack.services.secretsmanager.provider"].insert(
        0, managed_rotation_needs_no_function)
    fixes["localstack.services.lambda_.invocation.docker_runtime_executor"] = [
        lambda_functions_activate_without_docker]
    fixes["localstack.services.sqs.provider"] = [an_empty_redrive_allow_policy_is_removed]
    fixes["localstack.services.kms.provider"] = [imported_key_material_keeps_its_expiry,
                                                 replica_keys_take_their_own_policy_and_tags]
    return AfterImport(dict(fixes))


if __name__ == "__main__":
    uuid5_accepts_bytes()
    sys.meta_path.insert(0, PostponedAnnotations({"localstack.packages.api"}))
    sys.meta_path.insert(0, fidelity_fixes())
    runpy.run_module("localstack.runtime.main", run_name="__main__", alter_sys=True)
