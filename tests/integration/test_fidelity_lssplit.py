"""With `--emulator localstack`, moto serves RDS while LocalStack serves EC2, KMS and Secrets
Manager: what RDS refers to resolves where it lives (kit/sandbox/localstack_split.py), and a
lookup LocalStack does not answer is the kit's `error` naming the split.

AWS behaviour relied on (RDS User Guide, "Working with a DB instance in a VPC": a DB subnet
group is a collection of subnets of one VPC, at least two Availability Zones; "Encrypting
Amazon RDS resources": `KmsKeyId` names a customer managed key of the account and region;
"Password management with Amazon RDS and AWS Secrets Manager": RDS creates the master user
secret in Secrets Manager, encrypted with the key `MasterUserSecretKmsKeyId` names, and
deletes it with the instance). Issue 25, class 3.

Also the fixes LocalStack gets (kit/sandbox/localstack_main.py): the master secret's
managed rotation, a dual-stack subnet, Lambda functions without Docker, an empty redrive
allow policy, imported key material's expiry and replica keys.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import botocore.exceptions
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from kit import aws
from kit.deploy.evidence import Witness
from kit.deploy.terraform import EnvironmentFailure, Terraform
from kit.run.sandbox import Sandbox
from kit.sandbox.localstack_split import settings
from kit.sandbox.moto import MotoServer
from kit.sandbox.ports import free_port
from kit.toolchain import localstack_install
from tests.integration.stack import stack

STACK = """
resource "aws_vpc" "main" {
  cidr_block = "10.20.0.0/16"
}

resource "aws_subnet" "a" {
  vpc_id            = aws_vpc.main.id
  cidr_block        = "10.20.1.0/24"
  availability_zone = "us-east-1a"
}

resource "aws_subnet" "b" {
  vpc_id            = aws_vpc.main.id
  cidr_block        = "10.20.2.0/24"
  availability_zone = "us-east-1b"
}

resource "aws_db_subnet_group" "db" {
  name       = "lssplit"
  subnet_ids = [aws_subnet.a.id, aws_subnet.b.id]
}

resource "aws_security_group" "db" {
  name   = "lssplit-db"
  vpc_id = aws_vpc.main.id
  ingress {
    from_port   = 5432
    to_port     = 5432
    protocol    = "tcp"
    cidr_blocks = [aws_vpc.main.cidr_block]
  }
}

resource "aws_kms_key" "db" {
  description             = "lssplit storage and master secret"
  deletion_window_in_days = 7
}

resource "aws_db_instance" "db" {
  identifier                    = "lssplit"
  engine                        = "postgres"
  engine_version                = "15"
  instance_class                = "db.t3.micro"
  allocated_storage             = 20
  username                      = "app"
  manage_master_user_password   = true
  master_user_secret_kms_key_id = aws_kms_key.db.arn
  db_subnet_group_name          = aws_db_subnet_group.db.name
  vpc_security_group_ids        = [aws_security_group.db.id]
  storage_encrypted             = true
  kms_key_id                    = aws_kms_key.db.arn
  monitoring_interval           = 60
  monitoring_role_arn           = aws_iam_role.monitoring.arn
  skip_final_snapshot           = true
}

resource "aws_iam_role" "monitoring" {
  name = "lssplit-monitoring"
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = "sts:AssumeRole",
                   Principal = { Service = "monitoring.rds.amazonaws.com" } }]
  })
}

resource "aws_sns_topic" "events" {
  name = "lssplit-db-events"
}

resource "aws_db_event_subscription" "db" {
  name        = "lssplit"
  sns_topic   = aws_sns_topic.events.arn
  source_type = "db-instance"
  source_ids  = [aws_db_instance.db.identifier]
}

resource "aws_iam_role" "proxy" {
  name = "lssplit-proxy"
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = "sts:AssumeRole",
                   Principal = { Service = "rds.amazonaws.com" } }]
  })
}

resource "aws_db_proxy" "db" {
  name           = "lssplit"
  engine_family  = "POSTGRESQL"
  role_arn       = aws_iam_role.proxy.arn
  vpc_subnet_ids = [aws_subnet.a.id, aws_subnet.b.id]
  auth {
    auth_scheme = "SECRETS"
    iam_auth    = "DISABLED"
    secret_arn  = aws_db_instance.db.master_user_secret[0].secret_arn
  }
}

# Managed rotation: a secret RDS manages rotates without a Lambda function (Secrets Manager
# User Guide, "Managed rotation for AWS Secrets Manager secrets"), on a schedule
# (RotateSecret, RotationRulesType.ScheduleExpression), as terraform-aws-modules/rds does.
resource "aws_secretsmanager_secret_rotation" "master" {
  secret_id = aws_db_instance.db.master_user_secret[0].secret_arn
  rotation_rules {
    schedule_expression = "rate(15 days)"
  }
}

# Read on LocalStack's Secrets Manager: the secret RDS made lives there.
data "aws_secretsmanager_secret" "master" {
  arn = aws_db_instance.db.master_user_secret[0].secret_arn
}

output "vpc" {
  value = aws_vpc.main.id
}

output "secret" {
  value = data.aws_secretsmanager_secret.master.arn
}

output "key" {
  value = aws_kms_key.db.arn
}
"""

BROKEN = """
resource "aws_db_subnet_group" "db" {
  name       = "lssplit-broken"
  subnet_ids = ["subnet-0123456789abcdef0", "subnet-0123456789abcdef1"]
}
"""


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    if localstack_install.python() is None:
        pytest.fail(f"LocalStack is not installed: run `{localstack_install.FIX}`")
    with Sandbox(postgres=False, provider=True, emulator="localstack") as sb:
        yield sb


def test_an_rds_stack_in_a_localstack_vpc_applies_reads_back_and_destroys(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """A subnet group of LocalStack's subnets, its security group, an instance encrypted
    with LocalStack's key whose master secret is in LocalStack's Secrets Manager, monitored
    with LocalStack's role, its events to LocalStack's topic, a proxy in LocalStack's
    subnets, its master secret rotated by RDS on a schedule: applied, read back as declared
    (an empty plan), destroyed."""
    assert sandbox.routes.served_by(["rds", "ec2", "kms", "secretsmanager"]) == {
        "ec2": "localstack", "kms": "localstack", "rds": "moto",
        "secretsmanager": "localstack"}
    tf = stack(sandbox, tmp_path, STACK, routed=True)
    tf.apply()
    out = tf.outputs()
    assert tf.pending_changes() == []
    rds = aws.client("rds", sandbox.endpoint("rds"))
    group = rds.describe_db_subnet_groups(DBSubnetGroupName="lssplit")["DBSubnetGroups"][0]
    assert group["VpcId"] == out["vpc"]  # LocalStack's VPC
    assert {s["SubnetAvailabilityZone"]["Name"] for s in group["Subnets"]} == {
        "us-east-1a", "us-east-1b"}
    db = rds.describe_db_instances(DBInstanceIdentifier="lssplit")["DBInstances"][0]
    assert db["KmsKeyId"] == out["key"]
    assert db["MasterUserSecret"]["KmsKeyId"] == out["key"]
    proxy = rds.describe_db_proxies(DBProxyName="lssplit")["DBProxies"][0]
    assert proxy["VpcId"] == out["vpc"]
    secrets = aws.client("secretsmanager", sandbox.localstack.url)
    described = secrets.describe_secret(SecretId=out["secret"])
    assert described["ARN"] == out["secret"]
    assert described["RotationEnabled"] is True
    assert described["RotationRules"]["ScheduleExpression"] == "rate(15 days)"
    assert "RotationLambdaARN" not in described or not described["RotationLambdaARN"]
    tf.destroy()  # CancelRotateSecret, then the instance and its secret
    # RDS deleted its secret with the instance, on LocalStack.
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        secrets.describe_secret(SecretId=out["secret"])
    assert caught.value.response["Error"]["Code"] == "ResourceNotFoundException"


DUAL_STACK = """
resource "aws_vpc" "dual" {
  cidr_block                       = "10.40.0.0/16"
  assign_generated_ipv6_cidr_block = true
}

resource "aws_subnet" "dual" {
  vpc_id                                         = aws_vpc.dual.id
  availability_zone                              = "us-east-1a"
  cidr_block                                     = "10.40.1.0/24"
  ipv6_cidr_block                                = cidrsubnet(aws_vpc.dual.ipv6_cidr_block, 8, 1)
  assign_ipv6_address_on_creation                = true
  enable_dns64                                   = true
  enable_resource_name_dns_aaaa_record_on_launch = true
}
"""


def test_a_dual_stack_subnet_applies_reads_back_and_destroys_on_localstack(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """A subnet with an IPv6 block, DNS64 and AAAA records on launch, as
    terraform-aws-modules/vpc's ipv6-dualstack example makes them. AWS (EC2 API reference,
    SubnetCidrBlockState: State is associating | associated | ...; ModifySubnetAttribute:
    EnableDns64, EnableResourceNameDnsAAAARecordOnLaunch; Subnet: EnableDns64): LocalStack
    4.13.1's moto answered the state as "{'State': 'associated'}" and dropped EnableDns64,
    so the provider's waits for both failed or never ended."""
    tf = stack(sandbox, tmp_path, DUAL_STACK, routed=True)
    tf.apply()
    assert tf.pending_changes() == []
    tf.destroy()


LAMBDA = """
data "archive_file" "code" {
  type        = "zip"
  output_path = "${path.module}/build/code.zip"
  source {
    content  = "def handler(event, context):\\n    return event\\n"
    filename = "handler.py"
  }
}

resource "aws_iam_role" "fn" {
  name = "lssplit-fn"
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = "sts:AssumeRole",
                   Principal = { Service = "lambda.amazonaws.com" } }]
  })
}

resource "aws_lambda_function" "fn" {
  function_name    = "lssplit-fn"
  role             = aws_iam_role.fn.arn
  runtime          = "python3.12"
  handler          = "handler.handler"
  filename         = data.archive_file.code.output_path
  source_code_hash = data.archive_file.code.output_base64sha256
}
"""


def test_a_zipped_lambda_function_becomes_active_on_localstack(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """AWS (Lambda Developer Guide, "Lambda function states"): a new function goes from
    Pending to Active once its resources are ready. LocalStack 4.13.1 on Python 3.11
    failed every function ("Error while creating lambda": its packages module's
    `Lock | None`), and without Docker or network would fail it preparing its Docker
    executor; the kit's LocalStack unpacks the code only (localstack_main.py)."""
    tf = stack(sandbox, tmp_path, LAMBDA, routed=True)
    tf.apply()
    lam = aws.client("lambda", sandbox.routes.primary.url)
    assert lam.get_function(FunctionName="lssplit-fn")["Configuration"]["State"] == "Active"
    assert tf.pending_changes() == []
    tf.destroy()


def test_a_subnet_localstack_lacks_is_refused_as_on_moto_alone(sandbox: Sandbox) -> None:
    """A subnet id that exists nowhere is refused as moto alone refuses it (the solution's
    mistake), not as the split's failure."""
    rds = aws.client("rds", sandbox.endpoint("rds"))
    for given in ("subnet-0123456789abcdef0", "not-a-subnet"):  # missing, malformed
        with pytest.raises(botocore.exceptions.ClientError) as caught:
            rds.create_db_subnet_group(DBSubnetGroupName="nowhere",
                                       DBSubnetGroupDescription="x", SubnetIds=[given])
        assert caught.value.response["Error"]["Code"] == "InvalidSubnetID.NotFound"


def test_keys_and_the_default_security_group_are_localstacks(sandbox: Sandbox) -> None:
    """An instance given no security group gets the default VPC's default group, LocalStack's
    (RDS User Guide, "Controlling access with security groups": without one, the VPC's
    default security group); a snapshot copied with LocalStack's key is encrypted with it,
    and with a key that exists nowhere is refused KMSKeyNotAccessibleFault (RDS API
    reference, CopyDBSnapshot: "KMSKeyNotAccessibleFault")."""
    assert sandbox.localstack is not None
    ec2 = aws.client("ec2", sandbox.localstack.url)
    default_vpc = ec2.describe_vpcs(
        Filters=[{"Name": "is-default", "Values": ["true"]}])["Vpcs"][0]["VpcId"]
    default_group = ec2.describe_security_groups(Filters=[
        {"Name": "vpc-id", "Values": [default_vpc]},
        {"Name": "group-name", "Values": ["default"]}])["SecurityGroups"][0]["GroupId"]
    key = aws.client("kms", sandbox.localstack.url).create_key()["KeyMetadata"]["Arn"]
    rds = aws.client("rds", sandbox.endpoint("rds"))
    db = rds.create_db_instance(DBInstanceIdentifier="keys", Engine="postgres",
                                DBInstanceClass="db.t3.micro", AllocatedStorage=20,
                                MasterUsername="app", MasterUserPassword="password123")
    groups = db["DBInstance"]["VpcSecurityGroups"]
    assert [g["VpcSecurityGroupId"] for g in groups] == [default_group]
    rds.create_db_snapshot(DBInstanceIdentifier="keys", DBSnapshotIdentifier="keys")
    copied = rds.copy_db_snapshot(SourceDBSnapshotIdentifier="keys",
                                  TargetDBSnapshotIdentifier="keys-copy", KmsKeyId=key)
    assert copied["DBSnapshot"]["KmsKeyId"] == key
    missing = key.rsplit("/", 1)[0] + "/00000000-0000-0000-0000-000000000000"
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        rds.copy_db_snapshot(SourceDBSnapshotIdentifier="keys",
                             TargetDBSnapshotIdentifier="keys-nowhere", KmsKeyId=missing)
    assert caught.value.response["Error"]["Code"] == "KMSKeyNotAccessibleFault"
    with pytest.raises(botocore.exceptions.ClientError) as caught:  # CreateDBInstance: same
        rds.create_db_instance(DBInstanceIdentifier="nokey", Engine="postgres",
                               DBInstanceClass="db.t3.micro", AllocatedStorage=20,
                               MasterUsername="app", ManageMasterUserPassword=True,
                               MasterUserSecretKmsKeyId=missing)
    assert caught.value.response["Error"]["Code"] == "KMSKeyNotAccessibleFault"


def test_an_instance_whose_secret_is_localstacks_restores_to_a_point_in_time(
        sandbox: Sandbox) -> None:
    """RestoreDBInstanceToPointInTime of an instance with a managed master secret (RDS User
    Guide, "Restoring a DB instance to a specified time"): moto copies the instance, with
    the secret's lookups on LocalStack (it failed "cannot pickle '_thread.lock'")."""
    rds = aws.client("rds", sandbox.endpoint("rds"))
    rds.create_db_instance(DBInstanceIdentifier="managed", Engine="postgres",
                           DBInstanceClass="db.t3.micro", AllocatedStorage=20,
                           MasterUsername="app", ManageMasterUserPassword=True,
                           BackupRetentionPeriod=1)
    restored = rds.restore_db_instance_to_point_in_time(
        SourceDBInstanceIdentifier="managed", TargetDBInstanceIdentifier="managed-restored",
        UseLatestRestorableTime=True)["DBInstance"]
    assert restored["DBInstanceIdentifier"] == "managed-restored"


def test_an_ec2_resource_a_moto_service_cannot_use_is_the_kits_error(
        sandbox: Sandbox) -> None:
    """ELBv2 (moto's, built into moto's own EC2) given LocalStack's VPC: KitEmulatorFailure
    naming the split (kit/sandbox/localstack_unseen.py); given a VPC that exists nowhere:
    moto's own answer, as AWS's ("The VPC ID ... is not found"), the solution's mistake."""
    assert sandbox.localstack is not None
    vpc = aws.client("ec2", sandbox.localstack.url).create_vpc(
        CidrBlock="10.30.0.0/16")["Vpc"]["VpcId"]
    elbv2 = aws.client("elbv2", sandbox.endpoint("elbv2"))
    for given, code in ((vpc, "KitEmulatorFailure"),
                        ("vpc-0123456789abcdef0", "ValidationError")):
        with pytest.raises(botocore.exceptions.ClientError) as caught:
            elbv2.create_target_group(Name=f"tg-{code[:5].lower()}", Protocol="HTTP",
                                      Port=80, VpcId=given)
        error = caught.value.response["Error"]
        assert error["Code"] == code, error
        assert ("the LocalStack split" in error["Message"]) == (given == vpc), error


def test_a_lookup_localstack_does_not_answer_is_the_kits_error_naming_the_split(
        tmp_path: Path) -> None:
    """moto's RDS whose peer does not answer refuses at once with KitEmulatorFailure naming
    the split, and a deploy that meets it is an EnvironmentFailure (the kit's `error`:
    kit/deploy/divergences.py's general signs), never the solution's `fail`. (LocalStack
    itself down fails earlier, at the provider's first call: the emulator stopped answering.)
    """
    nobody = f"http://127.0.0.1:{free_port()}"
    moto = MotoServer(tmp_path, peer=settings(nobody, None))
    try:
        moto.wait_ready()
        with pytest.raises(botocore.exceptions.ClientError) as caught:
            aws.client("rds", moto.url).create_db_subnet_group(
                DBSubnetGroupName="g", DBSubnetGroupDescription="x",
                SubnetIds=["subnet-0123456789abcdef0"])
        solution = tmp_path / "solution"
        solution.mkdir()
        (solution / "main.tf").write_text(BROKEN)
        tf = Terraform(solution, tmp_path / "work")
        tf.witness = Witness([moto.journal], [moto.answering])
        tf.configure(moto.url)
        tf.init()
        with pytest.raises(EnvironmentFailure) as failed:
            tf.apply()
    finally:
        moto.stop()
    error = caught.value.response["Error"]
    assert error["Code"] == "KitEmulatorFailure", error
    assert "the LocalStack split" in error["Message"]
    assert nobody in error["Message"]
    assert "the LocalStack split" in str(failed.value)


def _kms(sandbox: Sandbox, region: str = aws.REGION) -> Any:
    return boto3.client("kms", endpoint_url=sandbox.routes.primary.url, region_name=region,
                        aws_access_key_id=aws.ADMIN.access_key_id,
                        aws_secret_access_key=aws.ADMIN.secret_access_key)


def test_an_empty_redrive_allow_policy_is_removed_on_localstack(sandbox: Sandbox) -> None:
    """AWS (SQS API reference, SetQueueAttributes; GetQueueAttributes returns the
    attributes a queue has): RedriveAllowPolicy set to "" is cleared, as the AWS provider's
    destroy of aws_sqs_queue_redrive_allow_policy waits to see."""
    sqs = aws.client("sqs", sandbox.routes.primary.url)
    url = sqs.create_queue(QueueName="lssplit-allow")["QueueUrl"]
    sqs.set_queue_attributes(QueueUrl=url, Attributes={
        "RedriveAllowPolicy": '{"redrivePermission": "allowAll"}'})
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"RedriveAllowPolicy": ""})
    got = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    assert "RedriveAllowPolicy" not in got


def test_imported_key_material_reads_back_its_expiry_on_localstack(sandbox: Sandbox) -> None:
    """AWS (KMS API reference, KeyMetadata.ValidTo: present when Origin is EXTERNAL and
    ExpirationModel is KEY_MATERIAL_EXPIRES): DescribeKey says when the material expires."""
    kms = _kms(sandbox)
    key = kms.create_key(Origin="EXTERNAL")["KeyMetadata"]["KeyId"]
    params = kms.get_parameters_for_import(KeyId=key, WrappingAlgorithm="RSAES_OAEP_SHA_256",
                                           WrappingKeySpec="RSA_2048")
    public = serialization.load_der_public_key(params["PublicKey"])
    assert isinstance(public, rsa.RSAPublicKey)
    wrapped = public.encrypt(bytes(32), padding.OAEP(mgf=padding.MGF1(hashes.SHA256()),
                                                     algorithm=hashes.SHA256(), label=None))
    valid_to = datetime.datetime(2030, 1, 1, tzinfo=datetime.UTC)
    kms.import_key_material(KeyId=key, ImportToken=params["ImportToken"],
                            EncryptedKeyMaterial=wrapped, ValidTo=valid_to,
                            ExpirationModel="KEY_MATERIAL_EXPIRES")
    described = kms.describe_key(KeyId=key)["KeyMetadata"]
    assert (described["KeyState"], described["ValidTo"]) == ("Enabled", valid_to)


def test_a_replica_key_has_its_own_policy_tags_and_import_on_localstack(
        sandbox: Sandbox) -> None:
    """AWS (KMS API reference, ReplicateKey): the replica takes the request's Policy (else
    the default key policy) and Tags ("not a shared property of multi-Region keys"); the
    replica of a key with imported material is PendingImport until its own import."""
    kms, replicas = _kms(sandbox), _kms(sandbox, "eu-west-1")
    primary = kms.create_key(MultiRegion=True, Tags=[{"TagKey": "of", "TagValue": "primary"}])
    policy = ('{"Version": "2012-10-17", "Statement": [{"Sid": "replica", "Effect": "Allow", '
              '"Principal": {"AWS": "arn:aws:iam::123456789012:root"}, "Action": "kms:*", '
              '"Resource": "*"}]}')
    replica = kms.replicate_key(KeyId=primary["KeyMetadata"]["KeyId"],
                                ReplicaRegion="eu-west-1", Policy=policy,
                                Tags=[{"TagKey": "of", "TagValue": "replica"}])
    key = replica["ReplicaKeyMetadata"]["KeyId"]
    assert replicas.list_resource_tags(KeyId=key)["Tags"] == [
        {"TagKey": "of", "TagValue": "replica"}]
    assert '"Sid": "replica"' in replicas.get_key_policy(KeyId=key,
                                                         PolicyName="default")["Policy"]
    external = kms.create_key(MultiRegion=True, Origin="EXTERNAL")["KeyMetadata"]["KeyId"]
    copied = kms.replicate_key(KeyId=external, ReplicaRegion="eu-west-1")
    assert copied["ReplicaKeyMetadata"]["KeyState"] == "PendingImport"
    assert replicas.describe_key(KeyId=external)["KeyMetadata"]["KeyState"] == "PendingImport"
