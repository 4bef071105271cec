"""Team mode: a role is assumed by the service its workers run as (workers.service), judged
by iam.required_access with the trust policy as evidence; a refused session stops the
workers before they start (workload.workers_start fails, no `error`)."""

from __future__ import annotations

from typing import Any

import pytest

from kit.checks.least_privilege import check_required_access
from kit.checks.workers import check_workers_start
from kit.iam.service import refusal, service_admits, service_keys
from kit.run import judge

from .checks.builder import ACCOUNT, HistoryBuilder, healthy_run

ECS = "ecs-tasks.amazonaws.com"
ROLE_ARN = f"arn:aws:iam::{ACCOUNT}:role/worker"
WINDOW = (1_700_000_000.0, 1_700_000_060.0)


def service_trust(service: str | list[str], condition: dict[str, Any] | None = None
                  ) -> dict[str, Any]:
    statement: dict[str, Any] = {"Effect": "Allow", "Principal": {"Service": service},
                                 "Action": "sts:AssumeRole"}
    if condition:
        statement["Condition"] = condition
    return {"Version": "2012-10-17", "Statement": [statement]}


# AWS, IAM User Guide "The confused deputy problem": a service sets aws:SourceAccount to the
# account it acts for; ECS's task role example conditions its trust on it.
SAME_ACCOUNT = {"StringEquals": {"aws:SourceAccount": ACCOUNT}}
OTHER_ACCOUNT = {"StringEquals": {"aws:SourceAccount": "999999999999"}}


@pytest.mark.parametrize("trust, admitted", [
    (service_trust(ECS), True),
    (service_trust(["ec2.amazonaws.com", ECS]), True),
    (service_trust(ECS, SAME_ACCOUNT), True),
    (service_trust(ECS, {"StringLike": {"aws:SourceAccount": "1234*"}}), True),
    (service_trust("ec2.amazonaws.com"), False),
    (service_trust(ECS, OTHER_ACCOUNT), False),
    # The kit's workers are no ECS task: a condition on the task's ARN does not hold.
    (service_trust(ECS, {"ArnLike": {"aws:SourceArn": "arn:aws:ecs:*:*:*"}}), False),
    # A harness-style trust (an IAM principal) does not admit a service.
    ({"Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{ACCOUNT}:root"},
        "Action": "sts:AssumeRole"}]}, False),
])
def test_the_engine_decides_as_the_service_would_be_decided(trust: dict[str, Any],
                                                            admitted: bool) -> None:
    assert service_admits(trust, ECS, ROLE_ARN, ACCOUNT, WINDOW).allowed is admitted


def test_a_service_sends_no_source_ip_and_names_itself() -> None:
    keys = service_keys(ECS, ACCOUNT, WINDOW)
    assert "aws:SourceIp" not in keys
    assert keys["aws:SourceAccount"] == ACCOUNT
    assert keys["aws:PrincipalServiceName"] == ECS
    ip_bound = service_trust(ECS, {"IpAddress": {"aws:SourceIp": "127.0.0.0/8"}})
    assert not service_admits(ip_bound, ECS, ROLE_ARN, ACCOUNT, WINDOW).allowed


def _required(trust: dict[str, Any], assumed_by: dict[str, str] | None) -> Any:
    run = healthy_run(seed=3)
    iam = run.final["iam"]
    iam["roles"]["worker"]["trust"] = trust
    if assumed_by is not None:
        iam["assumed_by"] = assumed_by
    return check_required_access(run.build(), {"roles": {"worker": [], "producer": []}})


def test_a_role_trusting_the_service_passes_without_the_harness() -> None:
    result = _required(service_trust(ECS, SAME_ACCOUNT), {"worker": ECS})
    assert result.verdict == "pass", result.summary
    # Untrusted mode (no assumed_by): the same trust misses the harness, as today.
    assert _required(service_trust(ECS), None).verdict == "fail"


@pytest.mark.parametrize("trust", [service_trust("ec2.amazonaws.com"),
                                   service_trust(ECS, OTHER_ACCOUNT)])
def test_a_role_refusing_the_service_fails_with_its_trust_policy(trust: dict[str, Any]
                                                                 ) -> None:
    result = _required(trust, {"worker": ECS})
    assert result.verdict == "fail"
    (member,) = result.evidence["missing"]["members"]
    assert member["by"] == ECS and member["action"] == "sts:AssumeRole"
    assert member["trust"] == trust
    assert f"does not admit {ECS}" in result.summary


def test_a_service_role_is_judged_even_when_the_params_omit_it() -> None:
    run = healthy_run(seed=3)
    iam = run.final["iam"]
    iam["roles"]["worker"]["trust"] = service_trust("ec2.amazonaws.com")
    iam["assumed_by"] = {"worker": ECS}
    result = check_required_access(run.build(), {"roles": {"producer": []}})
    assert result.verdict == "fail"


def _refused_history(trust: dict[str, Any]) -> HistoryBuilder:
    b = HistoryBuilder(seed=1)
    decision = service_admits(trust, ECS, ROLE_ARN, ACCOUNT, WINDOW)
    b.op("kit", "session_refused", **refusal("role.worker", ROLE_ARN, trust, ECS, decision))
    return b


def test_a_refused_session_fails_the_workers_gate_not_an_error() -> None:
    trust = service_trust("ec2.amazonaws.com")
    result = check_workers_start(_refused_history(trust).build(), {})
    assert result.verdict == "fail"
    assert f"does not admit {ECS}" in result.summary
    assert result.evidence["refused"]["trust"] == trust


def test_the_judge_stops_at_a_refused_session(monkeypatch: pytest.MonkeyPatch) -> None:
    from kit import scenario

    sc = scenario.load("order-pipeline")
    results, problem = judge.judge(sc, _refused_history(service_trust("ec2.amazonaws.com"))
                                   .build())
    assert problem is None
    assert results["workload.workers_start"].verdict == "fail"
    assert "delivery.no_loss" not in results  # nothing ran: only the always and static rows


class _Gateway:
    """The one part of the gateway service_refusal uses: admin clients to the emulator."""

    def admin_client(self, service: str) -> Any:
        import boto3

        return boto3.client(service, region_name="us-east-1")


def _bound(arn: str) -> Any:
    from types import SimpleNamespace

    return SimpleNamespace(services={"role.worker": ECS}, roles={"role.worker": arn},
                           gateway=_Gateway())


@pytest.fixture
def moto_iam() -> Any:
    import boto3
    from moto import mock_aws

    with mock_aws():
        yield boto3.client("iam", region_name="us-east-1")


def test_the_runtime_decision_reads_the_deployed_trust(moto_iam: Any) -> None:
    import json

    from kit.run.bind import service_refusal

    def role(name: str, trust: dict[str, Any]) -> str:
        return moto_iam.create_role(RoleName=name, AssumeRolePolicyDocument=json.dumps(
            trust))["Role"]["Arn"]

    assert service_refusal(_bound(role("ecs", service_trust(ECS, SAME_ACCOUNT))),
                           "role.worker") is None
    refused = service_refusal(_bound(role("ec2", service_trust("ec2.amazonaws.com"))),
                              "role.worker")
    assert refused is not None and refused["principal"] == ECS
    assert refused["trust"] == service_trust("ec2.amazonaws.com")
    # Outputs naming a role IAM does not have: the solution's refusal, not a kit crash.
    missing = service_refusal(_bound(f"arn:aws:iam::{ACCOUNT}:role/nope"), "role.worker")
    assert missing is not None and missing["trust"] is None
    assert "IAM has no such role (NoSuchEntity" in missing["reason"]
    # A role no service assumes (the harness's, as today) is never asked about.
    assert service_refusal(_bound("unused"), "role.producer") is None


def test_a_refused_restart_is_named_as_one() -> None:
    b = HistoryBuilder(seed=1)
    b.op("kit", "worker_start", worker="worker-0#0", pid=10)
    trust = service_trust("ec2.amazonaws.com")
    decision = service_admits(trust, ECS, ROLE_ARN, ACCOUNT, WINDOW)
    b.op("kit", "session_refused", **refusal("role.worker", ROLE_ARN, trust, ECS, decision))
    result = check_workers_start(b.build(), {})
    assert result.verdict == "fail"
    assert result.summary.startswith("a worker could not be restarted: role role.worker's")
