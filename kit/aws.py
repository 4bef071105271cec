"""boto3 clients for the kit's own calls, and role sessions for the workload."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

import boto3
import botocore.loaders
import botocore.session
from botocore.config import Config

REGION = "us-east-1"
ACCOUNT_ID = "123456789012"
HARNESS_USER = "kit-harness"
HARNESS_ARN = f"arn:aws:iam::{ACCOUNT_ID}:user/{HARNESS_USER}"
_CONFIG = Config(retries={"max_attempts": 2, "mode": "standard"}, connect_timeout=5,
                 read_timeout=30)


@dataclass(frozen=True)
class Credentials:
    """A set of AWS credentials (a role session when `token` is set)."""

    access_key_id: str
    secret_access_key: str
    token: str | None = None
    arn: str | None = None  # the session's principal ARN (assumed-role/ROLE/SESSION)


# The access key id is the account id: LocalStack reads a 12-digit key id as the account to
# act in (kit/sandbox/localstack.py); moto serves its one account whatever the key.
ADMIN = Credentials(ACCOUNT_ID, "kitadmin")


class _Paths(list[str]):
    """A loader's search paths, each once: every boto3 session appends its own data path
    to the loader it is given, which would otherwise grow by one per client."""

    def append(self, path: str) -> None:
        if path not in self:
            super().append(path)


# One loader for every client the kit makes: it caches the service models (read-only JSON
# that every session would otherwise parse again from the same files: 0.13 CPU-s a client
# against 0.03, 16 clients a run of order-pipeline). Sessions stay one per client (boto3's
# are not thread-safe), each with its own credentials, endpoint and event handlers.
_LOADER = botocore.loaders.Loader(extra_search_paths=_Paths())


def _session() -> boto3.session.Session:
    """A fresh boto3 session that reads service models through the shared loader."""
    core = botocore.session.get_session()
    core.register_component("data_loader", _LOADER)
    return boto3.session.Session(botocore_session=core)


@functools.cache
def service_names() -> frozenset[str]:
    """The services the AWS SDK knows, by boto3's names."""
    return frozenset(_session().get_available_services())


def client(service: str, endpoint: str, creds: Credentials = ADMIN, region: str = REGION
           ) -> Any:
    """A boto3 client for `service` at `endpoint` with `creds`, in `region`."""
    return _session().client(
        service, endpoint_url=endpoint, region_name=region, config=_CONFIG,
        aws_access_key_id=creds.access_key_id, aws_secret_access_key=creds.secret_access_key,
        aws_session_token=creds.token)


def harness_credentials(endpoint: str) -> Credentials:
    """Create the harness IAM user and an access key for it (the principal that assumes roles)."""
    iam = client("iam", endpoint)
    iam.create_user(UserName=HARNESS_USER)
    key = iam.create_access_key(UserName=HARNESS_USER)["AccessKey"]
    return Credentials(key["AccessKeyId"], key["SecretAccessKey"])


def assume(endpoint: str, harness: Credentials, role_arn: str, session: str) -> Credentials:
    """A session of `role_arn` obtained by the harness principal."""
    reply = client("sts", endpoint, harness).assume_role(
        RoleArn=role_arn, RoleSessionName=session.replace("#", "-"))
    out = reply["Credentials"]
    return Credentials(out["AccessKeyId"], out["SecretAccessKey"], out["SessionToken"],
                       reply["AssumedRoleUser"]["Arn"])


# A SigV4 credential scope: AKID/date/region/service/aws4_request.
_SCOPE = re.compile(r"Credential=[^/\s,]*/[^/\s,]*/([^/\s,]+)/")


def signed_region(authorization: str) -> str | None:
    """The Region a SigV4 Authorization header (or `Credential=` + a presigned URL's
    X-Amz-Credential) is scoped to; None without one."""
    found = _SCOPE.search(authorization)
    return found.group(1) if found else None


def region_of(arn: str) -> str:
    """The Region an ARN names (the kit's for a global one: IAM, S3)."""
    parts = arn.split(":")
    return parts[3] if len(parts) > 3 and parts[3] else REGION


def queue_url(sqs: Any, arn: str) -> str:
    """The URL of the queue `arn` names (GetQueueUrl with the ARN's account)."""
    _, _, _, _, owner, name = arn.split(":", 5)
    return sqs.get_queue_url(QueueName=name, QueueOwnerAWSAccountId=owner)["QueueUrl"]


def topic_subscriptions(sns: Any, topic: str) -> list[dict[str, Any]]:
    """Every subscription of the topic `topic` (ListSubscriptionsByTopic, all pages)."""
    pages = sns.get_paginator("list_subscriptions_by_topic").paginate(TopicArn=topic)
    return [s for page in pages for s in page.get("Subscriptions", [])]


def paged(api: Any, method: str, key: str, **params: Any) -> list[dict[str, Any]]:
    """Every item under `key` of all pages of the paginated call `method`."""
    pages = api.get_paginator(method).paginate(**params)
    return [item for page in pages for item in page.get(key, [])]


def rule_parts(arn: str) -> tuple[str, str]:
    """(bus, rule name) of a rule ARN: `...:rule/NAME` (default bus) or `rule/BUS/NAME`."""
    path = arn.split(":", 5)[5].split("/")
    if len(path) == 2:
        return "default", path[1]
    return "/".join(path[1:-1]), path[-1]
