"""What the IAM fault kinds' unit tests share: moto in process (no server, no gateway) as
the admin's IAM, SQS, S3 and KMS, a stand-in for the gateway's two fault hooks (admin
clients and cache invalidation), and the kit's own evaluator to say what a role may do
with the policies IAM holds now. The same faults through a real gateway, against a moto
server, are tests/integration/test_iam_faults.py."""

from __future__ import annotations

import itertools
import json
import threading
from dataclasses import dataclass, field
from typing import Any

import boto3

from kit.aws import HARNESS_ARN
from kit.faults import FAULTS, FaultContext
from kit.faults.base import FaultKind
from kit.faults.iam.documents import parse
from kit.faults.spec import Fault
from kit.iam import Request, evaluate
from kit.recorder import Recorder

REGION = "us-east-1"
names = itertools.count()


@dataclass
class Admin:
    """The gateway as a fault sees it: the admin's clients, and a policy cache to drop."""

    clients: dict[str, Any] = field(default_factory=dict)
    invalidations: int = 0
    recorder: Recorder = field(default_factory=Recorder)

    def admin_client(self, service: str) -> Any:
        """A boto3 client of moto in process."""
        if service not in self.clients:
            self.clients[service] = boto3.client(service, region_name=REGION)
        return self.clients[service]

    def invalidate(self) -> None:
        """Counted: a fault that changed IAM must have the gateway read it again."""
        self.invalidations += 1


def doc(*statements: dict[str, Any]) -> str:
    """A policy document of these statements."""
    return json.dumps({"Version": "2012-10-17", "Statement": list(statements)})


def allow(action: str | list[str], resource: str | list[str] = "*") -> dict[str, Any]:
    """An Allow statement."""
    return {"Effect": "Allow", "Action": action, "Resource": resource}


def role(admin: Admin, *statements: dict[str, Any], boundary: str | None = None
         ) -> tuple[str, str]:
    """A fresh role the harness may assume, with these inline statements: (name, ARN)."""
    iam = admin.admin_client("iam")
    name = f"role-{next(names)}"
    trust = doc({"Effect": "Allow", "Principal": {"AWS": HARNESS_ARN},
                 "Action": "sts:AssumeRole"})
    extra = {"PermissionsBoundary": boundary} if boundary else {}
    arn = iam.create_role(RoleName=name, AssumeRolePolicyDocument=trust, **extra)["Role"]["Arn"]
    if statements:
        iam.put_role_policy(RoleName=name, PolicyName="main", PolicyDocument=doc(*statements))
    return name, arn


def managed(admin: Admin, *statements: dict[str, Any]) -> str:
    """A fresh customer managed policy: its ARN."""
    return admin.admin_client("iam").create_policy(
        PolicyName=f"policy-{next(names)}", PolicyDocument=doc(*statements))["Policy"]["Arn"]


def _default_version(iam: Any, arn: str) -> dict[str, Any]:
    version = iam.get_policy(PolicyArn=arn)["Policy"]["DefaultVersionId"]
    return parse(iam.get_policy_version(PolicyArn=arn, VersionId=version)[
        "PolicyVersion"]["Document"])


def allowed(admin: Admin, name: str, action: str, resource: str = "*",
            resource_policy: dict[str, Any] | None = None) -> bool:
    """Whether role `name` may call `action` on `resource`, by the policies IAM holds now
    (inline, attached managed, its boundary; and a resource policy when given)."""
    iam = admin.admin_client("iam")
    found = iam.get_role(RoleName=name)["Role"]
    identity = [parse(iam.get_role_policy(RoleName=name, PolicyName=p)["PolicyDocument"])
                for p in iam.list_role_policies(RoleName=name)["PolicyNames"]]
    identity += [_default_version(iam, p["PolicyArn"]) for p in
                 iam.list_attached_role_policies(RoleName=name)["AttachedPolicies"]]
    bound = found.get("PermissionsBoundary", {}).get("PermissionsBoundaryArn")
    return evaluate(Request(found["Arn"], action, resource), identity,
                    boundary=_default_version(iam, bound) if bound else None,
                    resource_policy=resource_policy).allowed


def make_fault(admin: Admin, kind: str, target: str, params: dict[str, Any], *,
               roles: dict[str, str] | None = None,
               values: dict[str, Any] | None = None) -> Any:
    """A fault of `kind` on `target`, acting through `admin`, with a short window."""
    spec = Fault(kind=kind, target=target, duration_seconds=0.01, params=params)
    cls: type[FaultKind] = FAULTS[kind]
    ctx = FaultContext(spec=spec, params=cls.Params.model_validate(params),
                       recorder=admin.recorder, supervisor=None,
                       gateway=admin, stopping=threading.Event(),  # type: ignore[arg-type]
                       roles=roles or {}, values=values or {})
    return cls(ctx)
