"""Median per-call overhead of the enforcing gateway: SQS calls direct to moto vs through it.

Usage: .venv/bin/python bench/gateway_overhead.py [CALLS]   (default 300 per kind and path)

Starts a sandbox moto server, a role allowed sqs:* on one queue, and a gateway with that
role's session registered as the kit does. Direct and gateway calls alternate, so a queue
that grows (moto's sends slow down as a queue deepens) weighs on both paths alike.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from kit import aws
from kit.gateway.server import Gateway
from kit.gateway.sessions import assumed_role_arn
from kit.recorder import Recorder
from kit.run.sandbox import Sandbox


def _timed(call: Callable[[], Any]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def _role_session(moto: str, queue_arn: str) -> tuple[str, aws.Credentials]:
    iam = aws.client("iam", moto)
    trust = {"Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": {"AWS": aws.HARNESS_ARN}, "Action": "sts:AssumeRole"}]}
    role = iam.create_role(RoleName="bench", AssumeRolePolicyDocument=json.dumps(trust))
    iam.put_role_policy(RoleName="bench", PolicyName="sqs", PolicyDocument=json.dumps({
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "sqs:*", "Resource": queue_arn}]}))
    arn = role["Role"]["Arn"]
    return arn, aws.assume(moto, aws.harness_credentials(moto), arn, "bench")


def main(calls: int = 300) -> dict[str, dict[str, float]]:
    """Print (and return) the median milliseconds of each call kind on both paths."""
    medians: dict[str, dict[str, float]] = {}
    with Sandbox(postgres=False) as sb:
        moto = sb.moto.url
        url = aws.client("sqs", moto).create_queue(QueueName="bench")["QueueUrl"]
        role, creds = _role_session(moto, "arn:aws:sqs:us-east-1:123456789012:bench")
        with Gateway(moto, Recorder()) as gw:
            gw.register(creds.access_key_id, "bench", secret_access_key=creds.secret_access_key,
                        principal_arn=assumed_role_arn(role, "bench"), role_arn=role,
                        session_token=creds.token)
            clients = {"direct": aws.client("sqs", moto, creds),
                       "gateway": aws.client("sqs", gw.url, creds)}
            kinds: dict[str, Callable[[Any], Any]] = {
                "GetQueueAttributes": lambda c: c.get_queue_attributes(
                    QueueUrl=url, AttributeNames=["QueueArn"]),
                "SendMessage": lambda c: c.send_message(QueueUrl=url, MessageBody="x" * 200),
            }
            for client in clients.values():  # warm up connections and the policy cache
                for call in kinds.values():
                    call(client)
            print(f"{calls} calls per kind and path; median milliseconds")
            print(f"{'call':<20}{'direct':>10}{'gateway':>10}{'overhead':>10}{'ratio':>8}")
            for kind, call in kinds.items():
                times: dict[str, list[float]] = {"direct": [], "gateway": []}
                for _ in range(calls):
                    for path, client in clients.items():
                        times[path].append(_timed(lambda c=client, f=call: f(c)))
                direct = statistics.median(times["direct"]) * 1000
                gateway = statistics.median(times["gateway"]) * 1000
                print(f"{kind:<20}{direct:>10.2f}{gateway:>10.2f}{gateway - direct:>10.2f}"
                      f"{gateway / direct:>8.2f}")
                medians[kind] = {"direct_ms": round(direct, 2), "gateway_ms": round(gateway, 2),
                                 "overhead_ms": round(gateway - direct, 2),
                                 "ratio": round(gateway / direct, 2)}
            decisions = sum(1 for op in gw.recorder.snapshot() if op.kind == "authz")
            print(f"authz ops recorded: {decisions}")
    return medians


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
