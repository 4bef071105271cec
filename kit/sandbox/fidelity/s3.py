"""S3: buckets as AWS creates them."""

from __future__ import annotations

from typing import Any


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
