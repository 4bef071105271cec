"""SNS: a topic's data protection policy."""

from __future__ import annotations

from typing import Any


def data_protection_policies_are_stored() -> None:
    """PutDataProtectionPolicy stores a topic's policy; GetDataProtectionPolicy returns it.

    AWS (SNS API reference, PutDataProtectionPolicy / GetDataProtectionPolicy): a topic
    has one data protection policy, a JSON document, returned as set ("" before any).
    moto 5.2 implements neither, so `aws_sns_topic_data_protection_policy` (and the
    terraform-aws-modules/sns module's `data_protection_policy`) cannot deploy.
    """
    from moto.core.responses import ActionResult, EmptyResult
    from moto.sns.responses import SNSResponse

    if hasattr(SNSResponse, "put_data_protection_policy"):
        return

    def put_data_protection_policy(self: Any) -> Any:
        topic = self.backend.get_topic(self._get_param("ResourceArn"))
        topic.kit_data_protection_policy = self._get_param("DataProtectionPolicy")
        return EmptyResult()

    def get_data_protection_policy(self: Any) -> Any:
        topic = self.backend.get_topic(self._get_param("ResourceArn"))
        policy = getattr(topic, "kit_data_protection_policy", "")
        return ActionResult({"DataProtectionPolicy": policy})

    SNSResponse.put_data_protection_policy = put_data_protection_policy  # type: ignore[attr-defined]
    SNSResponse.get_data_protection_policy = get_data_protection_policy  # type: ignore[attr-defined]
