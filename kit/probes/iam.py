"""IAM: whether the emulator itself refuses a call the caller's policies do not allow.

Neither emulator does as the kit runs them (moto's partial enforcement is off, LocalStack
community has none): the kit's gateway decides every workload call with its own evaluator
(kit/gateway/), so this row says why the gateway exists, not a difference between them.
"""

from __future__ import annotations

import json
import uuid

from botocore.exceptions import ClientError

from kit import aws
from kit.probes import Behaviour, Clients, Observation

TRUST = {"Version": "2012-10-17", "Statement": [{
    "Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{aws.ACCOUNT_ID}:root"},
    "Action": "sts:AssumeRole"}]}


def enforced(clients: Clients) -> Observation:
    iam, sts = clients("iam"), clients("sts")
    name = f"probe-{uuid.uuid4().hex[:12]}"
    arn = iam.create_role(RoleName=name, AssumeRolePolicyDocument=json.dumps(TRUST))[
        "Role"]["Arn"]
    session = sts.assume_role(RoleArn=arn, RoleSessionName="probe")["Credentials"]
    creds = aws.Credentials(session["AccessKeyId"], session["SecretAccessKey"],
                            session["SessionToken"])
    endpoint = clients("sqs").meta.endpoint_url
    try:
        aws.client("sqs", endpoint, creds).create_queue(QueueName=name)
    except ClientError as exc:
        return Observation(True, f"a role with no policy was refused: "
                           f"{exc.response['Error'].get('Code')}")
    return Observation(False, "a role with no policy created a queue (no enforcement: the "
                       "kit's gateway decides)")


BEHAVIOURS = (
    Behaviour("iam.enforced", "IAM: a call no policy allows is refused", "IAM User Guide, "
              "'Policy evaluation logic': a request is implicitly denied unless a policy "
              "allows it", enforced),
)
