"""SNS: a topic's data protection policy and the attributes it reads back.

moto internals touched: moto.sns.responses.SNSResponse.put_data_protection_policy,
SNSResponse.get_data_protection_policy, SNSResponse.get_topic_attributes,
SNSResponse.backend, SNSBackend.get_topic, Topic.kit_data_protection_policy, the snake-case
attributes of Topic (moto.core.utils.camelcase_to_underscores of each RETURNED name),
moto.core.responses.ActionResult, ActionResult.result, moto.core.responses.EmptyResult,
BaseResponse._get_param.
"""

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


PROTOCOLS = ("Application", "HTTP", "Lambda", "SQS", "Firehose")
# Topic attributes SetTopicAttributes stores and GetTopicAttributes returns on AWS, which
# moto 5.2 stores (as snake-case attributes of the topic) but leaves out of its answer.
RETURNED = (*(f"{p}{what}" for p in PROTOCOLS for what in (
    "SuccessFeedbackRoleArn", "FailureFeedbackRoleArn", "SuccessFeedbackSampleRate")),
    "SignatureVersion", "TracingConfig", "ArchivePolicy", "FifoThroughputScope")


def topic_attributes_read_back() -> None:
    """GetTopicAttributes returns the delivery-status logging attributes (and the
    signature version, tracing, archive policy and FIFO throughput scope) a topic was
    given.

    AWS (SNS API reference, SetTopicAttributes / GetTopicAttributes; SNS Developer
    Guide, "Amazon SNS message delivery status"): `<protocol>SuccessFeedbackRoleArn`,
    `<protocol>FailureFeedbackRoleArn` and `<protocol>SuccessFeedbackSampleRate`, for
    the protocols application, http, lambda, sqs and firehose, are topic attributes that
    GetTopicAttributes returns as set. moto 5.2 stores them but does not return them, so
    a topic with delivery-status logging plans a change after every apply.
    """
    from moto.core.utils import camelcase_to_underscores
    from moto.sns.responses import SNSResponse

    original = SNSResponse.get_topic_attributes
    if getattr(original, "_kit_fix", False):
        return

    def get_topic_attributes(self: Any) -> Any:
        result = original(self)
        topic = self.backend.get_topic(self._get_param("TopicArn"))
        attributes = result.result["Attributes"]
        for name in RETURNED:
            value = getattr(topic, camelcase_to_underscores(name), None)
            if name not in attributes and value not in (None, ""):
                attributes[name] = str(value)
        return result

    get_topic_attributes._kit_fix = True  # type: ignore[attr-defined]
    SNSResponse.get_topic_attributes = get_topic_attributes  # type: ignore[method-assign]
