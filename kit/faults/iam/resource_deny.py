"""resource_deny: a Deny statement is added to a resource's own policy for a window (an SQS
queue policy, an S3 bucket policy, a KMS key policy), then the policy is put back as it was.

The deny names one role of the scenario (`principal`, e.g. role.worker) or everyone ("*").
An explicit deny in a resource policy wins over every allow (IAM user guide, "Policy
evaluation logic"); a deny in a key policy also stops the services that use the key on the
caller's behalf (SQS, S3) from encrypting or decrypting for it.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from botocore.exceptions import ClientError
from pydantic import BaseModel, ConfigDict, Field

from kit.faults.base import FaultContext, FaultKind
from kit.faults.iam.documents import VERSION, parse, statements

SID = "KitDeny"


class DenyParams(BaseModel):
    """The actions denied, and to whom: a role resource of the scenario or "*"."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    actions: list[str] = Field(min_length=1)
    principal: str = Field("*", pattern=r"^(\*|role\.[\w-]+)$")


class ResourceDeny(FaultKind):
    """The target's resource policy denies `actions` to `principal` for the window."""

    Params = DenyParams
    targets = ("queue", "bucket", "key")
    timed = True

    def __init__(self, ctx: FaultContext) -> None:
        super().__init__(ctx)
        self.original: str | None = None
        self.changed = False

    @staticmethod
    def references(params: DenyParams) -> list[str]:
        """The scenario resources the params name (checked when the scenario loads)."""
        return [] if params.principal == "*" else [params.principal]

    def _kind(self) -> str:
        return self.ctx.target.split(".", 1)[0]

    def _read(self) -> str | None:
        admin, kind = self.ctx.gateway.admin_client, self._kind()
        if kind == "queue":
            return admin("sqs").get_queue_attributes(
                QueueUrl=self.value("url"), AttributeNames=["Policy"]
            ).get("Attributes", {}).get("Policy")
        if kind == "bucket":
            try:
                return admin("s3").get_bucket_policy(Bucket=self.value("name"))["Policy"]
            except ClientError as exc:
                if exc.response["Error"]["Code"] == "NoSuchBucketPolicy":
                    return None
                raise
        return admin("kms").get_key_policy(KeyId=self.value("arn"),
                                           PolicyName="default")["Policy"]

    def _write(self, text: str | None) -> None:
        admin, kind = self.ctx.gateway.admin_client, self._kind()
        if kind == "queue":
            admin("sqs").set_queue_attributes(QueueUrl=self.value("url"),
                                              Attributes={"Policy": text or ""})
        elif kind == "bucket" and text is None:
            admin("s3").delete_bucket_policy(Bucket=self.value("name"))
        elif kind == "bucket":
            admin("s3").put_bucket_policy(Bucket=self.value("name"), Policy=text)
        elif text is not None:  # every key has a key policy
            admin("kms").put_key_policy(KeyId=self.value("arn"), PolicyName="default",
                                        Policy=text)
        self.ctx.gateway.invalidate()

    def _deny(self) -> dict[str, Any]:
        principal = self.params.principal
        arn = self.value("arn")
        resource: Any = {"queue": arn, "bucket": [arn, f"{arn}/*"], "key": "*"}[self._kind()]
        return {"Sid": SID, "Effect": "Deny",
                "Principal": "*" if principal == "*" else {"AWS": self.ctx.roles[principal]},
                "Action": self.params.actions, "Resource": resource}

    def start(self) -> dict[str, Any]:
        self.original = self._read()
        document = parse(self.original) if self.original else {"Version": VERSION}
        deny = self._deny()
        self._write(json.dumps({**document, "Version": document.get("Version", VERSION),
                                "Statement": [*statements(document), deny]}))
        self.changed = True
        return {"target": self.value("arn"), "statement": deny,
                "policy_before": "none" if self.original is None else "kept, deny appended",
                "effect": f"{', '.join(self.params.actions)} denied to "
                          f"{self.params.principal} by the resource policy"}

    def heal(self) -> dict[str, Any]:
        if self.changed:
            with contextlib.suppress(ClientError):  # the resource is gone: nothing to heal
                self._write(self.original)
            self.changed = False
        return {"target": self.value("arn"),
                "restored": "the policy as it was" if self.original else "no policy"}
