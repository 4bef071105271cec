"""The emulator's IAM state as the gateway evaluates it: read with admin calls, parsed once.

Identity policies (inline + attached managed, and a user's groups), permissions boundaries,
trust policies and tags come from one paginated `GetAccountAuthorizationDetails` call per
fill; resource policies and resource tags (SQS queues, SNS topics, S3 buckets, secrets, KMS
keys) are read per resource on first use, with the customer managed key a queue or bucket is
encrypted with. Everything is parsed once per fill and kept until `invalidate()`,
which the gateway calls after every call that may change them, and the kit after its own
changes (faults): policy changes take effect on the next request.

A fill that started before an invalidation is never used after it (each entry carries the
generation it was read in), so a slow read cannot bring stale policies back.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from botocore.exceptions import ClientError, ParamValidationError

from kit import aws
from kit.gateway.actions import REGION, secret_pattern
from kit.iam import Policy, PolicyError, parse_policy
from kit.workload import resource_policies

ClientFactory = Callable[..., Any]  # (service, region=REGION): an admin client
_MISSING = {"NoSuchEntity", "AWS.SimpleQueueService.NonExistentQueue", "QueueDoesNotExist",
            "NoSuchBucket", "NoSuchBucketPolicy", "ResourceNotFoundException", "NotFoundException",
            "ServerSideEncryptionConfigurationNotFoundError", "NoSuchKey", "404",
            "PolicyNotFoundException", "NotFound"}


@dataclass(frozen=True, slots=True)
class Identity:
    """An IAM role or user with its parsed policies: the identity side of a decision."""

    arn: str
    kind: str  # role | user
    unique_id: str  # RoleId / UserId: aws:userid is built from it
    policies: tuple[Policy, ...] = ()
    boundary: Policy | None = None
    trust: Policy | None = None  # roles only
    tags: Mapping[str, str] = field(default_factory=dict)
    problems: tuple[str, ...] = ()  # policies that did not parse: fail closed


@dataclass(frozen=True, slots=True)
class Resource:
    """A resource's policy and tags (a missing resource has neither)."""

    arn: str
    policy: Policy | None = None
    tags: Mapping[str, str] = field(default_factory=dict)
    exists: bool = True
    problems: tuple[str, ...] = ()
    kms_key: str | None = None  # the customer managed key it is encrypted with (its ARN)


@dataclass(frozen=True, slots=True)
class _Account:
    identities: dict[str, Identity]  # ARN -> role or user
    arns: dict[tuple[str, str], str]  # (kind, name) -> ARN, for role/user/group/profile
    managed: dict[str, Policy]  # managed policy ARN -> its default version, parsed


def _document(value: Any) -> Any:
    # boto3 decodes policy documents to dicts; some paths hand back URL-encoded JSON text.
    return json.loads(unquote(value)) if isinstance(value, str) else value


def _tags(items: list[dict[str, str]] | None) -> dict[str, str]:
    return {t["Key"]: t["Value"] for t in items or ()}


def _missing(exc: ClientError) -> bool:
    return exc.response.get("Error", {}).get("Code") in _MISSING


class PolicyStore:
    """Cached, parsed IAM and resource-policy state of one emulator account."""

    def __init__(self, client: ClientFactory, upstream: str, account: str,
                 region: str = REGION) -> None:
        self._client = client
        self._upstream = upstream.rstrip("/")
        self.account = account
        self.region = region
        self._lock = threading.Lock()
        self._fill = threading.Lock()  # one account read at a time; the others wait for it
        self._generation = 0
        self._account: tuple[int, _Account] | None = None
        self._resources: dict[str, tuple[int, Resource]] = {}
        self._tables: dict[str, tuple[int, str | None]] = {}  # table ARN -> partition key

    def invalidate(self) -> None:
        """Forget everything read so far: the next request reads the emulator again."""
        with self._lock:
            self._generation += 1
            self._account = None
            self._resources.clear()
            self._tables.clear()

    # --- identities ------------------------------------------------------------------------

    def identity(self, arn: str) -> Identity | None:
        """The role or user with this ARN, or None when the emulator has none."""
        return self._current_account().identities.get(arn)

    def managed(self, arn: str) -> Policy | None:
        """A managed policy's default version, parsed; None when it does not exist."""
        return self._current_account().managed.get(arn)

    def iam_arn(self, kind: str, name: str) -> str | None:
        """The ARN (with its path) of IAM entity `name` of `kind`; None when unknown."""
        return self._current_account().arns.get((kind, name))

    def _current_account(self) -> _Account:
        cached = self._account
        if cached is not None and cached[0] == self._generation:
            return cached[1]
        with self._fill:
            cached = self._account
            generation = self._generation
            if cached is not None and cached[0] == generation:
                return cached[1]
            account = self._read_account()
            with self._lock:
                if self._generation == generation:
                    self._account = (generation, account)
            return account

    def _read_account(self) -> _Account:
        iam = self._client("iam")
        pages = iam.get_paginator("get_account_authorization_details").paginate(
            Filter=["Role", "User", "Group", "LocalManagedPolicy"])
        roles: list[dict[str, Any]] = []
        users: list[dict[str, Any]] = []
        groups: dict[str, dict[str, Any]] = {}
        documents: dict[str, Any] = {}
        for page in pages:
            roles += page.get("RoleDetailList", [])
            users += page.get("UserDetailList", [])
            groups.update({g["GroupName"]: g for g in page.get("GroupDetailList", [])})
            for p in page.get("Policies", []):
                documents[p["Arn"]] = next(
                    (v["Document"] for v in p.get("PolicyVersionList", [])
                     if v.get("IsDefaultVersion")), None)
        managed: dict[str, Policy] = {}
        problems: dict[str, str] = {}
        for arn, document in documents.items():
            try:
                managed[arn] = parse_policy(_document(document), name=f"managed:{arn}")
            except PolicyError as exc:
                problems[arn] = str(exc)
        arns: dict[tuple[str, str], str] = {}
        identities: dict[str, Identity] = {}
        for role in roles:
            arns[("role", role["RoleName"])] = role["Arn"]
            for profile in role.get("InstanceProfileList", []):
                arns[("instance-profile", profile["InstanceProfileName"])] = profile["Arn"]
            identities[role["Arn"]] = self._identity(role, "role", managed, problems)
        for group in groups.values():
            arns[("group", group["GroupName"])] = group["Arn"]
        for user in users:
            arns[("user", user["UserName"])] = user["Arn"]
            extra = [groups[name] for name in user.get("GroupList", []) if name in groups]
            identities[user["Arn"]] = self._identity(user, "user", managed, problems, extra)
        return _Account(identities, arns, managed)

    def _identity(self, entity: dict[str, Any], kind: str, managed: dict[str, Policy],
                  problems: dict[str, str], groups: Sequence[dict[str, Any]] = ()) -> Identity:
        """Parse one role or user (with its groups' policies) into an Identity."""
        policies: list[Policy] = []
        errors: list[str] = []
        inline_key = "RolePolicyList" if kind == "role" else "UserPolicyList"
        for owner, key in [(entity, inline_key), *((g, "GroupPolicyList") for g in groups)]:
            prefix = "inline" if owner is entity else f"group {owner['GroupName']} inline"
            for item in owner.get(key, []):
                label = f"{prefix}:{item['PolicyName']}"
                try:
                    policies.append(parse_policy(_document(item["PolicyDocument"]), name=label))
                except PolicyError as exc:
                    errors.append(str(exc))
        for owner in (entity, *groups):
            for attached in owner.get("AttachedManagedPolicies", []):
                policy = self._managed(attached["PolicyArn"], managed, problems)
                if policy is not None:
                    policies.append(policy.named(f"managed:{attached['PolicyName']}"))
                elif attached["PolicyArn"] in problems:
                    errors.append(problems[attached["PolicyArn"]])
        boundary = None
        boundary_arn = entity.get("PermissionsBoundary", {}).get("PermissionsBoundaryArn")
        if boundary_arn:
            boundary = self._managed(boundary_arn, managed, problems)
            if boundary is None:
                errors.append(problems.get(boundary_arn,
                                           f"permissions boundary {boundary_arn} not found"))
            else:
                boundary = boundary.named(f"boundary:{boundary_arn.rsplit('/', 1)[-1]}")
        trust = None
        if kind == "role":
            try:
                trust = parse_policy(_document(entity["AssumeRolePolicyDocument"]),
                                     name=f"trust:{entity['RoleName']}")
            except PolicyError as exc:
                errors.append(str(exc))
        unique = entity.get("RoleId" if kind == "role" else "UserId", "")
        return Identity(entity["Arn"], kind, unique, tuple(policies), boundary, trust,
                        _tags(entity.get("Tags")), tuple(errors))

    def _managed(self, arn: str, managed: dict[str, Policy],
                 problems: dict[str, str]) -> Policy | None:
        """A managed policy by ARN; AWS-managed ones are read on demand (not listed above)."""
        if arn in managed or arn in problems:
            return managed.get(arn)
        iam = self._client("iam")
        try:
            version = iam.get_policy(PolicyArn=arn)["Policy"]["DefaultVersionId"]
            document = iam.get_policy_version(PolicyArn=arn, VersionId=version)
            managed[arn] = parse_policy(_document(document["PolicyVersion"]["Document"]),
                                        name=f"managed:{arn}")
        except ClientError as exc:
            if not _missing(exc):
                raise
            problems[arn] = f"managed policy {arn} does not exist"
        except PolicyError as exc:
            problems[arn] = str(exc)
        return managed.get(arn)

    # --- resources -------------------------------------------------------------------------

    def queue(self, arn: str) -> Resource:
        """An SQS queue's policy (the `Policy` attribute) and tags."""
        return self._resource(f"sqs:{arn}", lambda: self._read_queue(arn))

    def topic(self, arn: str) -> Resource:
        """An SNS topic's access policy (the `Policy` attribute) and tags."""
        return self._resource(f"sns:{arn}", lambda: self._read_topic(arn))

    def bucket(self, name: str) -> Resource:
        """An S3 bucket's policy."""
        return self._resource(f"s3:{name}", lambda: self._read_bucket(name))

    def secret(self, secret_id: str, region: str = REGION) -> Resource:
        """A secret's resource policy and tags, by ARN or by name (in `region`); `arn` is
        its full ARN."""
        if secret_id.startswith("arn:"):
            region = aws.region_of(secret_id)
        return self._resource(f"secret:{region}:{secret_id}",
                              lambda: self._read_secret(secret_id, region))

    def key(self, arn: str) -> Resource:
        """A KMS key's key policy (every key has one)."""
        return self._resource(f"kms:{arn}", lambda: self._read_key(arn))

    def table(self, arn: str) -> Resource:
        """A DynamoDB table's resource policy and tags (an index's are its table's)."""
        arn = arn.split("/index/", 1)[0]
        return self._resource(f"dynamodb:{arn}", lambda: self._read_table(arn))

    def bucket_exists(self, name: str) -> bool:
        """Whether the bucket exists (read each time: asked only to tell a HEAD's missing key
        from a missing bucket, kit/gateway/guard.py); a name S3 would refuse is none."""
        try:
            return _optional(lambda: self._client("s3").head_bucket(Bucket=name)) is not None
        except ParamValidationError:  # the caller chose the name: no such bucket, not a crash
            return False

    def object_key(self, bucket: str, key: str) -> str | None:
        """The customer managed key an S3 object is encrypted with (read each time: objects
        change without the gateway knowing)."""
        head = _optional(lambda: self._client("s3").head_object(Bucket=bucket, Key=key)) or {}
        ref = head.get("SSEKMSKeyId") if head.get("ServerSideEncryption") == "aws:kms" else None
        return self.customer_key(ref)

    def customer_key(self, ref: str | None, region: str = REGION) -> str | None:
        """The ARN of the customer managed key `ref` (id, ARN or alias; an id or alias of
        `region`) names; None for none, an AWS managed key (usable by the whole account
        through its service) or a key that does not exist."""
        return resource_policies.customer_key(self._client, ref, region)

    def secret_arn(self, name: str, region: str = REGION) -> str | None:
        """The full ARN (with its random suffix) of secret `name` in `region`; None when it
        is missing."""
        found = self.secret(name, region)
        return found.arn if found.exists else None

    def partition_key(self, table_arn: str) -> str | None:
        """The partition (HASH) key attribute of a DynamoDB table, or of an index
        (`table/<t>/index/<i>`); None when it is missing (cached until invalidated:
        CreateTable, UpdateTable and DeleteTable invalidate the store)."""
        with self._lock:
            generation = self._generation
            cached = self._tables.get(table_arn)
        if cached is not None and cached[0] == generation:
            return cached[1]
        table_part, _, index = table_arn.partition("/index/")
        try:
            found = _hash_key(self._client("dynamodb").describe_table(
                TableName=table_part.rsplit("/", 1)[-1]), index)
        except ClientError:  # no such table, or a name DynamoDB refuses: no key to read
            found = None
        with self._lock:
            if self._generation == generation:
                self._tables[table_arn] = (generation, found)
        return found

    def _resource(self, key: str, read: Callable[[], Resource]) -> Resource:
        with self._lock:
            generation = self._generation
            cached = self._resources.get(key)
        if cached is not None and cached[0] == generation:
            return cached[1]
        found = read()
        with self._lock:
            if self._generation == generation:
                self._resources[key] = (generation, found)
        return found

    def _read_queue(self, arn: str) -> Resource:
        _, _, _, region, owner, name = arn.split(":", 5)
        sqs = self._client("sqs", region)
        url = f"{self._upstream}/{owner}/{name}"
        try:
            attrs = sqs.get_queue_attributes(
                QueueUrl=url, AttributeNames=["Policy", "KmsMasterKeyId"]).get("Attributes", {})
            tags = sqs.list_queue_tags(QueueUrl=url).get("Tags", {})
        except ClientError as exc:
            if not _missing(exc):
                raise
            return Resource(arn, exists=False)
        return _with_policy(arn, attrs.get("Policy"), tags,
                            self.customer_key(attrs.get("KmsMasterKeyId"), region))

    def _read_topic(self, arn: str) -> Resource:
        sns = self._client("sns", aws.region_of(arn))
        try:
            attrs = sns.get_topic_attributes(TopicArn=arn).get("Attributes", {})
            tags = sns.list_tags_for_resource(ResourceArn=arn).get("Tags", [])
        except ClientError as exc:
            if not _missing(exc):
                raise
            return Resource(arn, exists=False)
        return _with_policy(arn, attrs.get("Policy"), _tags(tags),
                            self.customer_key(attrs.get("KmsMasterKeyId"), aws.region_of(arn)))

    def _read_bucket(self, name: str) -> Resource:
        arn = f"arn:aws:s3:::{name}"
        found = _optional(lambda: resource_policies.bucket(self._client, arn))
        text, ref = found or (None, None)
        return _with_policy(arn, text, {}, self.customer_key(ref))

    def _read_key(self, arn: str) -> Resource:
        text = _optional(lambda: resource_policies.key_policy(self._client, arn))
        return _with_policy(arn, text, {}) if text else Resource(arn, exists=False)

    def _read_table(self, arn: str) -> Resource:
        ddb = self._client("dynamodb", aws.region_of(arn))
        try:
            tags = ddb.list_tags_of_resource(ResourceArn=arn).get("Tags", [])
            text = _optional(lambda: ddb.get_resource_policy(ResourceArn=arn)["Policy"])
        except ClientError as exc:
            status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
            if not (_missing(exc) or 400 <= status < 500):
                raise  # the emulator broke: the kit's
            return Resource(arn, exists=False)  # no such table, or a name DynamoDB refuses
        return _with_policy(arn, text, _tags(tags))

    def _read_secret(self, secret_id: str, region: str) -> Resource:
        secrets = self._client("secretsmanager", region)
        try:
            described = secrets.describe_secret(SecretId=secret_id)
            text = secrets.get_resource_policy(SecretId=secret_id).get("ResourcePolicy")
        except ClientError as exc:
            if not _missing(exc):
                raise
            arn = secret_id if secret_id.startswith("arn:") else secret_pattern(
                self.account, secret_id, region)
            return Resource(arn, exists=False)
        return _with_policy(described["ARN"], text, _tags(described.get("Tags")))


def _hash_key(described: dict[str, Any], index: str = "") -> str | None:
    """The HASH attribute of a DescribeTable answer's table, or of its index `index`."""
    table = described.get("Table", {})
    schema = table.get("KeySchema", [])
    if index:
        indexes = [*table.get("GlobalSecondaryIndexes", []),
                   *table.get("LocalSecondaryIndexes", [])]
        schema = next((i.get("KeySchema", []) for i in indexes
                       if i.get("IndexName") == index), [])
    return next((k["AttributeName"] for k in schema if k.get("KeyType") == "HASH"), None)


def _optional(call: Callable[[], Any]) -> Any:
    """The call's result, or None when the service says there is no such thing."""
    try:
        return call()
    except ClientError as exc:
        if not _missing(exc):
            raise
        return None


def _with_policy(arn: str, text: str | None, tags: Mapping[str, str],
                 kms_key: str | None = None) -> Resource:
    if not text:
        return Resource(arn, None, dict(tags), kms_key=kms_key)
    try:
        return Resource(arn, parse_policy(text, name=f"resource:{arn}"), dict(tags),
                        kms_key=kms_key)
    except PolicyError as exc:
        return Resource(arn, None, dict(tags), problems=(str(exc),), kms_key=kms_key)
