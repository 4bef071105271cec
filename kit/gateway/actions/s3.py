"""S3 (REST-XML, path-style): the action comes from method, bucket/key and subresource.

`GET /bucket` is s3:ListBucket on the bucket, `PUT /bucket/key` s3:PutObject on the object,
`?policy`, `?tagging`, `?uploads`... select the subresource actions. A copy also reads its
source; a multi-object delete is approximated as s3:DeleteObject on `bucket/*`.

A read of an object that does not exist (GetObject, HeadObject) is answered 404 NoSuchKey
only to a caller who may also s3:ListBucket the bucket; to any other, 403 AccessDenied
(S3 API reference, GetObject and HeadObject, "Permissions": "If you have the s3:ListBucket
permission on the bucket, Amazon S3 returns an HTTP status code 404 Not Found error. If you
don't have the s3:ListBucket permission, Amazon S3 returns an HTTP status code 403 Access
Denied error."). The call carries that check as `if_missing`; `missing_key` says whether
the emulator's reply is such a miss.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from urllib.parse import parse_qsl, unquote, urlsplit

from kit.gateway.actions.base import Call, Check, known, unknown
from kit.iam.context import ContextValue

# Calls after which a cached bucket policy or default encryption key may be stale.
_POLICY_CHANGES = {"PutBucketPolicy", "DeleteBucketPolicy", "CreateBucket", "DeleteBucket",
                   "PutEncryptionConfiguration"}
# Subresource in the query string -> action, per (method, bucket-or-object).
_BUCKET_SUB = {
    ("GET", "policy"): "GetBucketPolicy", ("PUT", "policy"): "PutBucketPolicy",
    ("DELETE", "policy"): "DeleteBucketPolicy", ("GET", "acl"): "GetBucketAcl",
    ("PUT", "acl"): "PutBucketAcl", ("GET", "tagging"): "GetBucketTagging",
    ("PUT", "tagging"): "PutBucketTagging", ("DELETE", "tagging"): "PutBucketTagging",
    ("GET", "versioning"): "GetBucketVersioning", ("PUT", "versioning"): "PutBucketVersioning",
    ("GET", "location"): "GetBucketLocation", ("GET", "versions"): "ListBucketVersions",
    ("GET", "uploads"): "ListBucketMultipartUploads", ("POST", "delete"): "DeleteObject",
    ("GET", "encryption"): "GetEncryptionConfiguration",
    ("PUT", "encryption"): "PutEncryptionConfiguration",
    ("GET", "lifecycle"): "GetLifecycleConfiguration",
    ("PUT", "lifecycle"): "PutLifecycleConfiguration",
    ("GET", "notification"): "GetBucketNotification",
    ("PUT", "notification"): "PutBucketNotification",
    ("GET", "publicAccessBlock"): "GetBucketPublicAccessBlock",
    ("PUT", "publicAccessBlock"): "PutBucketPublicAccessBlock",
    ("GET", "ownershipControls"): "GetBucketOwnershipControls",
    ("PUT", "ownershipControls"): "PutBucketOwnershipControls",
    ("GET", "cors"): "GetBucketCORS", ("PUT", "cors"): "PutBucketCORS",
    ("GET", "logging"): "GetBucketLogging", ("GET", "website"): "GetBucketWebsite",
    ("GET", "object-lock"): "GetBucketObjectLockConfiguration",
    ("GET", "replication"): "GetReplicationConfiguration",
    ("GET", "accelerate"): "GetAccelerateConfiguration",
    ("GET", "requestPayment"): "GetBucketRequestPayment",
}
_BUCKET = {"GET": "ListBucket", "HEAD": "ListBucket", "PUT": "CreateBucket",
              "DELETE": "DeleteBucket"}
_OBJECT_SUB = {
    ("GET", "tagging"): "GetObjectTagging", ("PUT", "tagging"): "PutObjectTagging",
    ("DELETE", "tagging"): "DeleteObjectTagging", ("GET", "acl"): "GetObjectAcl",
    ("PUT", "acl"): "PutObjectAcl", ("POST", "uploads"): "PutObject",
    ("GET", "uploadId"): "ListMultipartUploadParts", ("PUT", "uploadId"): "PutObject",
    ("POST", "uploadId"): "PutObject", ("DELETE", "uploadId"): "AbortMultipartUpload",
    ("GET", "attributes"): "GetObjectAttributes", ("GET", "retention"): "GetObjectRetention",
    ("PUT", "retention"): "PutObjectRetention", ("GET", "legal-hold"): "GetObjectLegalHold",
    ("PUT", "legal-hold"): "PutObjectLegalHold", ("POST", "restore"): "RestoreObject",
}
_SSE_HEADERS = ("x-amz-server-side-encryption", "x-amz-server-side-encryption-aws-kms-key-id")
_OBJECT = {"GET": "GetObject", "HEAD": "GetObject", "PUT": "PutObject",
              "DELETE": "DeleteObject"}
_NO_SUCH_KEY = b"<Code>NoSuchKey</Code>"

def describe(method: str, path: str, headers: Mapping[str, str]) -> Call:
    """The checks of one path-style S3 request."""
    split = urlsplit(path)
    query = dict(parse_qsl(split.query, keep_blank_values=True))
    bucket, _, key = split.path.lstrip("/").partition("/")
    bucket, key = unquote(bucket), unquote(key)
    method = method.upper()
    versioned = "versionId" in query
    context: dict[str, ContextValue] = {}
    if not bucket:
        operation = "ListAllMyBuckets" if method == "GET" else ""
        resource = "*"
    elif not key:
        operation = next((_BUCKET_SUB[(method, s)] for s in query
                          if (method, s) in _BUCKET_SUB), _BUCKET.get(method, ""))
        resource = f"arn:aws:s3:::{bucket}"
        if operation == "DeleteObject":  # multi-object delete: each key, approximated
            resource = f"arn:aws:s3:::{bucket}/*"
        if operation == "ListBucket" and "prefix" in query:
            context["s3:prefix"] = query["prefix"]
    else:
        operation = next((_OBJECT_SUB[(method, s)] for s in query
                          if (method, s) in _OBJECT_SUB), _OBJECT.get(method, ""))
        if versioned and operation in ("GetObject", "DeleteObject", "GetObjectTagging",
                                       "GetObjectAcl", "PutObjectTagging"):
            operation = operation.replace("Object", "ObjectVersion", 1)
        resource = f"arn:aws:s3:::{bucket}/{key}"
    if not operation:
        return Call("s3", f"{method} {split.path}", "rest-xml", params=query,
                    problem=f"S3 request {method} {path} maps to no action")
    found = known("s3", operation)
    if found is None:
        return unknown("s3", operation, "rest-xml", query)
    checks = [Check(found[0], resource)]
    for header in _SSE_HEADERS:  # S3's condition keys of the same name
        if header in headers:
            context[f"s3:{header}"] = headers[header]
    source = headers.get("x-amz-copy-source")
    if source and operation == "PutObject":  # CopyObject also reads its source
        src_bucket, _, src_key = unquote(source.split("?", 1)[0]).lstrip("/").partition("/")
        checks.append(Check("s3:GetObject", f"arn:aws:s3:::{src_bucket}/{src_key}"))
    if_missing = Check("s3:ListBucket", f"arn:aws:s3:::{bucket}") \
        if operation == "GetObject" and key else None
    return Call("s3", operation, "rest-xml", tuple(checks), query, context,
                changes_policy=operation in _POLICY_CHANGES, if_missing=if_missing)


def missing_key(method: str, status: int, body: bytes, bucket_exists: Callable[[], bool]
                ) -> bool:
    """Whether an S3 object read was answered "no such key": a GET's 404 NoSuchKey, or a
    HEAD's 404 (no body to say which) on a bucket that exists (else it is NoSuchBucket;
    asked only then)."""
    if status != 404:
        return False
    if method.upper() == "HEAD":
        return bucket_exists()
    return _NO_SUCH_KEY in body
