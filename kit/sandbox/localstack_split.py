"""moto's RDS beside LocalStack: what RDS refers to is looked up where it lives, on LocalStack.

With `--emulator localstack`, moto serves RDS (LocalStack community has none) while
LocalStack serves EC2, KMS and Secrets Manager (kit/sandbox/emulator.py). moto's RDS reads
those services from its own, empty, backends: every `aws_db_subnet_group` of LocalStack's
subnets failed `InvalidSubnetID.NotFound`, blamed on the solution although AWS accepts it.

The fix, in the moto server process (kit/sandbox/moto_main.py): RDS's view of EC2 and KMS
becomes a lookup on LocalStack at the moment RDS validates (the subnets of a subnet group
or proxy, the default VPC's default security group, a KMS key), and the secret RDS makes
for `manage_master_user_password` is created, rotated and deleted in LocalStack's Secrets
Manager. Each resource's state stays in one place, its own service's emulator:
- mirroring the ids into moto would keep two copies that diverge (a subnet deleted on
  LocalStack would live on in moto, and moto cannot take a subnet id it did not make);
- serving EC2, KMS and Secrets Manager by moto too would break the same references the
  other way (LocalStack's Lambda, SQS, SNS and S3 refer to subnets and keys), and the
  `--emulator localstack` cross-check would no longer exercise LocalStack's EC2 and KMS.
What RDS stores without looking it up (a monitoring role ARN, the SNS topic of an event
subscription, security group ids given explicitly) resolves as it does on moto alone. The
other services moto serves beside LocalStack are built into moto's own EC2: for them
kit/sandbox/localstack_unseen.py names the split instead.

A lookup that LocalStack does not answer (down, an HTTP 5xx, an unparsable answer) raises
`SplitLookupError`, which moto's error handling (kit/sandbox/fidelity/errors.py) answers as
KitEmulatorFailure naming the split: the kit's `error`, never the solution's `fail`. A
resource LocalStack refuses (missing, or a malformed id: what the solution gave) gets the
answer moto alone would give.

moto internals touched: moto.rds.models.ec2_backends, moto.rds.responses.ec2_backends,
moto.rds.models.RDSBackend.kms, moto.rds.models.RDSBackend.secretsmanager,
moto.rds.models.RDSBackend._validate_kms_key, moto.rds.models.RDSBackend._kit_split,
RDSBackend.account_id, RDSBackend.region_name, moto.rds.models.KMS_ARN_PATTERN, what moto's
RDS reads of the backends it is given (EC2Backend.get_subnet, EC2Backend.describe_subnets,
EC2Backend.default_vpc, EC2Backend.get_default_security_group, KmsBackend.describe_key,
SecretsManagerBackend.create_managed_secret, SecretsManagerBackend.rotate_secret,
SecretsManagerBackend.delete_secret, Subnet.id, Subnet.vpc_id, Subnet.availability_zone,
Key.arn, FakeSecret.arn, FakeSecret.kms_key_id, and a deepcopy of them on a restore),
moto.moto_server.werkzeug_app.create_backend_app, moto.server.create_backend_app,
moto.rds.exceptions.KMSKeyNotAccessibleFault, moto.rds.exceptions.InvalidParameterValue,
moto.ec2.exceptions.InvalidSubnetIdError.
"""

from __future__ import annotations

import os
import threading
import uuid
from dataclasses import dataclass
from typing import Any

ENV_PEER = "KIT_SPLIT_PEER"  # the endpoint of the primary emulator (LocalStack)
ENV_SERVICES = "KIT_SPLIT_SERVICES"  # which of REFERENCED it serves, comma-separated
REFERENCED = ("ec2", "kms", "secretsmanager")  # the services moto's RDS refers to


class SplitLookupError(Exception):
    """A lookup of moto's RDS on LocalStack failed: the kit's split, not an AWS answer."""


def settings(url: str, services: frozenset[str] | None) -> dict[str, str]:
    """The moto process's environment entries for a primary emulator at `url` that serves
    `services` (None: every one); empty when it serves none of what RDS refers to."""
    served = [s for s in REFERENCED if services is None or s in services]
    return {ENV_PEER: url, ENV_SERVICES: ",".join(served)} if served else {}


@dataclass(frozen=True)
class Subnet:
    """A subnet as moto's RDS reads one (id, VPC, zone)."""

    id: str
    vpc_id: str
    availability_zone: str


@dataclass(frozen=True)
class Named:
    """A resource moto's RDS reads only the id of (a VPC, a security group)."""

    id: str


@dataclass(frozen=True)
class Key:
    """A KMS key as moto's RDS reads one."""

    arn: str


@dataclass(frozen=True)
class Secret:
    """A Secrets Manager secret as moto's RDS reads one."""

    arn: str
    kms_key_id: str | None


class Peer:
    """LocalStack, as the moto process calls it: one client per (service, account, region)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._clients: dict[tuple[str, str, str], Any] = {}
        self._lock = threading.Lock()

    def __deepcopy__(self, memo: dict[int, Any]) -> Peer:
        # moto deep-copies an instance to restore it (RestoreDBInstanceToPointInTime), with
        # its master secret's backends: the copy shares this connection (a lock is not
        # copyable).
        return self

    def call(self, service: str, account: str, region: str, action: str, what: str,
             **params: Any) -> dict[str, Any] | None:
        """The answer of `action`; None when LocalStack refuses it with a client error
        (`what` does not exist there, or the id given is malformed: what the solution
        gave, so never the kit's error); raises SplitLookupError when it gives no answer
        (down, HTTP 5xx, unparsable)."""
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            return getattr(self._client(service, account, region), action)(**params)
        except ClientError as exc:
            status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
            if status < 500:
                return None
            failure: Exception = exc
        except BotoCoreError as exc:
            failure = exc
        raise SplitLookupError(
            f"the LocalStack split: moto serves RDS, LocalStack serves {service}, and moto's "
            f"RDS could not look up {what} on LocalStack at {self.url} ({action}: "
            f"{failure}); the kit's gap, not the solution's") from None

    def _client(self, service: str, account: str, region: str) -> Any:
        import boto3
        from botocore.config import Config

        with self._lock:
            key = (service, account, region)
            if key not in self._clients:
                # LocalStack acts in the account a 12-digit access key id names.
                self._clients[key] = boto3.session.Session().client(
                    service, endpoint_url=self.url, region_name=region,
                    aws_access_key_id=account, aws_secret_access_key="kit-split",
                    config=Config(retries={"max_attempts": 2, "mode": "standard"},
                                  connect_timeout=5, read_timeout=30))
            return self._clients[key]


def not_found(code: str) -> bool:
    """Whether an AWS error code says the resource does not exist."""
    return code.endswith((".NotFound", "NotFoundException", "NotFound"))


class PeerEc2:
    """The EC2 backend of one account and region, as moto's RDS reads it, on LocalStack."""

    def __init__(self, peer: Peer, account: str, region: str) -> None:
        self._peer, self._account, self._region = peer, account, region

    def _call(self, action: str, what: str, **params: Any) -> dict[str, Any] | None:
        return self._peer.call("ec2", self._account, self._region, action, what, **params)

    def get_subnet(self, subnet_id: str) -> Subnet:
        """One subnet; moto's own error when LocalStack has none of that id."""
        from moto.ec2.exceptions import InvalidSubnetIdError

        found = self.describe_subnets([subnet_id])
        if not found:
            raise InvalidSubnetIdError(subnet_id)
        return found[0]

    def describe_subnets(self, subnet_ids: list[str] | None = None,
                         filters: Any = None) -> list[Subnet]:
        """The subnets of these ids (moto's RDS passes ids only)."""
        from moto.ec2.exceptions import InvalidSubnetIdError

        ids = list(subnet_ids or [])
        answer = self._call("describe_subnets", f"subnets {', '.join(ids)}", SubnetIds=ids)
        if answer is None:
            raise InvalidSubnetIdError(", ".join(ids))
        return [Subnet(s["SubnetId"], s["VpcId"], s["AvailabilityZone"])
                for s in answer.get("Subnets", [])]

    @property
    def default_vpc(self) -> Named | None:
        """The account's default VPC in the region, if it has one."""
        answer = self._call("describe_vpcs", "the default VPC",
                            Filters=[{"Name": "is-default", "Values": ["true"]}]) or {}
        vpcs = answer.get("Vpcs", [])
        return Named(vpcs[0]["VpcId"]) if vpcs else None

    def get_default_security_group(self, vpc_id: str) -> Named | None:
        """The security group named default of a VPC."""
        answer = self._call("describe_security_groups",
                            f"the default security group of {vpc_id}",
                            Filters=[{"Name": "vpc-id", "Values": [vpc_id]},
                                     {"Name": "group-name", "Values": ["default"]}]) or {}
        groups = answer.get("SecurityGroups", [])
        return Named(groups[0]["GroupId"]) if groups else None


class PeerKms:
    """The KMS backend of one account and region, as moto's RDS reads it, on LocalStack."""

    def __init__(self, peer: Peer, account: str, region: str) -> None:
        self._peer, self._account, self._region = peer, account, region

    def describe_key(self, key_id: str) -> Key:
        """The key of an id, ARN or alias; KeyError (as moto's) when there is none."""
        answer = self._peer.call("kms", self._account, self._region, "describe_key",
                                 f"KMS key {key_id}", KeyId=key_id)
        if answer is None:
            raise KeyError(key_id)
        return Key(answer["KeyMetadata"]["Arn"])


class PeerSecrets:
    """The Secrets Manager backend of one account and region, as moto's RDS uses it (its
    managed master user secret), on LocalStack."""

    DEFAULT_KMS_KEY_ALIAS = "alias/aws/secretsmanager"

    def __init__(self, peer: Peer, account: str, region: str) -> None:
        self._peer, self._account, self._region = peer, account, region

    def _call(self, action: str, what: str, **params: Any) -> dict[str, Any] | None:
        return self._peer.call("secretsmanager", self._account, self._region, action, what,
                               **params)

    def create_managed_secret(self, service_name: str, secret_id: str,
                              secret_string: str | None = None,
                              description: str | None = None,
                              tags: list[dict[str, str]] | None = None,
                              kms_key_id: str | None = None, **_: Any) -> Secret:
        """The service's secret, made on LocalStack. AWS names it rds!<type>-<uuid>, a
        name only AWS may give: LocalStack's CreateSecret refuses "!", so it is rds-..."""
        name = secret_id.replace("!", "-")
        tag = {"Key": "aws:secretsmanager:owningService", "Value": service_name}
        params: dict[str, Any] = {"Name": name, "SecretString": secret_string or "",
                                  "Description": description or "",
                                  "Tags": [*(tags or []), tag]}
        if kms_key_id:
            from moto.rds.exceptions import KMSKeyNotAccessibleFault

            try:  # a key that is not there is the caller's mistake, as on AWS
                PeerKms(self._peer, self._account, self._region).describe_key(kms_key_id)
            except KeyError:
                raise KMSKeyNotAccessibleFault(kms_key_id) from None
            params["KmsKeyId"] = kms_key_id
        answer = self._call("create_secret", f"the new secret {name}", **params)
        if answer is None:  # nothing of it is the caller's: the kit's split
            raise SplitLookupError(f"the LocalStack split: LocalStack's Secrets Manager at "
                                   f"{self._peer.url} refused the secret RDS makes ({name})")
        return Secret(answer["ARN"], kms_key_id or self.DEFAULT_KMS_KEY_ALIAS)

    def rotate_secret(self, secret_id: str, **_: Any) -> None:
        """A new password in a new current version (as RDS rotates its managed secret)."""
        import json

        from moto.rds.exceptions import InvalidParameterValue

        current = self._call("get_secret_value", f"the secret {secret_id}",
                             SecretId=secret_id)
        if current is None:  # deleted by a caller (which AWS refuses for a managed secret)
            raise InvalidParameterValue(f"The master user secret {secret_id} does not exist.")
        value = json.loads(current["SecretString"])
        value["password"] = uuid.uuid4().hex
        self._call("put_secret_value", f"the secret {secret_id}", SecretId=secret_id,
                   SecretString=json.dumps(value))

    def delete_secret(self, secret_id: str, **_: Any) -> None:
        """Delete it at once (RDS deletes its secret without a recovery window); one
        already gone stays gone."""
        self._call("delete_secret", f"the secret {secret_id}", SecretId=secret_id,
                   ForceDeleteWithoutRecovery=True)


class _Backends:
    """backends[account][region] as moto indexes them, each a peer view."""

    def __init__(self, peer: Peer, view: type) -> None:
        self._peer, self._view = peer, view

    def __getitem__(self, account: str) -> _Regions:
        return _Regions(self._peer, self._view, account)


@dataclass(frozen=True)
class _Regions:
    peer: Peer
    view: type
    account: str

    def __getitem__(self, region: str) -> Any:
        return self.view(self.peer, self.account, region)


def references_resolve_on_the_primary(url: str, services: frozenset[str]) -> None:
    """moto's RDS reads EC2, KMS and Secrets Manager (those of `services`) on the
    primary emulator at `url`."""
    from moto.rds import models, responses

    if getattr(models.RDSBackend, "_kit_split", False):
        return
    peer = Peer(url)
    if "ec2" in services:
        models.ec2_backends = responses.ec2_backends = _Backends(peer, PeerEc2)
    if "kms" in services:
        models.RDSBackend.kms = property(  # type: ignore[assignment]
            lambda self: PeerKms(peer, self.account_id, self.region_name))
        models.RDSBackend._validate_kms_key = _kms_validation(peer)  # type: ignore[method-assign]
    if "secretsmanager" in services:
        models.RDSBackend.secretsmanager = property(  # type: ignore[assignment]
            lambda self: PeerSecrets(peer, self.account_id, self.region_name))
    models.RDSBackend._kit_split = True  # type: ignore[attr-defined]


def _kms_validation(peer: Peer) -> Any:
    """moto's check of a key RDS is given (CopyDBSnapshot, ...), on the peer's KMS."""
    from moto.rds.exceptions import KMSKeyNotAccessibleFault
    from moto.rds.models import KMS_ARN_PATTERN

    def validate_kms_key(self: Any, kms_key_id: str) -> str:
        """The key's ARN, or KMSKeyNotAccessibleFault (another region, or no such key)."""
        match = KMS_ARN_PATTERN.fullmatch(kms_key_id)
        if match is not None and match.group("region") != self.region_name:
            raise KMSKeyNotAccessibleFault(kms_key_id)
        account = match.group("account_id") if match is not None else self.account_id
        try:
            return PeerKms(peer, account, self.region_name).describe_key(kms_key_id).arn
        except KeyError:
            raise KMSKeyNotAccessibleFault(kms_key_id) from None

    return validate_kms_key


def install() -> None:
    """Make moto's RDS look up the primary's services when the sandbox says it has one
    (ENV_PEER): before RDS first answers, like the fidelity fixes."""
    url = os.environ.get(ENV_PEER)
    if not url:
        return
    services = frozenset(s for s in os.environ.get(ENV_SERVICES, "").split(",") if s)
    from moto import server
    from moto.moto_server import werkzeug_app

    from kit.sandbox import localstack_unseen

    create = werkzeug_app.create_backend_app

    def create_backend_app(service: Any) -> Any:
        if str(service) == "rds":
            references_resolve_on_the_primary(url, services)
        elif str(service) in localstack_unseen.SERVICES and "ec2" in services:
            localstack_unseen.lookups_name_the_split(url)
        return create(service)

    werkzeug_app.create_backend_app = create_backend_app
    server.create_backend_app = create_backend_app  # type: ignore[attr-defined]
