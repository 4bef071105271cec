"""Issue 26's gaps, against real services: answers the emulator gave where AWS answers
otherwise, fixed in the kit and shown here as AWS documents them.

- S3: a read of a missing key is 403 AccessDenied to a caller without s3:ListBucket on the
  bucket (S3 API reference, GetObject and HeadObject, "Permissions": "If you have the
  s3:ListBucket permission on the bucket, Amazon S3 returns an HTTP status code 404 Not
  Found error. If you don't have the s3:ListBucket permission, Amazon S3 returns an HTTP
  status code 403 Access Denied error."), through the gateway in front of a real moto.
- RDS: AvailabilityZone and SecondaryAvailabilityZone (RDS API reference, DBInstance) are
  the primary's and the Multi-AZ standby's, and a failover (RebootDBInstance with
  ForceFailover: "the reboot is conducted through a Multi-AZ failover") swaps them.
- trust_narrowed revokes the role's sessions for its window (IAM User Guide, "Revoking IAM
  role temporary security credentials": every call of a session issued before the
  revocation is denied), so a worker that never restarts meets it; a window that no call of
  the solution's met is a fault not injected (workload.fault_injected).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from botocore.exceptions import ClientError

from kit import aws
from kit.checks.workers import check_fault_injected
from kit.faults import FAULTS, FaultContext
from kit.faults.nemesis import Nemesis
from kit.faults.spec import Fault
from kit.gateway import actions
from kit.gateway.server import Gateway
from kit.history import History
from kit.iam.usage import used_vs_granted
from kit.rds.config import RdsTimings
from tests.integration.iam_env import (
    Env,
    Role,
    allow,
    assumed_role,
    authz,
    denied,
    names,
    queue,
)

TIMINGS = RdsTimings(reboot_seconds=0.3, failover_seconds=0.3, restore_seconds=0.1,
                     wal_upload_seconds=0.3, retention_day_seconds=30.0)



# --- S3: a missing key is 404 only to a caller who may list the bucket ----------------------


def _bucket(env: Env, policy: dict[str, Any] | None = None) -> tuple[str, str]:
    """A fresh bucket holding one object `done.json`: its name and ARN."""
    s3 = aws.client("s3", env.moto)
    name = f"results-{next(names)}"
    s3.create_bucket(Bucket=name)
    s3.put_object(Bucket=name, Key="done.json", Body=b"{}")
    if policy is not None:
        s3.put_bucket_policy(Bucket=name, Policy=json.dumps(policy))
    return name, f"arn:aws:s3:::{name}"


def _reader(env: Env, gw: Gateway, arn: str, *extra: dict[str, Any],
            boundary: str | None = None) -> Role:
    return assumed_role(env, gw, allow("s3:GetObject", f"{arn}/*"), *extra, boundary=boundary)


def test_a_reader_without_list_bucket_gets_access_denied_for_a_missing_key(
        env: Env, gw: Gateway) -> None:
    name, arn = _bucket(env)
    s3 = _reader(env, gw, arn).client("s3", gw)
    assert s3.get_object(Bucket=name, Key="done.json")["Body"].read() == b"{}"
    error = denied(lambda: s3.get_object(Bucket=name, Key="not-yet.json"))
    assert error.response["ResponseMetadata"]["HTTPStatusCode"] == 403
    denied(lambda: s3.head_object(Bucket=name, Key="not-yet.json"), "403")  # HEAD: no body
    decisions = [op["value"] for op in authz(gw) if op["value"]["action"] == "s3:ListBucket"]
    assert [d["decision"] for d in decisions] == ["ImplicitDeny", "ImplicitDeny"]
    assert "S3 API reference, GetObject, Permissions" in decisions[0]["reason"]


def test_a_reader_with_list_bucket_gets_no_such_key_and_used_it(env: Env, gw: Gateway) -> None:
    name, arn = _bucket(env)
    s3 = _reader(env, gw, arn, allow("s3:ListBucket", arn)).client("s3", gw)
    denied(lambda: s3.get_object(Bucket=name, Key="not-yet.json"), "NoSuchKey")
    denied(lambda: s3.head_object(Bucket=name, Key="not-yet.json"), "404")
    s3.get_object(Bucket=name, Key="done.json")  # an object that exists asks nothing more
    listed = [op for op in authz(gw) if op["value"]["action"] == "s3:ListBucket"]
    assert [op["value"]["decision"] for op in listed] == ["Allow", "Allow"]
    history = History(ops=tuple(gw.recorder.snapshot()))
    assert ["s3:ListBucket", arn] in used_vs_granted(history, ("s3",))["worker"]["used"]


def test_list_bucket_counts_from_the_bucket_policy_and_a_boundary_caps_it(
        env: Env, gw: Gateway) -> None:
    name, arn = _bucket(env)
    reader = _reader(env, gw, arn)
    aws.client("s3", env.moto).put_bucket_policy(Bucket=name, Policy=json.dumps({
        "Version": "2012-10-17", "Statement": [{
            "Effect": "Allow", "Action": "s3:ListBucket", "Resource": arn,
            "Principal": {"AWS": reader.arn}}]}))
    gw.invalidate()  # the policy was put straight into moto, not through the gateway
    s3 = reader.client("s3", gw)
    denied(lambda: s3.get_object(Bucket=name, Key="not-yet.json"), "NoSuchKey")
    iam = aws.client("iam", env.moto)
    boundary = iam.create_policy(PolicyName=f"only-get-{next(names)}", PolicyDocument=json.dumps(
        {"Version": "2012-10-17", "Statement": [allow("s3:GetObject", f"{arn}/*")]}))
    capped = _reader(env, gw, arn, allow("s3:ListBucket", arn),
                     boundary=boundary["Policy"]["Arn"]).client("s3", gw)
    denied(lambda: capped.get_object(Bucket=name, Key="not-yet.json"))
    assert capped.get_object(Bucket=name, Key="done.json")["Body"].read() == b"{}"


# --- RDS: the zones a failover swaps ---------------------------------------------------------


def _until(condition: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout} s"
        time.sleep(0.05)
    return found


def _available(rds: Any, name: str) -> dict[str, Any]:
    def described() -> dict[str, Any] | None:
        found = rds.describe_db_instances(DBInstanceIdentifier=name)["DBInstances"][0]
        return found if found["DBInstanceStatus"] == "available" else None
    return _until(described, f"{name} available")


@pytest.fixture
def rds(env: Env) -> Iterator[Any]:
    env.sandbox.rds.plane.enable(TIMINGS)
    try:
        yield aws.client("rds", env.sandbox.rds.url)
    finally:
        env.sandbox.rds.plane.reset()
        env.sandbox.toxiproxy.reset()


def test_a_multi_az_failover_swaps_the_primary_and_secondary_zones(rds: Any, env: Env) -> None:
    events: list[tuple[str, str, dict[str, Any]]] = []
    env.sandbox.rds.plane.listeners.append(lambda *event: events.append(event))
    for name, multi_az in (("zones-multi", True), ("zones-single", False)):
        rds.create_db_instance(DBInstanceIdentifier=name, Engine="postgres",
                               DBInstanceClass="db.t4g.micro", AllocatedStorage=20,
                               MasterUsername="app", MasterUserPassword="not-checked-1",
                               DBName="ledger", MultiAZ=multi_az, BackupRetentionPeriod=1)
    single = _available(rds, "zones-single")
    assert "SecondaryAvailabilityZone" not in single  # "if present": Multi-AZ only
    before = _available(rds, "zones-multi")
    primary, secondary = before["AvailabilityZone"], before["SecondaryAvailabilityZone"]
    assert primary != secondary
    rds.reboot_db_instance(DBInstanceIdentifier="zones-multi", ForceFailover=True)
    after = _available(rds, "zones-multi")
    assert (after["AvailabilityZone"], after["SecondaryAvailabilityZone"]) == (
        secondary, primary)
    failovers = [e for e in events if e[1] == "failover_completed"]
    assert failovers == [("zones-multi", "failover_completed", {  # the timeline says where
        "reason": "RebootDBInstance with ForceFailover", "zone": secondary,
        "secondary_zone": primary})]
    rds.reboot_db_instance(DBInstanceIdentifier="zones-multi", ForceFailover=True)
    back = _available(rds, "zones-multi")
    assert (back["AvailabilityZone"], back["SecondaryAvailabilityZone"]) == (primary, secondary)
    rds.reboot_db_instance(DBInstanceIdentifier="zones-single")  # no failover: no move
    assert _available(rds, "zones-single")["AvailabilityZone"] == single["AvailabilityZone"]


# --- trust_narrowed: a long-lived worker meets it within the window ---------------------------


def _nemesis(gw: Gateway, env: Env, role_arn: str, seconds: float) -> Nemesis:
    """trust_narrowed on the role, triggered at once, held `seconds`."""
    spec = Fault(kind="trust_narrowed", target="role.worker", duration_seconds=seconds,
                 trigger={"after_recorded": 0})
    ctx = FaultContext(spec=spec, params=FAULTS["trust_narrowed"].Params(),
                       recorder=gw.recorder, supervisor=None, gateway=gw,
                       stopping=threading.Event(), roles={"role.worker": role_arn},
                       harness=env.harness)
    return Nemesis(ctx)


def _ops(gw: Gateway, kind: str) -> list[Any]:
    return [op for op in gw.recorder.snapshot() if op.kind == kind]


def test_trust_narrowed_denies_a_call_of_a_long_lived_worker_during_its_window(
        env: Env, gw: Gateway) -> None:
    url, arn = queue(env)
    worker = assumed_role(env, gw, allow(["sqs:SendMessage", "sqs:ReceiveMessage"], arn))
    sqs = worker.client("sqs", gw)
    sqs.send_message(QueueUrl=url, MessageBody="before")  # a session from before the fault
    nemesis = _nemesis(gw, env, worker.arn, 1.0)
    nemesis.start()
    _until(lambda: _ops(gw, "fault_start"), "the fault's start")
    with pytest.raises(ClientError) as refused:  # the same session, never renewed
        sqs.send_message(QueueUrl=url, MessageBody="during")
    assert refused.value.response["Error"]["Code"] == "AccessDenied"
    nemesis.join(timeout=30)
    assert nemesis.error is None and not _ops(gw, "fault_not_injected")
    sqs.send_message(QueueUrl=url, MessageBody="after")  # the revocation is lifted
    history = History(ops=tuple(gw.recorder.snapshot()))
    assert check_fault_injected(history, {}).verdict == "pass"


def test_trust_narrowed_that_no_call_met_fails_workload_fault_injected(
        env: Env, gw: Gateway) -> None:
    _, arn = queue(env)
    worker = assumed_role(env, gw, allow("sqs:SendMessage", arn))  # it never calls
    nemesis = _nemesis(gw, env, worker.arn, 0.3)
    nemesis.run()
    [skipped] = _ops(gw, "fault_not_injected")
    assert "the kit's own AssumeRole probe does not count" in skipped.value.reason
    result = check_fault_injected(History(ops=tuple(gw.recorder.snapshot())), {})
    assert result.verdict == "fail"


def test_a_head_on_a_missing_or_unnamable_bucket_stays_not_found(env: Env, gw: Gateway) -> None:
    # No bucket, no key to hide: a HEAD's 404 stays NoSuchBucket's, whatever the name (one
    # boto3 refuses to send is asked as a worker could send it raw), and nothing is asked.
    name, arn = _bucket(env)
    reader = _reader(env, gw, arn)
    session = gw.guard.sessions[reader.creds.access_key_id]
    for bucket in (f"{name}-gone", "bad!name"):
        call = actions.describe("HEAD", f"/{bucket}/k", {}, b"", service="s3",
                                account=aws.ACCOUNT_ID)
        assert gw.guard.hide_missing(session, call, "HEAD", {}, "127.0.0.1", 404, b"") is None
    assert not [op for op in authz(gw) if op["value"]["action"] == "s3:ListBucket"]
