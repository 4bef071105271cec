"""Empty the kit's account on an emulator the kit does not own (a LocalStack the user runs):
the reset between two runs, and the cleanup after the last one.

Only the services a scenario's Terraform and workload reach are swept, in an order where
nothing still refers to what is deleted (policies before roles, objects before buckets).
KMS keys cannot be deleted at once anywhere: they are scheduled for deletion (the shortest
window, 7 days) and their aliases removed, so they are unusable and unnamed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kit import aws


def _queues(sqs: Any) -> None:
    for url in sqs.list_queues().get("QueueUrls", []):
        sqs.delete_queue(QueueUrl=url)


def _roles(iam: Any) -> None:
    for role in iam.list_roles()["Roles"]:
        name = role["RoleName"]
        for policy in iam.list_role_policies(RoleName=name)["PolicyNames"]:
            iam.delete_role_policy(RoleName=name, PolicyName=policy)
        for attached in iam.list_attached_role_policies(RoleName=name)["AttachedPolicies"]:
            iam.detach_role_policy(RoleName=name, PolicyArn=attached["PolicyArn"])
        for profile in iam.list_instance_profiles_for_role(RoleName=name)["InstanceProfiles"]:
            iam.remove_role_from_instance_profile(
                InstanceProfileName=profile["InstanceProfileName"], RoleName=name)
        iam.delete_role(RoleName=name)


def _users_and_policies(iam: Any) -> None:
    for user in iam.list_users()["Users"]:
        name = user["UserName"]
        for key in iam.list_access_keys(UserName=name)["AccessKeyMetadata"]:
            iam.delete_access_key(UserName=name, AccessKeyId=key["AccessKeyId"])
        for policy in iam.list_user_policies(UserName=name)["PolicyNames"]:
            iam.delete_user_policy(UserName=name, PolicyName=policy)
        for attached in iam.list_attached_user_policies(UserName=name)["AttachedPolicies"]:
            iam.detach_user_policy(UserName=name, PolicyArn=attached["PolicyArn"])
        iam.delete_user(UserName=name)
    for policy in iam.list_policies(Scope="Local")["Policies"]:
        for version in iam.list_policy_versions(PolicyArn=policy["Arn"])["Versions"]:
            if not version["IsDefaultVersion"]:
                iam.delete_policy_version(PolicyArn=policy["Arn"], VersionId=version["VersionId"])
        iam.delete_policy(PolicyArn=policy["Arn"])


def _keys(kms: Any) -> None:
    for alias in kms.list_aliases()["Aliases"]:
        if not alias["AliasName"].startswith("alias/aws/"):
            kms.delete_alias(AliasName=alias["AliasName"])
    for key in kms.list_keys()["Keys"]:
        meta = kms.describe_key(KeyId=key["KeyId"])["KeyMetadata"]
        if meta.get("KeyManager") == "CUSTOMER" and meta.get("KeyState") != "PendingDeletion":
            kms.schedule_key_deletion(KeyId=key["KeyId"], PendingWindowInDays=7)


def _buckets(s3: Any) -> None:
    for bucket in s3.list_buckets()["Buckets"]:
        name = bucket["Name"]
        for page in s3.get_paginator("list_object_versions").paginate(Bucket=name):
            for item in page.get("Versions", []) + page.get("DeleteMarkers", []):
                s3.delete_object(Bucket=name, Key=item["Key"], VersionId=item["VersionId"])
        s3.delete_bucket(Bucket=name)


def _secrets(secrets: Any) -> None:
    for secret in secrets.list_secrets()["SecretList"]:
        secrets.delete_secret(SecretId=secret["ARN"], ForceDeleteWithoutRecovery=True)


def _topics(sns: Any) -> None:
    for topic in sns.list_topics()["Topics"]:
        sns.delete_topic(TopicArn=topic["TopicArn"])


def _parameters(ssm: Any) -> None:
    names = [p["Name"] for p in ssm.describe_parameters().get("Parameters", [])]
    for start in range(0, len(names), 10):
        ssm.delete_parameters(Names=names[start:start + 10])


# In this order: IAM users and policies after the roles they may be attached to.
SWEEPERS: dict[str, tuple[Callable[[Any], None], ...]] = {
    "sqs": (_queues,), "sns": (_topics,), "s3": (_buckets,), "secretsmanager": (_secrets,),
    "ssm": (_parameters,), "kms": (_keys,), "iam": (_roles, _users_and_policies),
}


def sweep(url: str, services: frozenset[str]) -> None:
    """Delete what the kit's account holds in each of `services` at `url`."""
    for service, steps in SWEEPERS.items():
        if service not in services:
            continue
        client = aws.client(service, url)
        for step in steps:
            step(client)
