"""Resources in another Region are judged by their own policies, read in their own Region:
the gateway's authorization (kit/gateway/policies.py) and the IAM state the checkers judge
(kit/workload/resource_policies.py). A queue or secret an alias provider puts in another
Region is as real as one in the kit's (IAM user guide, "Policy evaluation logic": within
an account, a resource-based policy that names the principal allows the call on its own).
"""

from __future__ import annotations

from kit import aws
from kit.gateway.server import Gateway
from kit.workload import resource_policies
from tests.integration.iam_env import ACCT, Env, assumed_role
from tests.integration.iam_env import allow as _allow
from tests.integration.iam_env import doc as _doc
from tests.integration.iam_env import last as _last
from tests.integration.iam_env import names as _names

WEST = "us-west-2"


def test_a_resource_policy_in_another_region_grants_through_the_gateway(
        env: Env, gw: Gateway) -> None:
    worker = assumed_role(env, gw)  # no identity policy at all
    name = f"q-west-{next(_names)}"
    west_sqs = aws.client("sqs", env.moto, region=WEST)
    url = west_sqs.create_queue(QueueName=name)["QueueUrl"]
    arn = f"arn:aws:sqs:{WEST}:{ACCT}:{name}"
    west_sqs.set_queue_attributes(QueueUrl=url, Attributes={"Policy": _doc(
        _allow("sqs:SendMessage", arn, Principal={"AWS": worker.arn}))})
    secrets = aws.client("secretsmanager", env.moto, region=WEST)
    secret = secrets.create_secret(Name=f"s-west-{next(_names)}", SecretString="{}")["ARN"]
    secrets.put_resource_policy(SecretId=secret, ResourcePolicy=_doc(
        _allow("secretsmanager:GetSecretValue", "*", Principal={"AWS": worker.arn})))
    gw.invalidate()

    aws.client("sqs", gw.url, worker.creds, region=WEST).send_message(
        QueueUrl=url, MessageBody="x")
    assert _last(gw)["deciding"] == [f"resource policy 'resource:{arn}' Statement[0]"]
    west_secrets = aws.client("secretsmanager", gw.url, worker.creds, region=WEST)
    west_secrets.get_secret_value(SecretId=secret)
    assert _last(gw)["decision"] == "Allow"
    west_secrets.get_secret_value(SecretId=secret.rsplit(":", 1)[1][:-7])  # by its name
    assert _last(gw)["resource"] == secret and _last(gw)["decision"] == "Allow"

    def clients(service: str, region: str = aws.REGION) -> object:
        return aws.client(service, env.moto, region=region)

    policies, _ = resource_policies.read(clients, {"queue.west": arn, "secret.west": secret})
    assert set(policies) == {"queue.west", "secret.west"}
