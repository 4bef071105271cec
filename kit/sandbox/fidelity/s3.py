"""S3: buckets as AWS creates and configures them.

moto internals touched: moto.s3.responses.S3Response._bucket_response_put,
S3Response._bucket_response_get, S3Response._bucket_response_delete,
S3Response.get_bucket_lifecycle, S3Response.serialized, S3Response.backend, S3Response.body,
S3Response.bucket_name, S3Response.data,
moto.s3.models.S3Backend.put_object_lock_configuration,
S3Backend.put_bucket_lifecycle_configuration, S3Backend.put_bucket_policy,
S3Backend.put_bucket_inventory_configuration, S3Backend.get_bucket_inventory_configuration,
S3Backend.put_bucket_tagging, S3Backend.get_bucket,
moto.s3.models.FakeBucket.get_permission, FakeBucket.__dict__, FakeBucket.inventory_configs,
FakeBucket.rules, FakeBucket.is_versioned, FakeBucket.object_lock_enabled,
FakeBucket.versioning_status, FakeBucket.default_lock_mode, FakeBucket.default_lock_days,
FakeBucket.default_lock_years, FakeBucket.kit_minimum_size, LifecycleRule.id,
LifecycleRule.kit_sizes, FakeBucketInventoryConfiguration.kit_versions, ActionResult.result,
moto.iam.access_control.PermissionResult.NEUTRAL, moto.s3.exceptions.S3ClientError,
moto.s3.exceptions.InvalidBucketState.
"""

from __future__ import annotations

import json
from typing import Any

# Bucket configurations kept by id: query key -> the document's root element.
BY_ID = {"analytics": "AnalyticsConfiguration", "metrics": "MetricsConfiguration",
         "intelligent-tiering": "IntelligentTieringConfiguration"}
# Bucket subresources of the S3 API (query keys), and those moto 5.2 serves per method;
# a request for any other falls through to CreateBucket, ListObjects or DeleteBucket.
SUBRESOURCES = {
    "accelerate", "acl", "analytics", "cors", "encryption", "intelligent-tiering",
    "inventory", "lifecycle", "location", "logging", "metadataConfiguration",
    "metadataTable", "metrics", "notification", "object-lock", "ownershipControls",
    "policy", "policyStatus", "publicAccessBlock", "replication", "requestPayment",
    "tagging", "versioning", "website"}
SERVED = {
    "PUT": {"accelerate", "acl", "cors", "encryption", "inventory", "lifecycle", "logging",
            "notification", "object-lock", "ownershipControls", "policy",
            "publicAccessBlock", "replication", "tagging", "versioning", "website"},
    "GET": {"accelerate", "acl", "cors", "encryption", "inventory", "lifecycle", "location",
            "logging", "notification", "object-lock", "ownershipControls", "policy",
            "policyStatus", "publicAccessBlock", "replication", "tagging", "versioning",
            "website"},
    "DELETE": {"cors", "encryption", "lifecycle", "ownershipControls", "policy",
               "publicAccessBlock", "replication", "tagging", "website"},
}


def creation_tags(body: bytes) -> dict[str, str]:
    """The Tags of a CreateBucketConfiguration document (empty when it has none)."""
    import xmltodict

    try:
        config = xmltodict.parse(body).get("CreateBucketConfiguration") or {}
    except Exception:  # noqa: BLE001 - not XML: moto has answered it already
        return {}
    tags = ((config.get("Tags") or {}).get("Tag")) or []
    tags = tags if isinstance(tags, list) else [tags]
    return {tag["Key"]: tag.get("Value") or "" for tag in tags}


def bucket_tags_given_at_creation_are_kept() -> None:
    """CreateBucket stores the tags of its CreateBucketConfiguration.

    AWS (S3 API reference, CreateBucket): CreateBucketConfiguration.Tags are "tags that
    you can apply to the bucket that you're creating". Provider 6.x sends a bucket's tags
    there and reads them back through S3 Control's ListTagsForResource; moto 5.2 ignores
    them, so every tagged bucket reads back untagged and plans a change forever.
    """
    from moto.s3.responses import S3Response

    if getattr(S3Response._bucket_response_put, "_kit_fix", False):
        return
    original = S3Response._bucket_response_put

    def _bucket_response_put(self: Any, request: Any, bucket_name: str,
                             querystring: dict[str, Any]) -> Any:
        result = original(self, request, bucket_name, querystring)
        status = result[0] if isinstance(result, tuple) else 200
        if not querystring and self.body and status < 300:
            tags = creation_tags(self.body)
            if tags:
                self.backend.put_bucket_tagging(bucket_name, tags)
        return result

    _bucket_response_put._kit_fix = True  # type: ignore[attr-defined]
    S3Response._bucket_response_put = _bucket_response_put  # type: ignore[method-assign]


def bucket_configurations_are_served() -> None:
    """Analytics, metrics and Intelligent-Tiering configurations and the request payment
    setting are stored and returned, an inventory configuration can be deleted (and a
    missing one is NoSuchConfiguration); any other bucket subresource moto lacks is
    refused.

    AWS (S3 API reference, PutBucketAnalyticsConfiguration, PutBucketMetricsConfiguration,
    PutBucketIntelligentTieringConfiguration and their Get/Delete/List; PutBucketRequestPayment,
    GetBucketRequestPayment: Payer is BucketOwner until set; DeleteBucketInventoryConfiguration).
    moto 5.2 serves none of them:
    a PUT falls through to CreateBucket (outside us-east-1 an
    IllegalLocationConstraintException, in it a silent success that stores nothing), a GET
    to ListObjects, and a DELETE to DeleteBucket, which deletes the bucket.
    """
    from moto.s3.responses import S3Response

    if getattr(S3Response._bucket_response_get, "_kit_fix", False):
        return
    originals = {"GET": S3Response._bucket_response_get,
                 "PUT": S3Response._bucket_response_put,
                 "DELETE": S3Response._bucket_response_delete}

    def get(self: Any, bucket_name: str, querystring: dict[str, Any]) -> Any:
        answer = _serve(self, "GET", bucket_name, querystring)
        return originals["GET"](self, bucket_name, querystring) if answer is None else answer

    def put(self: Any, request: Any, bucket_name: str, querystring: dict[str, Any]) -> Any:
        answer = _serve(self, "PUT", bucket_name, querystring)
        return originals["PUT"](self, request, bucket_name, querystring) if answer is None \
            else answer

    def delete(self: Any, bucket_name: str, querystring: dict[str, Any]) -> Any:
        answer = _serve(self, "DELETE", bucket_name, querystring)
        return originals["DELETE"](self, bucket_name, querystring) if answer is None \
            else answer

    get._kit_fix = True  # type: ignore[attr-defined]
    S3Response._bucket_response_get = get  # type: ignore[method-assign]
    S3Response._bucket_response_put = put  # type: ignore[method-assign]
    S3Response._bucket_response_delete = delete  # type: ignore[method-assign]


def _serve(response: Any, method: str, bucket_name: str, querystring: dict[str, Any]) -> Any:
    """The kit's answer to a bucket subresource request, or None for moto's own."""
    from moto.s3.exceptions import S3ClientError

    asked = SUBRESOURCES & set(querystring)
    config_id = querystring.get("id", [None])[0]
    if asked == {"inventory"} and method == "GET" and config_id is not None and \
            config_id not in response.backend.get_bucket(bucket_name).inventory_configs:
        # AWS's code for it (moto says NoSuchInventoryConfig, which no client knows).
        raise S3ClientError("NoSuchConfiguration",
                            "The specified configuration does not exist.")
    if not asked or asked & SERVED[method]:
        return None
    key = sorted(asked)[0]
    bucket = response.backend.get_bucket(bucket_name)
    configs = bucket.__dict__.setdefault("kit_configurations", {})
    if key in BY_ID:
        return _by_id(configs.setdefault(key, {}), BY_ID[key], method, config_id,
                      response.body)
    if key == "inventory" and method == "DELETE":
        if bucket.inventory_configs.pop(config_id, None) is None:
            raise S3ClientError("NoSuchConfiguration",
                                "The specified configuration does not exist.")
        return 204, {}, ""
    if key == "requestPayment":
        if method == "PUT":
            configs["requestPayment"] = response.body
            return 200, {}, ""
        if method == "GET":
            return 200, {}, configs.get("requestPayment") or _xml(
                "RequestPaymentConfiguration", "<Payer>BucketOwner</Payer>")
    raise NotImplementedError(f"{method} of the bucket subresource ?{key}")


def _xml(root: str, inner: str) -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<{root} '
            f'xmlns="http://s3.amazonaws.com/doc/2006-03-01/">{inner}</{root}>')


def _by_id(store: dict[str, bytes], root: str, method: str, config_id: str | None,
           body: bytes) -> Any:
    """Put, get, delete or list (GET without id) configurations kept by id."""
    from moto.s3.exceptions import S3ClientError

    if method == "PUT" and config_id:
        store[config_id] = body
        return 200, {}, ""
    if method == "GET" and config_id is None:
        documents = (d.decode() if isinstance(d, bytes) else d for d in store.values())
        inner = "".join(d.split("?>", 1)[-1] for d in documents)
        return 200, {}, _xml(f"List{root}sResult", f"<IsTruncated>false</IsTruncated>{inner}")
    if config_id not in store:
        raise S3ClientError("NoSuchConfiguration",
                            "The specified configuration does not exist.")
    if method == "GET":
        return 200, {}, store[config_id]
    del store[config_id]
    return 204, {}, ""


def object_lock_configures_a_bucket_with_objects() -> None:
    """PutObjectLockConfiguration applies to a versioned bucket that already holds objects.

    AWS (S3 API reference, PutObjectLockConfiguration): "You can enable Object Lock for new
    or existing buckets"; the default retention applies to objects placed after it. moto
    5.2 refuses any bucket that is not empty (InvalidBucket: Bucket needs to be empty), so
    a stack that writes an object while it configures the lock fails at random.
    """
    from moto.s3.exceptions import InvalidBucketState
    from moto.s3.models import S3Backend

    if getattr(S3Backend.put_object_lock_configuration, "_kit_fix", False):
        return

    def put_object_lock_configuration(self: Any, bucket_name: str, lock_enabled: bool,
                                      mode: str | None = None, days: int | None = None,
                                      years: int | None = None) -> None:
        # moto's own, less its check that the bucket is empty.
        bucket = self.get_bucket(bucket_name)
        if not bucket.is_versioned:
            raise InvalidBucketState("Versioning must be 'Enabled' on the bucket to apply a "
                                     "Object Lock configuration")
        if lock_enabled:
            bucket.object_lock_enabled = True
            bucket.versioning_status = "Enabled"
        bucket.default_lock_mode = mode
        bucket.default_lock_days = days
        bucket.default_lock_years = years

    put_object_lock_configuration._kit_fix = True  # type: ignore[attr-defined]
    S3Backend.put_object_lock_configuration = put_object_lock_configuration  # type: ignore[method-assign]


SIZES = ("ObjectSizeGreaterThan", "ObjectSizeLessThan")
MINIMUM_SIZE_HEADER = "x-amz-transition-default-minimum-object-size"


def _sizes(part: Any) -> dict[str, int]:
    return {k: int(part[k]) for k in SIZES if isinstance(part, dict) and part.get(k)}


def lifecycle_rules_read_back_as_put() -> None:
    """A lifecycle rule's object size filters and the configuration's
    TransitionDefaultMinimumObjectSize read back as they were put.

    AWS (S3 API reference, PutBucketLifecycleConfiguration: LifecycleRuleFilter and
    LifecycleRuleAndOperator have ObjectSizeGreaterThan and ObjectSizeLessThan; the
    x-amz-transition-default-minimum-object-size header, returned by
    GetBucketLifecycleConfiguration). moto 5.2 drops the sizes and always answers
    all_storage_classes_128K, so the provider, which waits until the rules read back
    equal, waits three minutes and fails.
    """
    from moto.s3.models import S3Backend
    from moto.s3.responses import S3Response

    if getattr(S3Backend.put_bucket_lifecycle_configuration, "_kit_fix", False):
        return
    put_rules = S3Backend.put_bucket_lifecycle_configuration
    get_rules = S3Response.get_bucket_lifecycle
    put_bucket = S3Response._bucket_response_put

    def put_bucket_lifecycle_configuration(self: Any, bucket_name: str,
                                           rules: list[dict[str, Any]]) -> None:
        put_rules(self, bucket_name, rules)
        bucket = self.get_bucket(bucket_name)
        for rule, stored in zip(rules, bucket.rules, strict=False):
            found = rule.get("Filter") or {}
            stored.kit_sizes = (_sizes(found), _sizes(found.get("And")))

    def _bucket_response_put(self: Any, request: Any, bucket_name: str,
                             querystring: dict[str, Any]) -> Any:
        result = put_bucket(self, request, bucket_name, querystring)
        if "lifecycle" in querystring:
            self.backend.get_bucket(bucket_name).kit_minimum_size = request.headers.get(
                MINIMUM_SIZE_HEADER) or "all_storage_classes_128K"
        return result

    def get_bucket_lifecycle(self: Any) -> Any:
        serialize = self.serialized

        def with_sizes(action_result: Any) -> Any:
            _put_sizes_back(self.backend.get_bucket(self.bucket_name), action_result.result)
            return serialize(action_result)

        self.serialized = with_sizes
        try:
            return get_rules(self)
        finally:
            del self.serialized

    put_bucket_lifecycle_configuration._kit_fix = True  # type: ignore[attr-defined]
    S3Backend.put_bucket_lifecycle_configuration = put_bucket_lifecycle_configuration  # type: ignore[method-assign]
    S3Response._bucket_response_put = _bucket_response_put  # type: ignore[method-assign]
    S3Response.get_bucket_lifecycle = get_bucket_lifecycle  # type: ignore[method-assign]


def _put_sizes_back(bucket: Any, result: dict[str, Any]) -> None:
    """Add the size filters and minimum object size that moto dropped to a read-back."""
    stored = {rule.id: getattr(rule, "kit_sizes", ({}, {})) for rule in bucket.rules}
    for rule in result["Rules"]:
        top, conjunction = stored.get(rule["ID"], ({}, {}))
        if top:
            rule.setdefault("Filter", {}).update(top)
        if conjunction:
            rule["Filter"].setdefault("And", {}).update(conjunction)
    result["TransitionDefaultMinimumObjectSize"] = getattr(
        bucket, "kit_minimum_size", "all_storage_classes_128K")


def bucket_policies_left_to_the_gateway() -> None:
    """S3 applies a bucket policy's Deny only when its conditions hold.

    AWS evaluates the Condition block of every statement ("Policy evaluation logic"), so the
    common `Deny s3:* when aws:SecureTransport is false` never denies an SDK call over
    HTTPS. moto 5.2 reads bucket policies without their conditions and refuses object
    calls (403, no body) that such a Deny names. The kit's gateway decides every workload
    call with the bucket policy, conditions included, before moto sees it; moto serves.
    """
    from moto.iam.access_control import PermissionResult
    from moto.s3.models import FakeBucket

    if getattr(FakeBucket.get_permission, "_kit_fix", False):
        return

    def get_permission(self: Any, action: str, resource: str) -> Any:
        return PermissionResult.NEUTRAL

    get_permission._kit_fix = True  # type: ignore[attr-defined]
    FakeBucket.get_permission = get_permission  # type: ignore[method-assign]


def bucket_policies_name_their_bucket() -> None:
    """PutBucketPolicy refuses a policy whose Resource is not the bucket or inside it.

    AWS answers MalformedPolicy, "Policy has invalid resource", for a bucket policy naming
    another bucket (hashicorp/terraform#23570, aws-samples/aws-media-services-vod-automation
    #17) or Resource `*` (noobaa/noobaa-core#10058 quotes AWS's answer). moto stores any
    policy, so a solution widening its bucket policy's Resource to `*` applied here and not
    on AWS. Refused here: `*`, and ARNs whose bucket part has no wildcard and is another
    bucket's (a pattern is left alone: which ones AWS accepts is not documented).
    """
    from moto.s3.exceptions import S3ClientError
    from moto.s3.models import S3Backend

    original = S3Backend.put_bucket_policy
    if getattr(original, "_kit_fix", False):
        return

    def put_bucket_policy(self: Any, bucket_name: str, policy: bytes) -> None:
        if _foreign_resources(bucket_name, policy):
            raise S3ClientError("MalformedPolicy", "Policy has invalid resource")
        original(self, bucket_name, policy)

    put_bucket_policy._kit_fix = True  # type: ignore[attr-defined]
    S3Backend.put_bucket_policy = put_bucket_policy  # type: ignore[method-assign]


def _foreign_resources(bucket: str, policy: bytes | str) -> list[str]:
    """The Resource values of `policy` that cannot name `bucket` or an object in it."""
    try:
        document = json.loads(policy)
        statements = document["Statement"]
    except (ValueError, TypeError, KeyError):
        return []  # not ours to judge: moto's own answer stands
    foreign = []
    for statement in statements if isinstance(statements, list) else [statements]:
        resources = statement.get("Resource", []) if isinstance(statement, dict) else []
        for resource in resources if isinstance(resources, list) else [resources]:
            if not isinstance(resource, str):
                continue
            named = resource.split(":::", 1)[1].split("/", 1)[0] if ":::" in resource else None
            if resource == "*" or (named is not None and not set(named) & set("*?")
                                   and named != bucket):
                foreign.append(resource)
    return foreign


def inventory_configurations_read_back_as_put() -> None:
    """An inventory configuration reads back with the object versions it includes and its
    destination's SSE-S3 encryption.

    AWS (S3 API reference, PutBucketInventoryConfiguration / GetBucketInventoryConfiguration:
    InventoryConfiguration.IncludedObjectVersions, "All" or "Current"; InventoryEncryption,
    whose SSE-S3 is an empty element). moto 5.2 answers "All" whatever was put, and reads
    `<SSE-S3/>` as nothing, so its answer has an empty Encryption: terraform-aws-modules/
    s3-bucket's s3-inventory and s3-analytics examples plan a change right after the apply.
    """
    from moto.s3.models import S3Backend
    from moto.s3.responses import S3Response

    if getattr(S3Backend.put_bucket_inventory_configuration, "_kit_fix", False):
        return
    put = S3Backend.put_bucket_inventory_configuration
    serialized = S3Response.serialized

    def put_bucket_inventory_configuration(self: Any, bucket_name: str,
                                           configuration: dict[str, Any]) -> None:
        destination = (configuration.get("Destination") or {}).get("S3BucketDestination")
        encryption = (destination or {}).get("Encryption")
        if isinstance(encryption, dict) and "SSE-S3" in encryption and \
                not encryption["SSE-S3"]:
            encryption["SSE-S3"] = {}
        put(self, bucket_name, configuration)
        made = self.get_bucket(bucket_name).inventory_configs[configuration["Id"]]
        made.kit_versions = configuration.get("IncludedObjectVersions") or "All"

    def answer(self: Any, result: Any) -> Any:
        # GetBucketInventoryConfiguration builds its answer with "All": the stored value.
        data = getattr(self, "data", None)
        action = data.get("Action") if isinstance(data, dict) else None
        body = getattr(result, "result", None)
        config = body.get("InventoryConfiguration") if isinstance(body, dict) and \
            action == "GetBucketInventoryConfiguration" else None
        if isinstance(config, dict) and "IncludedObjectVersions" in config:
            stored = self.backend.get_bucket_inventory_configuration(
                bucket_name=self.bucket_name, id=config["Id"])
            config["IncludedObjectVersions"] = getattr(stored, "kit_versions", "All")
        return serialized(self, result)

    put_bucket_inventory_configuration._kit_fix = True  # type: ignore[attr-defined]
    S3Backend.put_bucket_inventory_configuration = (  # type: ignore[method-assign]
        put_bucket_inventory_configuration)
    S3Response.serialized = answer  # type: ignore[method-assign]
