"""Read the resource-based policies of the scenario's resources, and the keys they use.

With admin clients, after the run: an SQS queue's `Policy` attribute, an S3 bucket policy, a
secret's resource policy, a KMS key's key policy, a DynamoDB table's resource policy. A
queue, bucket or secret encrypted with a customer managed KMS key adds that key as
`<name>.kms_key`, with its key policy: key use follows from that choice (AWS managed keys
such as `alias/aws/sqs` are usable through the service by the whole account, so they add
nothing).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from botocore.exceptions import ClientError

from kit import aws
from kit.iam.effective import KEY_SUFFIX

# An admin client of a service, in a Region (default the kit's): a resource is read in its own.
ClientFactory = Callable[..., Any]
_MISSING = {"AWS.SimpleQueueService.NonExistentQueue", "QueueDoesNotExist", "NoSuchBucket",
            "NoSuchBucketPolicy", "ServerSideEncryptionConfigurationNotFoundError",
            "ResourceNotFoundException", "NotFoundException", "PolicyNotFoundException"}


def read(clients: ClientFactory, resources: Mapping[str, str]
         ) -> tuple[dict[str, Any], dict[str, str]]:
    """(policy document by resource name, `<name>.kms_key` -> key ARN) for `resources`."""
    policies: dict[str, Any] = {}
    keys: dict[str, str] = {}
    for name, arn in resources.items():
        service = arn.split(":")[2]
        reader = _READERS.get(service)
        if reader is None:
            continue
        try:
            text, key_ref = reader(clients, arn)
        except ClientError as exc:
            if _code(exc) in _MISSING:  # the resource is gone: it grants nothing
                continue
            raise
        if text:
            policies[name] = _document(text)
        key = customer_key(clients, key_ref, aws.region_of(arn))
        if key is not None:
            keys[f"{name}{KEY_SUFFIX}"] = key
            policies[f"{name}{KEY_SUFFIX}"] = _document(key_policy(clients, key))
    return policies, keys


def _queue(clients: ClientFactory, arn: str) -> tuple[str | None, str | None]:
    sqs = clients("sqs", aws.region_of(arn))
    url = aws.queue_url(sqs, arn)
    attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["Policy", "KmsMasterKeyId"])
    found = attrs.get("Attributes", {})
    return found.get("Policy"), found.get("KmsMasterKeyId")


def bucket(clients: ClientFactory, arn: str) -> tuple[str | None, str | None]:
    """A bucket's policy and the key its default encryption names (None: none)."""
    s3, bucket = clients("s3"), arn.split(":::", 1)[1].split("/", 1)[0]
    text = _optional(lambda: s3.get_bucket_policy(Bucket=bucket)["Policy"])
    rules = _optional(lambda: s3.get_bucket_encryption(Bucket=bucket)[
        "ServerSideEncryptionConfiguration"]["Rules"]) or []
    defaults = [r.get("ApplyServerSideEncryptionByDefault", {}) for r in rules]
    key = next((d.get("KMSMasterKeyID") for d in defaults
                if d.get("SSEAlgorithm", "").startswith("aws:kms")), None)
    return text, key


def _secret(clients: ClientFactory, arn: str) -> tuple[str | None, str | None]:
    secrets = clients("secretsmanager", aws.region_of(arn))
    key = secrets.describe_secret(SecretId=arn).get("KmsKeyId")
    return secrets.get_resource_policy(SecretId=arn).get("ResourcePolicy"), key


def table(clients: ClientFactory, arn: str) -> tuple[str | None, str | None]:
    """A DynamoDB table's resource policy (None: none; its encryption key is not read: no
    invariant judges a table's key)."""
    ddb = clients("dynamodb", aws.region_of(arn))
    return _optional(lambda: ddb.get_resource_policy(ResourceArn=arn)["Policy"]), None


def _key(clients: ClientFactory, arn: str) -> tuple[str | None, str | None]:
    return key_policy(clients, arn), None


_READERS: dict[str, Callable[[ClientFactory, str], tuple[str | None, str | None]]] = {
    "sqs": _queue, "s3": bucket, "secretsmanager": _secret, "kms": _key, "dynamodb": table}


def key_policy(clients: ClientFactory, key: str) -> str:
    """A KMS key's key policy (every key has one)."""
    return clients("kms", aws.region_of(key)).get_key_policy(KeyId=key,
                                                             PolicyName="default")["Policy"]


def customer_key(clients: ClientFactory, ref: str | None, region: str = aws.REGION
                 ) -> str | None:
    """The ARN of the customer managed key that `ref` (id, ARN or alias) names, else None
    (no key, an AWS managed key, or a key that does not exist); an id or alias names a key
    of `region` (the Region of the resource that names it)."""
    if not ref or ref.startswith("alias/aws/") or ":alias/aws/" in ref:
        return None  # an AWS managed key
    try:
        meta = clients("kms", aws.region_of(ref) if ref.startswith("arn:") else region
                       ).describe_key(KeyId=ref)["KeyMetadata"]
    except ClientError as exc:
        if _code(exc) in _MISSING:  # names no key: nothing can use it
            return None
        raise
    return meta["Arn"] if meta.get("KeyManager") == "CUSTOMER" else None


def _optional(call: Callable[[], Any]) -> Any:
    """The call's result, or None when the service says there is none."""
    try:
        return call()
    except ClientError as exc:
        if _code(exc) in _MISSING:
            return None
        raise


def _code(exc: ClientError) -> str:
    return exc.response.get("Error", {}).get("Code", "")


def _document(text: str) -> Any:
    # A document that is not JSON is kept as text: the evaluator names what is wrong with it.
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text
