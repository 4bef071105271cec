"""What the IAM tests against a real moto share: a sandbox, the enforcing gateway in front of
it, and fresh roles assumed by the harness and registered with the gateway as the kit does
(unique names, so the tests of a module share one sandbox)."""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from botocore.exceptions import ClientError

from kit import aws
from kit.faults import FAULTS, FaultContext
from kit.faults.spec import Fault
from kit.gateway.server import Gateway
from kit.gateway.sessions import assumed_role_arn
from kit.recorder import Recorder
from kit.run.sandbox import Sandbox

ACCT = aws.ACCOUNT_ID
names = itertools.count()


@dataclass
class Env:
    moto: str
    harness: aws.Credentials
    sandbox: Sandbox


def sandbox_env() -> Iterator[Env]:
    """A moto sandbox (no PostgreSQL) and the harness's credentials on it."""
    with Sandbox(postgres=False) as sb:
        yield Env(sb.moto.url, aws.harness_credentials(sb.moto.url), sb)


def gateway(env: Env) -> Iterator[Gateway]:
    """An enforcing gateway in front of the sandbox's moto, with a ledger of its own."""
    with Gateway(env.moto, Recorder()) as made:
        yield made


def doc(*statements: dict[str, Any]) -> str:
    """A policy document of these statements."""
    return json.dumps({"Version": "2012-10-17", "Statement": list(statements)})


def allow(action: str | list[str], resource: str | list[str] = "*",
          **extra: Any) -> dict[str, Any]:
    """An Allow statement."""
    return {"Effect": "Allow", "Action": action, "Resource": resource, **extra}


@dataclass
class Role:
    arn: str
    name: str
    creds: aws.Credentials
    process: str

    def client(self, service: str, gw: Gateway) -> Any:
        """A boto3 client that calls through the gateway as this role's session."""
        return aws.client(service, gw.url, self.creds)


def assumed_role(env: Env, gw: Gateway, *statements: dict[str, Any],
                 process: str = "worker-0", session: str | None = None, path: str = "/",
                 tags: dict[str, str] | None = None, boundary: str | None = None) -> Role:
    """A fresh role with these inline statements, assumed and registered as the kit does."""
    iam = aws.client("iam", env.moto)
    name = f"role-{next(names)}"
    trust = doc({"Effect": "Allow", "Principal": {"AWS": aws.HARNESS_ARN},
                 "Action": "sts:AssumeRole"})
    extra: dict[str, Any] = {"PermissionsBoundary": boundary} if boundary else {}
    if tags:
        extra["Tags"] = [{"Key": k, "Value": v} for k, v in tags.items()]
    arn = iam.create_role(RoleName=name, Path=path, AssumeRolePolicyDocument=trust,
                          **extra)["Role"]["Arn"]
    if statements:
        iam.put_role_policy(RoleName=name, PolicyName="main", PolicyDocument=doc(*statements))
    session = session or process
    creds = aws.assume(env.moto, env.harness, arn, session)
    gw.invalidate()  # the gateway may have read IAM before this role existed
    gw.register(creds.access_key_id, process, secret_access_key=creds.secret_access_key,
                principal_arn=assumed_role_arn(arn, session), role_arn=arn,
                session_token=creds.token)
    return Role(arn, name, creds, process)


def queue(env: Env, **kwargs: Any) -> tuple[str, str]:
    """A fresh queue (CreateQueue keyword arguments): its URL and ARN."""
    name = f"q-{next(names)}"
    url = aws.client("sqs", env.moto).create_queue(QueueName=name, **kwargs)["QueueUrl"]
    return url, f"arn:aws:sqs:us-east-1:{ACCT}:{name}"


def denied(call: Any, code: str = "AccessDenied") -> ClientError:
    """Call, expecting the AWS error `code`; the error."""
    with pytest.raises(ClientError) as raised:
        call()
    assert raised.value.response["Error"]["Code"] == code
    return raised.value


def authz(gw: Gateway) -> list[dict[str, Any]]:
    """The gateway's authorization decisions so far."""
    return [op.model_dump(exclude_unset=True) for op in gw.recorder.snapshot()
            if op.kind == "authz"]


def last(gw: Gateway) -> dict[str, Any]:
    """The gateway's last authorization decision."""
    return authz(gw)[-1]["value"]


def make_fault(gw: Gateway, kind: str, target: str, params: dict[str, Any], *,
          roles: dict[str, str] | None = None, values: dict[str, Any] | None = None,
          harness: aws.Credentials | None = None) -> Any:
    """A fault of `kind` on `target`, through the gateway, with a short window."""
    spec = Fault(kind=kind, target=target, duration_seconds=0.01, params=params)
    fault_kind = FAULTS[kind]
    ctx = FaultContext(spec=spec, params=fault_kind.Params.model_validate(params),
                       recorder=gw.recorder, supervisor=None, gateway=gw,
                       stopping=threading.Event(), roles=roles or {}, values=values or {},
                       harness=harness)
    return fault_kind(ctx)
