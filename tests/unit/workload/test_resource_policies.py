"""final.iam's resource policies and customer managed keys, read from moto (in process).

What is read, per AWS: the queue's `Policy` and `KmsMasterKeyId` attributes (SQS
GetQueueAttributes), the bucket policy and default encryption (S3 GetBucketPolicy,
GetBucketEncryption), the secret's resource policy and KmsKeyId (Secrets Manager
GetResourcePolicy, DescribeSecret), and a key's policy (KMS GetKeyPolicy, always present:
"Default key policy", https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-default.html).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from kit.aws import ACCOUNT_ID, REGION
from kit.workload import iam_state

QUEUE_POLICY = {"Version": "2012-10-17", "Statement": [{
    "Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{ACCOUNT_ID}:role/worker"},
    "Action": "sqs:PurgeQueue", "Resource": "*"}]}
# S3 refuses a bucket policy whose Resource is not the bucket or inside it.
BUCKET_POLICY = {**QUEUE_POLICY, "Statement": [{
    **QUEUE_POLICY["Statement"][0], "Action": "s3:GetObject",
    "Resource": "arn:aws:s3:::kit-orders/*"}]}
TRUST = {"Version": "2012-10-17", "Statement": [{
    "Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{ACCOUNT_ID}:root"},
    "Action": "sts:AssumeRole"}]}


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A client factory on an in-process moto account."""
    for key in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.setenv(key, "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    with mock_aws():
        yield lambda service, region=REGION: boto3.client(service, region_name=region)


def _world(aws: Any) -> tuple[dict[str, str], dict[str, str], str]:
    """Roles, resources and the customer managed key's ARN."""
    key = aws("kms").create_key()["KeyMetadata"]["Arn"]
    sqs = aws("sqs")
    queue = sqs.create_queue(QueueName="orders", Attributes={
        "Policy": json.dumps(QUEUE_POLICY), "KmsMasterKeyId": key})["QueueUrl"]
    dlq = sqs.create_queue(QueueName="orders-dlq",
                           Attributes={"KmsMasterKeyId": "alias/aws/sqs"})["QueueUrl"]
    arns = {name: sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])[
        "Attributes"]["QueueArn"] for name, url in (("queue", queue), ("dlq", dlq))}
    s3 = aws("s3")
    s3.create_bucket(Bucket="kit-orders")
    s3.put_bucket_policy(Bucket="kit-orders", Policy=json.dumps(BUCKET_POLICY))
    s3.put_bucket_encryption(Bucket="kit-orders", ServerSideEncryptionConfiguration={"Rules": [{
        "ApplyServerSideEncryptionByDefault": {"SSEAlgorithm": "aws:kms",
                                               "KMSMasterKeyID": key}}]})
    secrets = aws("secretsmanager")
    secret = secrets.create_secret(Name="db", SecretString="x", KmsKeyId=key)["ARN"]
    secrets.put_resource_policy(SecretId=secret, ResourcePolicy=json.dumps(QUEUE_POLICY))
    role = aws("iam").create_role(RoleName="worker",
                                  AssumeRolePolicyDocument=json.dumps(TRUST))["Role"]["Arn"]
    resources = {**arns, "bucket": "arn:aws:s3:::kit-orders", "secret": secret, "key": key,
                 "gone": f"arn:aws:sqs:{REGION}:{ACCOUNT_ID}:deleted-queue"}
    return {"worker": role}, resources, key


def test_read_records_resource_policies_and_customer_keys(aws: Any) -> None:
    roles, resources, key = _world(aws)
    state = iam_state.read(aws("iam"), roles, resources, clients=aws)
    policies = state["resource_policies"]
    for name in ("queue", "bucket", "secret"):
        assert policies[name] == (BUCKET_POLICY if name == "bucket" else QUEUE_POLICY), name
    # The customer managed key under each resource it encrypts, with its (default) policy.
    for name in ("queue", "bucket", "secret"):
        assert state["resources"][f"{name}.kms_key"] == key, name
    assert policies["queue.kms_key"]["Statement"][0]["Principal"] == {
        "AWS": f"arn:aws:iam::{ACCOUNT_ID}:root"}
    assert policies["key"] == policies["queue.kms_key"]
    # An AWS managed key, a resource without a policy, a deleted queue: nothing recorded.
    assert "dlq.kms_key" not in state["resources"] and "dlq" not in policies
    assert "gone" not in policies
    # Decoys stay, the decoy key with AWS's default key policy.
    assert "decoy_key" in state["resources"] and "decoy_key" in policies


def test_read_without_clients_keeps_the_old_call_working(aws: Any) -> None:
    roles, resources, _ = _world(aws)
    state = iam_state.read(aws("iam"), roles, resources)
    assert set(state["resource_policies"]) == {"decoy_key"}
    assert "queue.kms_key" not in state["resources"]
    assert state["roles"]["worker"]["trust"] == TRUST
