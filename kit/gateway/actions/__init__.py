"""What a request asks IAM for: the actions and resource ARNs AWS would authorize.

One entry point, `describe`, reads a raw HTTP request of one of the services a workload may
call (SQS in JSON and query protocols, STS, IAM, S3 path-style, Secrets Manager, RDS,
DynamoDB, SNS) and
returns a `Call`: the wire operation, its protocol (for the error reply), and the checks
(IAM action + resource ARN) that must all be allowed. Batch calls are authorized as their
single actions, as AWS does (SendMessageBatch needs sqs:SendMessage). A request the module
cannot map has no checks and a `problem`: the gateway denies it. One module per service,
each with a `describe` of the same shape; `base` holds what they share.

Resources named without an ARN (an IAM role name, a secret name) need the emulator's state
to become ARNs (the role's path, the secret's random suffix): `describe` asks a `Names`
resolver, and without one uses the path "/" and the suffix wildcard `-??????`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from urllib.parse import parse_qsl, urlsplit

from kit.gateway.actions import dynamodb, iam, rds, s3, secretsmanager, sns, sqs, sts
from kit.gateway.actions.base import REGION, Call, Check, Names, Scope
from kit.gateway.actions.iam import iam_arn
from kit.gateway.actions.secretsmanager import secret_pattern
from kit.gateway.actions.sqs import queue_arn

SERVICES = ("sqs", "sts", "iam", "s3", "secretsmanager", "rds", "dynamodb", "sns")
# Query-protocol API versions, for requests that carry no credential scope.
_VERSIONS = {"2012-11-05": "sqs", "2011-06-15": "sts", "2010-05-08": "iam", "2014-10-31": "rds",
             "2010-03-31": "sns"}
_TARGETS = {"AmazonSQS": "sqs", "secretsmanager": "secretsmanager",
            dynamodb.TARGET_PREFIX: "dynamodb", dynamodb.STREAMS_PREFIX: "dynamodb"}
_QUERY = {"sts": sts.describe, "iam": iam.describe, "rds": rds.describe, "sns": sns.describe}

__all__ = ["REGION", "SERVICES", "Call", "Check", "Names", "Scope", "describe", "iam_arn",
           "queue_arn", "secret_pattern"]


def describe(method: str, path: str, headers: Mapping[str, str], body: bytes, *,
             service: str | None = None, account: str, region: str = REGION,
             names: Names | None = None) -> Call:
    """Map one HTTP request to the IAM checks AWS would make (`service`: credential scope)."""
    target = headers.get("x-amz-target", "")
    service = service or _guess_service(target, path, body)
    scope = Scope(account, region, names)
    if service == "s3":
        return s3.describe(method, path, headers)
    if service in ("sqs", "secretsmanager", "dynamodb") and target:
        operation = target.rsplit(".", 1)[-1]
        try:
            params = json.loads(body or b"{}")
        except ValueError:
            params = None
        if not isinstance(params, dict):
            return Call(service, operation, "json", problem="the JSON body does not parse")
        if service == "sqs":
            return sqs.describe(operation, "json", params, path, scope)
        if service == "dynamodb":
            return dynamodb.describe(operation, params, scope)
        return secretsmanager.describe(operation, params, scope)
    params = _query_params(path, body)
    operation = params.get("Action", "")
    if service not in SERVICES:
        return Call(service, operation or target, "json" if target else "query",
                    params=params, problem=f"service {service or 'unknown'!r} is not one the "
                    f"gateway maps ({', '.join(SERVICES)})")
    if service in ("secretsmanager", "dynamodb"):
        return Call(service, operation, "json", params=params,
                    problem=f"{service} speaks JSON (X-Amz-Target) only")
    if not operation:
        return Call(service, "", "query", params=params, problem="no Action parameter")
    if service == "sqs":
        return sqs.describe(operation, "query", params, path, scope)
    return _QUERY[service](operation, params, scope)


def _guess_service(target: str, path: str, body: bytes) -> str:
    prefix = target.split(".", 1)[0]
    if prefix:
        return _TARGETS.get(prefix, prefix.lower())
    return _VERSIONS.get(_query_params(path, body).get("Version", ""), "")


def _query_params(path: str, body: bytes) -> dict[str, str]:
    params = dict(parse_qsl(urlsplit(path).query, keep_blank_values=True))
    if body and b"=" in body[:200]:
        params.update(parse_qsl(body.decode(errors="replace"), keep_blank_values=True))
    return params
