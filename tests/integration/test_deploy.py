"""Real Terraform with the real AWS provider against a real moto server."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kit.deploy.terraform import DeployFailure, EnvironmentFailure, Terraform
from kit.sandbox import Sandbox
from kit.workload import aws
from tests.conftest import ROOT
from tests.integration.procs import alive, eventually, tree

STACKS = ROOT / "tests" / "stacks"


@pytest.fixture(scope="module")
def sandbox():  # noqa: ANN201
    with Sandbox(postgres=False, provider=True) as sb:
        yield sb


@pytest.fixture()
def moto_url(sandbox: Sandbox) -> str:
    return sandbox.moto.url


def _terraform(solution: Path, work: Path, sandbox: Sandbox) -> Terraform:
    return Terraform(solution, work, reattach=sandbox.provider.reattach if sandbox.provider
                     else None)


def _tree(path: Path) -> dict[str, str]:
    return {str(p.relative_to(path)): p.read_text() for p in sorted(path.rglob("*"))
            if p.is_file()}


def test_apply_read_back_destroy(sandbox: Sandbox, moto_url: str, tmp_path: Path) -> None:
    solution = STACKS / "foundation"
    before = _tree(solution)
    tf = _terraform(solution, tmp_path, sandbox)
    tf.configure(moto_url)
    tf.init()
    tf.validate()
    tf.apply()
    out = tf.outputs()

    sqs = aws.client("sqs", moto_url)
    attrs = sqs.get_queue_attributes(QueueUrl=out["queue_url"],
                                     AttributeNames=["All"])["Attributes"]
    assert json.loads(attrs["RedrivePolicy"]) == {"deadLetterTargetArn": out["dlq_arn"],
                                                  "maxReceiveCount": 4}
    assert attrs["VisibilityTimeout"] == "15"
    iam = aws.client("iam", moto_url)
    doc = iam.get_role_policy(RoleName=out["role_name"], PolicyName="consume")["PolicyDocument"]
    assert doc["Statement"][0]["Action"] == ["sqs:ReceiveMessage", "sqs:DeleteMessage"]
    db = aws.client("rds", moto_url).describe_db_instances(
        DBInstanceIdentifier=out["db_identifier"])["DBInstances"][0]
    assert (db["Engine"], db["StorageEncrypted"], db["BackupRetentionPeriod"]) == (
        "postgres", True, 7)
    secret = aws.client("secretsmanager", moto_url).get_secret_value(SecretId=out["secret_arn"])
    assert len(secret["SecretString"]) == 24

    tf.destroy()
    assert out["queue_url"] not in sqs.list_queues().get("QueueUrls", [])
    assert aws.client("rds", moto_url).describe_db_instances()["DBInstances"] == []
    assert _tree(solution) == before, "the original solution directory was modified"


def test_invalid_hcl_is_the_solutions_fault_with_terraforms_diagnostic(
        moto_url: str, tmp_path: Path) -> None:
    tf = Terraform(STACKS / "bad-hcl", tmp_path)
    with pytest.raises(Exception) as caught:
        tf.configure(moto_url)
        tf.init()
    failure = caught.value
    assert getattr(failure, "outcome", None) == "fail"
    assert "main.tf" in str(failure)


def test_init_diagnostic_reaches_the_user_verbatim(sandbox: Sandbox, moto_url: str,
                                                  tmp_path: Path) -> None:
    solution = tmp_path / "sol"
    solution.mkdir()
    (solution / "main.tf").write_text('resource "aws_sqs_queue" "q" {\n  nme = "x"\n}\n')
    tf = _terraform(solution, tmp_path / "work", sandbox)
    tf.configure(moto_url)
    tf.init()
    with pytest.raises(DeployFailure) as caught:
        tf.validate()
    assert 'An argument named "nme" is not expected here' in caught.value.diagnostics


def test_provider_version_missing_from_mirror_is_an_environment_error(
        moto_url: str, tmp_path: Path) -> None:
    tf = Terraform(STACKS / "old-provider", tmp_path)
    tf.configure(moto_url)
    with pytest.raises(EnvironmentFailure) as caught:
        tf.init()
    assert "6.48.0" in str(caught.value)
    assert "~> 5.0" in str(caught.value)


CHILD = textwrap.dedent("""
    import sys, tempfile
    from pathlib import Path
    from kit.deploy.terraform import Terraform
    from kit.sandbox import Sandbox
    with Sandbox(postgres=False) as sb, tempfile.TemporaryDirectory() as work:
        tf = Terraform(Path(sys.argv[1]), Path(work))
        tf.configure(sb.moto.url)
        tf.init()
        print("applying", flush=True)
        tf.apply()
""")


def test_ctrl_c_during_apply_leaves_no_process(tmp_path: Path) -> None:
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(STACKS / "foundation")],
                             stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "applying"
    # Find terraform (in its sandbox, under bwrap) while it is applying, then interrupt.
    assert eventually(lambda: _terraform_running(child.pid), timeout=30)
    started = [pid for pid in tree(child.pid) if pid != child.pid]
    child.send_signal(signal.SIGINT)
    child.wait(timeout=60)
    for pid in started:
        assert eventually(lambda pid=pid: not alive(pid)), pid


def _terraform_running(parent: int) -> bool:
    import psutil

    return any(proc.name() in ("terraform", "tofu")
               for proc in psutil.Process(parent).children(recursive=True))
