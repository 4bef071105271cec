"""Authorize one check of a call as AWS would, with kit.iam and the emulator's policies.

The identity side is the caller's role (or user): inline and attached managed policies,
permissions boundary, and the session policies of an AssumeRole that passed through the
gateway. The resource side is the resource's own policy where the service has one: the
SQS queue policy, the SNS topic policy, the S3 bucket policy, the secret's resource policy,
the DynamoDB table's resource policy (for the table and its indexes), the KMS key policy (for
the key use a call implies, kit/gateway/encryption.py), and for sts:AssumeRole the target
role's trust policy (evaluated with AWS's trust-policy rule).
"""

from __future__ import annotations

from datetime import UTC, datetime

from kit.gateway.actions import Call, Check
from kit.gateway.policies import Identity, PolicyStore, Resource
from kit.gateway.sessions import Session
from kit.iam import Decision, Policy, Request
from kit.iam.context import ContextValue
from kit.iam.evaluate import decide

# Actions that AWS answers for every authenticated caller (no policy can deny them).
_UNCONDITIONAL = {"sts:GetCallerIdentity"}
# Authorized against the target role's trust policy.
_TRUST_ACTIONS = {"sts:AssumeRole", "sts:TagSession", "sts:SetSourceIdentity"}


class Authorizer:
    """Decides checks for registered sessions against the store's current policies."""

    def __init__(self, store: PolicyStore) -> None:
        self.store = store

    def identity_of(self, session: Session) -> Identity | None:
        """The role (or user) whose policies apply to the session."""
        arn = session.role_arn or session.principal_arn or ""
        found = self.store.identity(arn)
        if found is None and (":assumed-role/" in arn or ":role/" in arn):
            # Registered without the role ARN, or without its path: find the role by name.
            name = arn.split("/")[1] if ":assumed-role/" in arn else arn.rsplit("/", 1)[-1]
            role = self.store.iam_arn("role", name)
            found = self.store.identity(role) if role else None
        return found

    def decide(self, session: Session, call: Call, check: Check, source_ip: str,
               region: str) -> Decision:
        """Allow / ExplicitDeny / ImplicitDeny for one check of a call by `session`."""
        if check.action in _UNCONDITIONAL:
            return Decision("Allow", (), f"{check.action} needs no permission")
        identity = self.identity_of(session)
        if identity is None:
            return Decision("ImplicitDeny", (), f"the principal {session.principal_arn} has no "
                            "role or user in the emulator (deleted?)")
        if identity.problems:
            return Decision("ImplicitDeny", (), "the caller's policies do not parse, so none "
                            f"is applied: {identity.problems[0]}")
        resource, trust = self._resource_side(check)
        if resource is not None and resource.problems:
            return Decision("ImplicitDeny", (), "the resource policy does not parse: "
                            f"{resource.problems[0]}")
        if check.action in _TRUST_ACTIONS and trust is None:
            return Decision("ImplicitDeny", (), f"the role {check.resource} does not exist")
        context = self._context(session, identity, call, check, resource, source_ip, region)
        request = Request(session.principal_arn or identity.arn, check.action, check.resource,
                          context, identity.arn if identity.kind == "role" else None)
        sessions = list(session.session_policies)
        for arn in session.session_policy_arns:
            managed = self.store.managed(arn)
            if managed is not None:
                sessions.append(managed.named(f"session:{arn}"))
        resource_policy = trust if trust is not None else (
            resource.policy if resource is not None else None)
        return decide(request, list(identity.policies), boundary=identity.boundary,
                      sessions=sessions, resource=resource_policy, scp_levels=[],
                      principal_account=None, trust=trust is not None)

    def _resource_side(self, check: Check) -> tuple[Resource | None, Policy | None]:
        """The resource (policy and tags) of a check, and a target role's trust policy."""
        arn = check.resource
        if check.action in _TRUST_ACTIONS:
            target = self.store.identity(arn)
            if target is None:
                return None, None
            return Resource(arn, None, target.tags), target.trust
        if arn.startswith("arn:aws:sqs:"):
            return self.store.queue(arn), None
        if arn.startswith("arn:aws:sns:"):
            return self.store.topic(arn), None
        if arn.startswith("arn:aws:s3:::"):
            return self.store.bucket(arn[len("arn:aws:s3:::"):].split("/", 1)[0]), None
        if arn.startswith("arn:aws:secretsmanager:") and not arn.endswith("-??????"):
            return self.store.secret(arn), None
        if arn.startswith("arn:aws:dynamodb:"):  # a table's policy covers its indexes
            return self.store.table(arn), None
        if arn.startswith("arn:aws:kms:"):  # a key policy gates identity policies too
            return self.store.key(arn), None
        if arn.startswith("arn:aws:iam:"):  # IAM resources have tags, not policies
            target = self.store.identity(arn)
            return (Resource(arn, None, target.tags) if target is not None else None), None
        return None, None

    def _context(self, session: Session, identity: Identity, call: Call, check: Check,
                 resource: Resource | None, source_ip: str,
                 region: str) -> dict[str, ContextValue]:
        """The global condition keys as AWS would set them for this request (IAM User
        Guide, "AWS global condition context keys"), key by key:

        - aws:SecureTransport: true. Every AWS SDK endpoint is HTTPS, and boto3 only
          speaks plain HTTP here because the sandbox's endpoint is the kit's loopback
          proxy, which the solution does not choose: a "deny unless TLS" policy must
          not lock out a client that would have used TLS on AWS.
        - aws:SourceIp: the address the request came from (loopback, or the workers'
          namespace relay); no VPC endpoint is involved, so no aws:SourceVpc(e).
        - aws:CurrentTime, aws:EpochTime: the kit's clock when the request arrives.
        - aws:RequestedRegion: the region the request was signed for.
        - aws:PrincipalIsAWSService, aws:ViaAWSService: false, the caller is a role
          session, not a service.
        - aws:userid: the role's unique id and the session name, as AWS forms it.
        - aws:TokenIssueTime: when the session's temporary credentials were issued (absent
          for long-term credentials, as AWS leaves it out of their requests).
        - aws:PrincipalTag/*, aws:ResourceTag/* (and the service's own ResourceTag
          spelling for Secrets Manager and IAM): from the emulator's tags.
        - request keys of the call (aws:RequestTag/*, aws:TagKeys, ...): from the
          request itself (kit/gateway/actions).
        - the check's own keys: a KMS request a service makes on the caller's behalf
          carries kms:ViaService, kms:CallerAccount, the encryption context and
          aws:ViaAWSService true (kit/gateway/encryption.py).
        """
        now = datetime.now(UTC)
        context: dict[str, ContextValue] = {
            "aws:SourceIp": source_ip,
            "aws:CurrentTime": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "aws:EpochTime": int(now.timestamp()),
            "aws:SecureTransport": True,
            "aws:RequestedRegion": region,
            "aws:PrincipalIsAWSService": False,
            "aws:ViaAWSService": False,
            "aws:userid": (f"{identity.unique_id}:{session.session_name}"
                           if session.session_name else identity.unique_id),
        }
        if session.issued is not None:
            context["aws:TokenIssueTime"] = datetime.fromtimestamp(
                session.issued, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        for key, value in identity.tags.items():
            context[f"aws:PrincipalTag/{key}"] = value
        if resource is not None:
            for key, value in resource.tags.items():
                context[f"aws:ResourceTag/{key}"] = value
                if call.service in ("secretsmanager", "iam"):
                    context[f"{call.service}:ResourceTag/{key}"] = value
        context.update(call.context)
        context.update(check.context)
        return context
