"""The key use a call implies: AWS services call KMS on the caller's behalf.

When a queue or an object is encrypted with a customer managed KMS key, SQS and S3 ask KMS
for data keys with the caller's own permissions (forward access sessions, IAM user guide:
"the service that receives a subsequent FAS request also checks the permissions of the same
IAM principal"), so the call fails unless the caller may use the key:
- SQS (developer guide, "Amazon SQS key management"): a producer needs kms:GenerateDataKey
  and kms:Decrypt, a consumer kms:Decrypt; SQS answers KmsAccessDenied.
- S3 (user guide, "Using server-side encryption with AWS KMS keys"): an upload needs
  kms:GenerateDataKey (a multipart upload kms:Decrypt too), a download kms:Decrypt; S3
  answers AccessDenied. HeadObject reads no data and needs no key.
The KMS request carries kms:ViaService, kms:CallerAccount, the encryption context the
service uses (`aws:sqs:arn`, `aws:s3:arn`) and aws:ViaAWSService = true (AWS: global
condition keys). An AWS managed key (alias/aws/sqs, aws/s3) needs none of this.

AWS asks KMS less often than every call: SQS reuses a data key for
KmsDataKeyReusePeriodSeconds, S3 Bucket Keys for a while, and a receive that returns no
message decrypts nothing. The kit asks on every call, the moment a cached key has just
expired: a permission taken away is refused at once, as it will be soon enough on AWS.
"""

from __future__ import annotations

from dataclasses import replace

from kit.gateway.actions import Call, Check
from kit.gateway.policies import PolicyStore

_SQS = {"sqs:SendMessage": ("kms:GenerateDataKey", "kms:Decrypt"),
        "sqs:ReceiveMessage": ("kms:Decrypt",)}
_S3 = {"s3:PutObject": ("kms:GenerateDataKey",), "s3:GetObject": ("kms:Decrypt",)}
_MULTIPART = ("uploadId", "uploads")
_SSE_HEADER = "s3:x-amz-server-side-encryption"
_KEY_HEADER = "s3:x-amz-server-side-encryption-aws-kms-key-id"


def with_key_use(call: Call, method: str, account: str, region: str,
                 store: PolicyStore) -> Call:
    """`call` with a check for each key use it implies (the same call when none)."""
    extra: list[Check] = []
    for check in call.checks:
        key, context = _key_of(call, check, method, store)
        if key is None:
            continue
        actions = (_SQS if call.service == "sqs" else _S3).get(check.action, ())
        if call.service == "s3" and check.action == "s3:PutObject" and any(
                part in call.params for part in _MULTIPART):
            actions = ("kms:GenerateDataKey", "kms:Decrypt")
        keys = (("kms:ViaService", f"{call.service}.{region}.amazonaws.com"),
                ("kms:CallerAccount", account), ("aws:ViaAWSService", True), *context)
        extra += [Check(action, key, keys) for action in actions]
    return replace(call, checks=call.checks + tuple(dict.fromkeys(extra))) if extra else call


def _key_of(call: Call, check: Check, method: str, store: PolicyStore
            ) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    """The customer managed key behind a check, and its encryption context keys."""
    if call.service == "sqs" and check.action in _SQS and check.resource != "*":
        found = store.queue(check.resource)
        return found.kms_key, (("kms:EncryptionContext:aws:sqs:arn", check.resource),)
    if call.service != "s3" or check.action not in _S3 or "/" not in check.resource:
        return None, ()
    bucket, _, key = check.resource.removeprefix("arn:aws:s3:::").partition("/")
    context = (("kms:EncryptionContext:aws:s3:arn", check.resource),)
    if check.action == "s3:PutObject":
        named = call.context.get(_KEY_HEADER)  # the key the request asks for, if any
        if call.context.get(_SSE_HEADER) == "aws:kms" and isinstance(named, str):
            return store.customer_key(named), context
        return store.bucket(bucket).kms_key, context
    if method == "HEAD":
        return None, ()
    return store.object_key(bucket, key), context
