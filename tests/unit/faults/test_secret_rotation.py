"""secret_rotation: Secrets Manager's rotation as the kit plays it (RotateSecret, then the
function's four steps, each after the application's next login), against moto in process
with the kit's fidelity fixes; the function is a Python stand-in for the kit's Lambda."""

from __future__ import annotations

import io
import json
import threading
import zipfile
from typing import Any

import boto3
import pytest
from moto import mock_aws

from kit.faults import FAULTS, FaultContext
from kit.faults.base import FaultBroken
from kit.faults.hooks import RotationHooks
from kit.faults.rotation import STEPS
from kit.faults.spec import Fault
from kit.lambdas.invoke import Outcome
from kit.recorder import Recorder
from kit.sandbox import fidelity


class App:
    """The application's login counter: every look at it is one more login."""

    def __init__(self) -> None:
        self.count = 0

    @property
    def attempts(self) -> int:
        self.count += 1
        return self.count


@pytest.fixture
def secrets() -> Any:
    fidelity.apply_all()
    with mock_aws():
        code = io.BytesIO()
        with zipfile.ZipFile(code, "w") as archive:
            archive.writestr("handler.py", "def handle(event, context):\n    return None\n")
        role = boto3.client("iam", region_name="us-east-1").create_role(
            RoleName="rotator", AssumeRolePolicyDocument=json.dumps({
                "Version": "2012-10-17", "Statement": [{
                    "Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"},
                    "Action": "sts:AssumeRole"}]}))["Role"]["Arn"]
        boto3.client("lambda", region_name="us-east-1").create_function(
            FunctionName="rotator", Runtime="python3.11", Role=role, Handler="handler.handle",
            Code={"ZipFile": code.getvalue()})
        yield boto3.client("secretsmanager", region_name="us-east-1")


def rotating(client: Any, step: str, arn: str, token: str) -> None:
    """A correct function's steps: a new value, then AWSCURRENT moved."""
    if step == "createSecret":
        client.put_secret_value(SecretId=arn, ClientRequestToken=token,
                                SecretString=json.dumps({"password": token}),
                                VersionStages=["AWSPENDING"])
    elif step == "finishSecret":
        current = next(v for v, s in client.describe_secret(SecretId=arn)
                       ["VersionIdsToStages"].items() if "AWSCURRENT" in s)
        client.update_secret_version_stage(SecretId=arn, VersionStage="AWSCURRENT",
                                           MoveToVersionId=token, RemoveFromVersionId=current)


def run(secrets: Any, configured: bool = True, fails_at: str = "",
        login_error: str = "refused") -> tuple[Recorder, list[str]]:
    name = f"app-{len(secrets.list_secrets()['SecretList'])}"
    arn = secrets.create_secret(Name=name, SecretString=json.dumps({"password": "p0"}))["ARN"]
    if configured:
        function = boto3.client("lambda", region_name="us-east-1").get_function(
            FunctionName="rotator")["Configuration"]["FunctionArn"]
        secrets.rotate_secret(SecretId=arn, RotationLambdaARN=function,
                              RotationRules={"AutomaticallyAfterDays": 30})
    steps: list[str] = []

    def invoke(function: str, event: dict[str, Any]) -> Outcome:
        steps.append(event["Step"])
        if event["Step"] == fails_at:
            return Outcome(False, error="boom")
        rotating(secrets, event["Step"], event["SecretId"], event["ClientRequestToken"])
        return Outcome(True)

    recorder = Recorder()
    spec = Fault(kind="secret_rotation", target="secret.app", params={"rotations": 2})
    ctx = FaultContext(spec=spec, params=FAULTS["secret_rotation"].Params(rotations=2),
                       recorder=recorder, supervisor=None, gateway=None,  # type: ignore[arg-type]
                       stopping=threading.Event(), values={"secret.app.arn": arn}, seed=7,
                       rotation=RotationHooks(App(), secrets, invoke,  # type: ignore[arg-type]
                                              lambda creds: login_error))
    fault = FAULTS["secret_rotation"](ctx)
    fault.start()
    fault.window()
    fault.heal()
    return recorder, steps


def test_two_rotations_run_the_four_steps_with_one_token_each(secrets: Any) -> None:
    recorder, steps = run(secrets)
    assert steps == list(STEPS) * 2
    rotations = [op for op in recorder.snapshot() if op.kind == "rotation"]
    assert [op.type for op in rotations] == ["ok", "ok"]
    first, second = rotations
    assert first.value.token != second.value.token
    assert first.value.after[first.value.token] == ["AWSCURRENT", "AWSPENDING"]
    assert second.value.after[first.value.token] == ["AWSPREVIOUS"]
    [login] = [op for op in recorder.snapshot() if op.kind == "first_credentials_login"]
    assert (login.type, login.value.error) == ("fail", "refused")


def test_the_tokens_come_from_the_seed(secrets: Any) -> None:
    tokens = [op.value.token for op in run(secrets)[0].snapshot() if op.kind == "rotation"]
    assert tokens == [op.value.token for op in run(secrets)[0].snapshot() if op.kind == "rotation"]


def test_a_failed_step_ends_the_rotations(secrets: Any) -> None:
    recorder, steps = run(secrets, fails_at="setSecret")
    assert steps == ["createSecret", "setSecret"]
    [rotation] = [op for op in recorder.snapshot() if op.kind == "rotation"]
    assert rotation.type == "fail" and "setSecret: boom" in rotation.value.error


def test_a_secret_without_rotation_is_recorded_not_rotated(secrets: Any) -> None:
    recorder, steps = run(secrets, configured=False, login_error="")
    assert steps == []
    [rotation] = [op for op in recorder.snapshot() if op.kind == "rotation"]
    assert rotation.type == "fail" and "not configured" in rotation.value.error
    [login] = [op for op in recorder.snapshot() if op.kind == "first_credentials_login"]
    assert login.type == "ok"


def test_outside_a_rotating_drill_it_is_the_kits_error() -> None:
    spec = Fault(kind="secret_rotation", target="secret.app")
    ctx = FaultContext(spec=spec, params=FAULTS["secret_rotation"].Params(),
                       recorder=Recorder(), supervisor=None, gateway=None,  # type: ignore[arg-type]
                       stopping=threading.Event())
    with pytest.raises(FaultBroken, match="drills"):
        FAULTS["secret_rotation"](ctx).start()
