"""Each fidelity fix restores one AWS behaviour moto lacks (kit/sandbox/fidelity/).

Each test's docstring cites the AWS documentation of the behaviour; the tests run against
the sandbox's real moto server, and through real Terraform where the gap showed there.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import boto3
import botocore.exceptions
import pytest

from kit import aws
from kit.deploy.terraform import DeployFailure, Terraform
from kit.run.sandbox import Sandbox


@pytest.fixture(scope="module")
def sandbox():  # noqa: ANN201
    with Sandbox(postgres=False, provider=True) as sb:
        yield sb


@pytest.fixture(scope="module")
def sqs(sandbox: Sandbox):  # noqa: ANN201
    return aws.client("sqs", sandbox.moto.url)


def _regional(sandbox: Sandbox, service: str, region: str):  # noqa: ANN202
    """A boto3 client of the sandbox's moto in `region`."""
    return boto3.session.Session().client(
        service, endpoint_url=sandbox.moto.url, region_name=region,
        aws_access_key_id="test", aws_secret_access_key="test")


def _deploy(sandbox: Sandbox, tmp_path: Path, main_tf: str, **configure: object) -> Terraform:
    solution = tmp_path / "solution"
    solution.mkdir()
    (solution / "main.tf").write_text(main_tf)
    tf = Terraform(solution, tmp_path / "work", reattach=sandbox.provider.reattach,
                   provider_cwd=sandbox.provider.cwd)
    tf.configure(sandbox.moto.url, **configure)
    tf.init()
    tf.apply()
    return tf


# --- SQS ---------------------------------------------------------------------------------

def test_redrive_allow_policy_is_stored_and_read_back(sqs) -> None:  # noqa: ANN001
    """AWS SQS API reference, SetQueueAttributes / GetQueueAttributes: RedriveAllowPolicy
    is a queue attribute that is stored and returned."""
    url = sqs.create_queue(QueueName="dlq-allow")["QueueUrl"]
    policy = ('{"redrivePermission":"byQueue",'
              '"sourceQueueArns":["arn:aws:sqs:us-east-1:123456789012:src"]}')
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"RedriveAllowPolicy": policy})
    got = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    assert got["RedriveAllowPolicy"] == policy
    named = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["RedriveAllowPolicy"])
    assert named["Attributes"]["RedriveAllowPolicy"] == policy


def test_queue_without_redrive_allow_policy_does_not_report_one(sqs) -> None:  # noqa: ANN001
    url = sqs.create_queue(QueueName="plain")["QueueUrl"]
    got = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    assert "RedriveAllowPolicy" not in got


def test_setting_another_attribute_keeps_the_queue_policy(sqs) -> None:  # noqa: ANN001
    """AWS SQS API reference, SetQueueAttributes: it sets the attributes given; moto
    cleared the Policy whenever a request did not repeat it."""
    url = sqs.create_queue(QueueName="guarded")["QueueUrl"]
    policy = json.dumps({"Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": {"Service": "sns.amazonaws.com"},
        "Action": "sqs:SendMessage", "Resource": "*"}]})
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"Policy": policy})
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"VisibilityTimeout": "45"})
    got = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    assert json.loads(got["Policy"]) == json.loads(policy)
    assert got["VisibilityTimeout"] == "45"
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"Policy": ""})
    got = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    assert "Policy" not in got


@pytest.mark.parametrize(("document", "reason"), [
    ({"Version": "2012-10-17", "Statement": []}, "no statement"),
    ({"Version": "2012-10-17"}, "no statement"),
    ({"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "sqs:SendMessage",
                     "Resource": "*"}]}, "no Version"),
])
def test_a_queue_policy_aws_would_not_store_is_refused(sqs, document: dict,  # noqa: ANN001
                                                       reason: str) -> None:
    """AWS refuses a queue policy without a statement ("Invalid value for the parameter
    Policy.", cloud-custodian#1816) and never stores one without a Version, so an apply
    waits for it forever (the AWS provider's aws_sqs_queue_policy documentation,
    terraform-provider-aws#29497): refused at once, on set and on create, queue unchanged."""
    url = sqs.create_queue(QueueName="strict")["QueueUrl"]
    with pytest.raises(botocore.exceptions.ClientError) as refused:
        sqs.set_queue_attributes(QueueUrl=url, Attributes={
            "Policy": json.dumps(document), "VisibilityTimeout": "45"})
    error = refused.value.response["Error"]
    assert error["Code"] == "InvalidAttributeValue" and reason in error["Message"]
    got = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    assert "Policy" not in got and got["VisibilityTimeout"] == "30"
    with pytest.raises(botocore.exceptions.ClientError, match=reason):
        sqs.create_queue(QueueName="strict-too", Attributes={"Policy": json.dumps(document)})


def test_an_emptied_queue_policy_fails_the_apply_at_once(sandbox: Sandbox,
                                                         tmp_path: Path) -> None:
    """Through Terraform: a queue policy with no statement is the solution's failed apply,
    with the provider's diagnostic, not a wait (the provider retries AWS's wording of the
    refusal for 10 minutes, then fails: the kit words it so that it fails at once)."""
    with pytest.raises(DeployFailure, match="no statement"):
        _deploy(sandbox, tmp_path, """
resource "aws_sqs_queue" "q" { name = "emptied" }
resource "aws_sqs_queue_policy" "q" {
  queue_url = aws_sqs_queue.q.id
  policy    = jsonencode({ Version = "2012-10-17", Statement = [] })
}
""")


def test_released_message_does_not_jump_the_queue(sqs) -> None:  # noqa: ANN001
    """AWS SQS Developer Guide, "Amazon SQS standard queues": best-effort ordering; a
    released message is not handed back ahead of the messages already waiting (moto would
    return it first, forever)."""
    url = sqs.create_queue(QueueName="fair")["QueueUrl"]
    for body in ("first", "second", "third"):
        sqs.send_message(QueueUrl=url, MessageBody=body)
    got = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=1)["Messages"][0]
    assert got["Body"] == "first"
    sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=got["ReceiptHandle"],
                                  VisibilityTimeout=0)
    bodies = [sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=1)["Messages"][0]["Body"]
              for _ in range(3)]
    assert bodies == ["second", "third", "first"]


# --- unimplemented actions ------------------------------------------------------------

def test_an_action_moto_does_not_implement_is_refused_at_once_and_named(
        sandbox: Sandbox) -> None:
    """AWS answers an operation it does not support with a client error that SDKs do not
    retry (S3 API reference, "Error responses": 501 NotImplemented). moto answered HTTP 500,
    which the AWS SDKs retry, so an apply hung until its timeout."""
    logs = aws.client("logs", sandbox.moto.url)
    logs.create_log_group(logGroupName="protected")
    started = time.monotonic()
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        logs.put_data_protection_policy(logGroupIdentifier="protected", policyDocument="{}")
    assert time.monotonic() - started < 5
    error = caught.value.response
    assert error["ResponseMetadata"]["HTTPStatusCode"] == 501
    assert error["Error"]["Code"] == "NotImplemented"
    assert "logs PutDataProtectionPolicy" in error["Error"]["Message"]


@pytest.mark.parametrize(("service", "operation", "action"), [
    ("rds", "describe_db_recommendations", "rds DescribeDBRecommendations"),  # query
    ("ec2", "create_ipam", "ec2 CreateIpam"),  # ec2
    ("iam", "list_organizations_features", "iam ListOrganizationsFeatures"),  # query, global
])
def test_the_refusal_reads_in_every_aws_protocol(sandbox: Sandbox, service: str,
                                                 operation: str, action: str) -> None:
    """The SDK of each AWS protocol finds the code and the message in the answer."""
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        getattr(aws.client(service, sandbox.moto.url), operation)()
    assert caught.value.response["Error"]["Code"] == "NotImplemented"
    assert action in caught.value.response["Error"]["Message"]


# --- IAM -------------------------------------------------------------------------------

@pytest.mark.parametrize("arn", [
    "arn:aws:iam::aws:policy/ReadOnlyAccess",
    "arn:aws:iam::aws:policy/service-role/AmazonRDSEnhancedMonitoringRole",
])
def test_aws_managed_policies_exist_and_attach(sandbox: Sandbox, arn: str) -> None:
    """AWS IAM User Guide, "AWS managed policies": created and administered by AWS, they
    exist in every account and can be attached to its roles."""
    iam = aws.client("iam", sandbox.moto.url)
    assert iam.get_policy(PolicyArn=arn)["Policy"]["Arn"] == arn
    role = arn.rsplit("/", 1)[1][:40]
    iam.create_role(RoleName=role, AssumeRolePolicyDocument=json.dumps({
        "Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "sts:AssumeRole",
                                                "Principal": {"Service": "rds.amazonaws.com"}}]}))
    iam.attach_role_policy(RoleName=role, PolicyArn=arn)
    attached = iam.list_attached_role_policies(RoleName=role)["AttachedPolicies"]
    assert [p["PolicyArn"] for p in attached] == [arn]


def test_managed_policies_survive_a_reset_which_stays_cheap(sandbox: Sandbox) -> None:
    """A reset between runs brings the AWS managed policies back, and a customer policy
    created before it is gone."""
    iam = aws.client("iam", sandbox.moto.url)
    iam.create_policy(PolicyName="mine", PolicyDocument=json.dumps({
        "Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:ListAllMyBuckets",
                                                "Resource": "*"}]}))
    started = time.perf_counter()
    sandbox.moto.reset()
    iam.get_policy(PolicyArn="arn:aws:iam::aws:policy/ReadOnlyAccess")
    # Measured ~0.05 s (reset and the first IAM call); loading moto's catalogue as moto
    # does takes ~3 s. The bound is loose for a loaded machine.
    assert time.perf_counter() - started < 1.5
    local = iam.list_policies(Scope="Local")["Policies"]
    assert local == []


# --- RDS -------------------------------------------------------------------------------

def _db(rds, name: str, **extra: object) -> dict:  # noqa: ANN001
    return rds.create_db_instance(
        DBInstanceIdentifier=name, Engine="postgres", DBInstanceClass="db.t3.micro",
        MasterUsername="kit", MasterUserPassword="kit-password-1", AllocatedStorage=20,
        **extra)["DBInstance"]


def test_touching_backup_and_maintenance_windows_are_accepted(sandbox: Sandbox) -> None:
    """AWS RDS API reference, CreateDBInstance: PreferredBackupWindow "must not conflict
    with the preferred maintenance window"; windows that only touch share no time. AWS
    accepts terraform-aws-modules/rds's defaults 03:00-06:00 and Mon:00:00-Mon:03:00."""
    rds = aws.client("rds", sandbox.moto.url)
    db = _db(rds, "touching", PreferredBackupWindow="03:00-06:00",
             PreferredMaintenanceWindow="Mon:00:00-Mon:03:00")
    assert db["PreferredBackupWindow"] == "03:00-06:00"
    db = _db(rds, "touching-after", PreferredBackupWindow="23:00-01:00",
             PreferredMaintenanceWindow="Tue:01:00-Tue:02:00")
    assert db["PreferredMaintenanceWindow"] == "tue:01:00-tue:02:00"


def test_overlapping_windows_are_still_refused(sandbox: Sandbox) -> None:
    """The same constraint: windows that share time are refused, as AWS refuses them."""
    rds = aws.client("rds", sandbox.moto.url)
    with pytest.raises(botocore.exceptions.ClientError, match="must not overlap"):
        _db(rds, "overlapping", PreferredBackupWindow="03:00-06:00",
            PreferredMaintenanceWindow="Mon:05:00-Mon:07:00")


def test_every_db_instance_and_replica_has_its_own_resource_id(sandbox: Sandbox) -> None:
    """AWS RDS API reference, DBInstance: DbiResourceId is "the AWS Region-unique,
    immutable identifier for the DB instance"."""
    rds = aws.client("rds", sandbox.moto.url)
    first = _db(rds, "first")["DbiResourceId"]
    second = _db(rds, "second")["DbiResourceId"]
    replica = rds.create_db_instance_read_replica(
        DBInstanceIdentifier="first-replica",
        SourceDBInstanceIdentifier="first")["DBInstance"]["DbiResourceId"]
    assert len({first, second, replica}) == 3
    assert all(x.startswith("db-") and len(x) == 29 for x in (first, second, replica))
    found = rds.describe_db_instances(Filters=[{"Name": "dbi-resource-id",
                                                "Values": [replica]}])["DBInstances"]
    assert [d["DBInstanceIdentifier"] for d in found] == ["first-replica"]


def test_a_new_instance_needs_a_password_unless_rds_or_its_cluster_keeps_one(
        sandbox: Sandbox) -> None:
    """AWS RDS API reference, CreateDBInstance: MasterUserPassword "Can't be specified if
    ManageMasterUserPassword is turned on" and "doesn't apply to Amazon Aurora DB
    instances. The password for the master user is managed by the DB cluster"; with
    neither, AWS answers InvalidParameterValue "The parameter MasterUserPassword must be
    provided and must not be blank". Restores and read replicas take the source's."""
    rds = aws.client("rds", sandbox.moto.url)
    bare = {"Engine": "postgres", "DBInstanceClass": "db.t3.micro", "MasterUsername": "kit",
            "AllocatedStorage": 20}
    for refused in ({}, {"ManageMasterUserPassword": False}, {"MasterUserPassword": ""}):
        with pytest.raises(botocore.exceptions.ClientError) as caught:
            rds.create_db_instance(DBInstanceIdentifier="no-password", **bare, **refused)
        assert caught.value.response["Error"]["Code"] == "InvalidParameterValue"
        assert "MasterUserPassword must be provided" in str(caught.value)
    managed = rds.create_db_instance(DBInstanceIdentifier="managed-password", **bare,
                                     ManageMasterUserPassword=True)["DBInstance"]
    assert managed["MasterUserSecret"]["SecretArn"]
    rds.create_db_snapshot(DBInstanceIdentifier="managed-password",
                           DBSnapshotIdentifier="managed-snap")
    rds.restore_db_instance_from_db_snapshot(DBInstanceIdentifier="from-snap",
                                             DBSnapshotIdentifier="managed-snap")
    rds.create_db_instance_read_replica(DBInstanceIdentifier="managed-replica",
                                        SourceDBInstanceIdentifier="managed-password")
    rds.create_db_cluster(DBClusterIdentifier="keeps-password", Engine="aurora-postgresql",
                          MasterUsername="kit", ManageMasterUserPassword=True)
    member = rds.create_db_instance(DBInstanceIdentifier="cluster-member",
                                    DBClusterIdentifier="keeps-password",
                                    Engine="aurora-postgresql",
                                    DBInstanceClass="db.r6g.large")["DBInstance"]
    assert member["DBClusterIdentifier"] == "keeps-password"


# --- KMS -------------------------------------------------------------------------------

def test_replica_key_takes_the_primary_arn_and_its_own_policy(sandbox: Sandbox) -> None:
    """AWS KMS API reference, ReplicateKey: KeyId is "the key ID or key ARN of the
    multi-Region primary key"; Policy, Description and Tags are the replica's own."""
    kms = aws.client("kms", sandbox.moto.url)
    primary = kms.create_key(MultiRegion=True, Description="primary")["KeyMetadata"]
    policy = json.dumps({"Version": "2012-10-17", "Statement": [{
        "Sid": "replica", "Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "kms:*",
        "Resource": "*"}]})
    reply = kms.replicate_key(KeyId=primary["Arn"], ReplicaRegion="eu-west-1",
                              Policy=policy, Description="replica",
                              Tags=[{"TagKey": "side", "TagValue": "replica"}])
    assert json.loads(reply["ReplicaPolicy"]) == json.loads(policy)
    replica = _regional(sandbox, "kms", "eu-west-1")
    key_id = reply["ReplicaKeyMetadata"]["KeyId"]
    assert json.loads(replica.get_key_policy(KeyId=key_id, PolicyName="default")["Policy"]) \
        == json.loads(policy)
    assert replica.describe_key(KeyId=key_id)["KeyMetadata"]["Description"] == "replica"
    assert replica.list_resource_tags(KeyId=key_id)["Tags"] == [
        {"TagKey": "side", "TagValue": "replica"}]
    assert kms.describe_key(KeyId=primary["KeyId"])["KeyMetadata"]["Description"] == "primary"


def test_the_read_back_plan_runs_confined_as_the_apply_does(sandbox: Sandbox,
                                                            tmp_path: Path) -> None:
    """`pending_changes` plans the solution's configuration, which may read any file
    Terraform can: it runs as the deploy user in the apply's view, not as root on the
    host (a root-only file stays unread)."""
    tf = _deploy(sandbox, tmp_path, 'resource "aws_sqs_queue" "q" { name = "kit-plan" }\n')
    secret = tmp_path / "root-only.txt"
    secret.write_text("root-only-canary")
    secret.chmod(0o600)
    (tf.root / "leak.tf").write_text(f'output "leak" {{ value = file("{secret}") }}\n')
    with pytest.raises(DeployFailure) as failed:
        tf.pending_changes()
    assert "root-only-canary" not in str(failed.value)


# --- S3 and S3 Control, through the provider ---------------------------------------------

def test_a_tagged_bucket_applies_reads_back_and_destroys(sandbox: Sandbox,
                                                          tmp_path: Path) -> None:
    """AWS S3 Control API reference, ListTagsForResource/TagResource: provider 6.x reads and
    writes a general purpose bucket's tags through S3 Control at
    <account-id>.s3-control.<region>.amazonaws.com; against the sandbox that is
    <account-id>.127.0.0.1:<port>, which no resolver knows (the kit's override routes it
    to moto through http_proxy)."""
    tf = _deploy(sandbox, tmp_path, """
resource "aws_s3_bucket" "b" {
  bucket = "kit-tagged"
  tags   = { team = "kit" }
}
output "arn" { value = aws_s3_bucket.b.arn }
""")
    s3 = aws.client("s3", sandbox.moto.url)
    assert s3.get_bucket_tagging(Bucket="kit-tagged")["TagSet"] == [
        {"Key": "team", "Value": "kit"}]
    assert tf.pending_changes() == []
    tf.destroy()
    assert "kit-tagged" not in [b["Name"] for b in s3.list_buckets()["Buckets"]]


# --- Regions, through the provider -------------------------------------------------------

REGIONS_TF = """
provider "aws" { region = "eu-west-1" }
provider "aws" {
  alias  = "same"
  region = "eu-west-1"
}
provider "aws" {
  alias  = "dr"
  region = "us-west-2"
}
provider "aws" {
  alias  = "kit"
  region = "us-east-1"
}
resource "aws_sqs_queue" "default" { name = "regions-default" }
resource "aws_sqs_queue" "same" {
  provider = aws.same
  name     = "regions-same"
}
resource "aws_sqs_queue" "dr" {
  provider = aws.dr
  name     = "regions-dr"
}
resource "aws_sqs_queue" "kit" {
  provider = aws.kit
  name     = "regions-kit"
}
"""


def _queues_by_region(sandbox: Sandbox, regions: tuple[str, ...]) -> dict[str, set[str]]:
    return {region: {url.rsplit("/", 1)[1] for url in _regional(sandbox, "sqs", region)
                     .list_queues(QueueNamePrefix="regions-").get("QueueUrls", [])}
            for region in regions}


def test_aliases_in_other_regions_stay_apart(sandbox: Sandbox, tmp_path: Path) -> None:
    """AWS General Reference, "AWS Regions": resources live in the Region the request is
    made to. The kit moves the default provider to its own region (us-east-1); an alias
    keeps its region, and shares one with the default exactly when it does in the
    solution (the solution's default region and the kit's trade places)."""
    sandbox.moto.reset()
    tf = _deploy(sandbox, tmp_path, REGIONS_TF)
    assert _queues_by_region(sandbox, ("us-east-1", "eu-west-1", "us-west-2")) == {
        "us-east-1": {"regions-default", "regions-same"},
        "eu-west-1": {"regions-kit"},
        "us-west-2": {"regions-dr"}}
    tf.destroy()


def test_with_region_none_every_provider_keeps_its_region(sandbox: Sandbox,
                                                          tmp_path: Path) -> None:
    sandbox.moto.reset()
    tf = _deploy(sandbox, tmp_path, REGIONS_TF, region=None)
    assert _queues_by_region(sandbox, ("us-east-1", "eu-west-1", "us-west-2")) == {
        "us-east-1": {"regions-kit"},
        "eu-west-1": {"regions-default", "regions-same"},
        "us-west-2": {"regions-dr"}}
    tf.destroy()


# --- EC2 -------------------------------------------------------------------------------

def _dual_stack_subnet(ec2) -> tuple[str, str]:  # noqa: ANN001
    vpc = ec2.create_vpc(CidrBlock="10.9.0.0/16", AmazonProvidedIpv6CidrBlock=True)["Vpc"]
    vpc = ec2.describe_vpcs(VpcIds=[vpc["VpcId"]])["Vpcs"][0]
    block = vpc["Ipv6CidrBlockAssociationSet"][0]["Ipv6CidrBlock"].replace("::/56", "::/64")
    subnet = ec2.create_subnet(VpcId=vpc["VpcId"], CidrBlock="10.9.1.0/24",
                               Ipv6CidrBlock=block)["Subnet"]
    return subnet["SubnetId"], vpc["VpcId"]


def test_subnets_filter_by_their_ipv6_association(sandbox: Sandbox) -> None:
    """AWS EC2 API reference, DescribeSubnets: filters
    ipv6-cidr-block-association.association-id, .ipv6-cidr-block and .state."""
    ec2 = aws.client("ec2", sandbox.moto.url)
    subnet_id, vpc_id = _dual_stack_subnet(ec2)
    association = ec2.describe_subnets(SubnetIds=[subnet_id])["Subnets"][0][
        "Ipv6CidrBlockAssociationSet"][0]
    # SubnetCidrBlockState.State is a word (moto put the whole structure there).
    assert association["Ipv6CidrBlockState"] == {"State": "associated"}
    # Within this test's VPC: the module's sandbox holds the dual-stack subnets of the
    # tests that ran before it on this worker (whatever order xdist gave them).
    mine = {"Name": "vpc-id", "Values": [vpc_id]}
    for name, value in (("association-id", association["AssociationId"]),
                        ("ipv6-cidr-block", association["Ipv6CidrBlock"]),
                        ("state", "associated")):
        found = ec2.describe_subnets(Filters=[{
            "Name": f"ipv6-cidr-block-association.{name}", "Values": [value]},
            mine])["Subnets"]
        assert [s["SubnetId"] for s in found] == [subnet_id], name
    assert ec2.describe_subnets(Filters=[{
        "Name": "ipv6-cidr-block-association.association-id",
        "Values": ["subnet-cidr-assoc-none"]}])["Subnets"] == []


def test_dns64_and_hostname_options_are_stored(sandbox: Sandbox) -> None:
    """AWS EC2 API reference, ModifySubnetAttribute: EnableDns64,
    EnableResourceNameDnsAAAARecordOnLaunch, PrivateDnsHostnameTypeOnLaunch; Subnet:
    EnableDns64 reads back (false until set)."""
    ec2 = aws.client("ec2", sandbox.moto.url)
    subnet_id, _ = _dual_stack_subnet(ec2)
    assert ec2.describe_subnets(SubnetIds=[subnet_id])["Subnets"][0]["EnableDns64"] is False
    ec2.modify_subnet_attribute(SubnetId=subnet_id, EnableDns64={"Value": True})
    ec2.modify_subnet_attribute(SubnetId=subnet_id,
                                EnableResourceNameDnsAAAARecordOnLaunch={"Value": True})
    ec2.modify_subnet_attribute(SubnetId=subnet_id, PrivateDnsHostnameTypeOnLaunch="resource-name")
    subnet = ec2.describe_subnets(SubnetIds=[subnet_id])["Subnets"][0]
    assert subnet["EnableDns64"] is True
    assert subnet["PrivateDnsNameOptionsOnLaunch"]["EnableResourceNameDnsAAAARecord"] is True
    assert subnet["PrivateDnsNameOptionsOnLaunch"]["HostnameType"] == "resource-name"


def test_an_ipv6_only_subnet_has_no_available_ipv4_addresses(sandbox: Sandbox) -> None:
    """AWS EC2 API reference, Subnet: AvailableIpAddressCount is "the number of unused
    private IPv4 addresses in the subnet" (an Integer)."""
    ec2 = aws.client("ec2", sandbox.moto.url)
    _, vpc_id = _dual_stack_subnet(ec2)
    block = ec2.describe_vpcs(VpcIds=[vpc_id])["Vpcs"][0]["Ipv6CidrBlockAssociationSet"][0][
        "Ipv6CidrBlock"].replace("00::/56", "01::/64")
    subnet = ec2.create_subnet(VpcId=vpc_id, Ipv6CidrBlock=block, Ipv6Native=True)["Subnet"]
    assert subnet["AvailableIpAddressCount"] == 0


# --- ElastiCache, SNS ---------------------------------------------------------------------

def test_a_cache_subnet_group_can_be_deleted(sandbox: Sandbox) -> None:
    """AWS ElastiCache API reference, DeleteCacheSubnetGroup: deletes the group;
    CacheSubnetGroupNotFoundFault when there is none."""
    ec2 = aws.client("ec2", sandbox.moto.url)
    subnet_id, _ = _dual_stack_subnet(ec2)
    cache = aws.client("elasticache", sandbox.moto.url)
    cache.create_cache_subnet_group(CacheSubnetGroupName="cache", SubnetIds=[subnet_id],
                                    CacheSubnetGroupDescription="kit")
    cache.delete_cache_subnet_group(CacheSubnetGroupName="cache")
    assert cache.describe_cache_subnet_groups()["CacheSubnetGroups"] == []
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        cache.delete_cache_subnet_group(CacheSubnetGroupName="cache")
    assert caught.value.response["Error"]["Code"] == "CacheSubnetGroupNotFoundFault"


def test_a_topic_keeps_its_data_protection_policy(sandbox: Sandbox) -> None:
    """AWS SNS API reference, PutDataProtectionPolicy / GetDataProtectionPolicy: the
    topic's policy document, returned as set."""
    sns = aws.client("sns", sandbox.moto.url)
    arn = sns.create_topic(Name="protected")["TopicArn"]
    assert sns.get_data_protection_policy(ResourceArn=arn)["DataProtectionPolicy"] == ""
    policy = json.dumps({"Name": "p", "Version": "2021-06-01", "Statement": []})
    sns.put_data_protection_policy(ResourceArn=arn, DataProtectionPolicy=policy)
    assert sns.get_data_protection_policy(ResourceArn=arn)["DataProtectionPolicy"] == policy


def test_bucket_configurations_are_kept_by_id(sandbox: Sandbox) -> None:
    """AWS S3 API reference, Put/Get/Delete/ListBucketAnalyticsConfiguration (and the
    Metrics and Intelligent-Tiering ones): kept per id, NoSuchConfiguration once deleted.
    moto answered the PUT with CreateBucket and deleted the bucket on the DELETE."""
    s3 = _regional(sandbox, "s3", "eu-west-1")
    s3.create_bucket(Bucket="kit-analytics",
                     CreateBucketConfiguration={"LocationConstraint": "eu-west-1"})
    config = {"Id": "docs", "Filter": {"Prefix": "documents/"},
              "StorageClassAnalysis": {}}
    s3.put_bucket_analytics_configuration(Bucket="kit-analytics", Id="docs",
                                          AnalyticsConfiguration=config)
    got = s3.get_bucket_analytics_configuration(Bucket="kit-analytics", Id="docs")
    assert got["AnalyticsConfiguration"]["Filter"] == {"Prefix": "documents/"}
    listed = s3.list_bucket_analytics_configurations(Bucket="kit-analytics")
    assert [c["Id"] for c in listed["AnalyticsConfigurationList"]] == ["docs"]
    s3.put_bucket_metrics_configuration(Bucket="kit-analytics", Id="all",
                                        MetricsConfiguration={"Id": "all"})
    assert s3.get_bucket_metrics_configuration(
        Bucket="kit-analytics", Id="all")["MetricsConfiguration"]["Id"] == "all"
    inventory = {"Id": "weekly", "IsEnabled": True, "IncludedObjectVersions": "Current",
                 "Schedule": {"Frequency": "Weekly"}, "Destination": {"S3BucketDestination": {
                     "Bucket": "arn:aws:s3:::kit-analytics", "Format": "CSV"}}}
    s3.put_bucket_inventory_configuration(Bucket="kit-analytics", Id="weekly",
                                          InventoryConfiguration=inventory)
    s3.delete_bucket_inventory_configuration(Bucket="kit-analytics", Id="weekly")
    assert s3.list_bucket_inventory_configurations(Bucket="kit-analytics").get(
        "InventoryConfigurationList", []) == []
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        s3.get_bucket_inventory_configuration(Bucket="kit-analytics", Id="weekly")
    assert caught.value.response["Error"]["Code"] == "NoSuchConfiguration"
    s3.delete_bucket_analytics_configuration(Bucket="kit-analytics", Id="docs")
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        s3.get_bucket_analytics_configuration(Bucket="kit-analytics", Id="docs")
    assert caught.value.response["Error"]["Code"] == "NoSuchConfiguration"
    assert "kit-analytics" in [b["Name"] for b in s3.list_buckets()["Buckets"]]


def test_request_payment_is_stored_and_defaults_to_the_owner(sandbox: Sandbox) -> None:
    """AWS S3 API reference, PutBucketRequestPayment / GetBucketRequestPayment: Payer is
    BucketOwner until set to Requester."""
    s3 = _regional(sandbox, "s3", "eu-west-1")
    s3.create_bucket(Bucket="kit-payer",
                     CreateBucketConfiguration={"LocationConstraint": "eu-west-1"})
    assert s3.get_bucket_request_payment(Bucket="kit-payer")["Payer"] == "BucketOwner"
    s3.put_bucket_request_payment(Bucket="kit-payer",
                                  RequestPaymentConfiguration={"Payer": "Requester"})
    assert s3.get_bucket_request_payment(Bucket="kit-payer")["Payer"] == "Requester"


def test_a_bucket_subresource_moto_lacks_is_refused_not_misread(sandbox: Sandbox) -> None:
    """A DELETE of an unserved subresource must not delete the bucket (moto's fallback)."""
    s3 = aws.client("s3", sandbox.moto.url)
    s3.create_bucket(Bucket="kit-metadata")
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        s3.delete_bucket_metadata_table_configuration(Bucket="kit-metadata")
    assert caught.value.response["Error"]["Code"] == "NotImplemented"
    assert "kit-metadata" in [b["Name"] for b in s3.list_buckets()["Buckets"]]


def test_object_lock_configures_a_bucket_that_holds_objects(sandbox: Sandbox) -> None:
    """AWS S3 API reference, PutObjectLockConfiguration: Object Lock can be enabled "for
    new or existing buckets"; the default retention applies to new objects."""
    s3 = aws.client("s3", sandbox.moto.url)
    s3.create_bucket(Bucket="kit-locked", ObjectLockEnabledForBucket=True)
    s3.put_object(Bucket="kit-locked", Key="early", Body=b"x")
    s3.put_object_lock_configuration(Bucket="kit-locked", ObjectLockConfiguration={
        "ObjectLockEnabled": "Enabled",
        "Rule": {"DefaultRetention": {"Mode": "GOVERNANCE", "Days": 1}}})
    rule = s3.get_object_lock_configuration(Bucket="kit-locked")["ObjectLockConfiguration"]
    retention = rule["Rule"]["DefaultRetention"]
    assert (retention["Mode"], retention["Days"]) == ("GOVERNANCE", 1)


def test_flow_logs_differing_in_configuration_are_not_duplicates(sandbox: Sandbox) -> None:
    """AWS EC2 API reference, CreateFlowLogs: FlowLogAlreadyExists is for "an existing
    flow log with the same configuration and log destination"; DestinationOptions are part
    of the flow log (FlowLog data type)."""
    ec2 = aws.client("ec2", sandbox.moto.url)
    aws.client("s3", sandbox.moto.url).create_bucket(Bucket="kit-flow-logs")
    _, vpc_id = _dual_stack_subnet(ec2)
    common = {"ResourceIds": [vpc_id], "ResourceType": "VPC", "TrafficType": "ALL",
              "LogDestinationType": "s3", "LogDestination": "arn:aws:s3:::kit-flow-logs"}
    ec2.create_flow_logs(**common)
    parquet = {"FileFormat": "parquet", "HiveCompatiblePartitions": False,
               "PerHourPartition": True}
    created = ec2.create_flow_logs(**common, DestinationOptions=parquet)["FlowLogIds"]
    assert len(created) == 1
    read = ec2.describe_flow_logs(FlowLogIds=created)["FlowLogs"][0]
    assert read["DestinationOptions"] == parquet
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        ec2.create_flow_logs(**common)
    assert caught.value.response["Error"]["Code"] == "FlowLogAlreadyExists"


def test_a_cross_region_replica_takes_its_regions_default_group_and_deletes(
        sandbox: Sandbox) -> None:
    """AWS RDS API reference, CreateDBInstanceReadReplica, DBParameterGroupName: without
    one a cross-Region read replica gets "the default DBParameterGroup for the specified
    DB engine"; DeleteDBInstance of the replica leaves the primary without it."""
    source = _regional(sandbox, "rds", "eu-west-1")
    source.create_db_parameter_group(DBParameterGroupName="primary-only",
                                     DBParameterGroupFamily="postgres17", Description="kit")
    primary = _db(source, "cross-primary", EngineVersion="17.2", BackupRetentionPeriod=1,
                  DBParameterGroupName="primary-only")
    replicas = _regional(sandbox, "rds", "eu-central-1")
    replica = replicas.create_db_instance_read_replica(
        DBInstanceIdentifier="cross-replica",
        SourceDBInstanceIdentifier=primary["DBInstanceArn"])["DBInstance"]
    assert [g["DBParameterGroupName"] for g in replica["DBParameterGroups"]] == [
        "default.postgres17"]
    replicas.delete_db_instance(DBInstanceIdentifier="cross-replica", SkipFinalSnapshot=True)
    left = source.describe_db_instances(DBInstanceIdentifier="cross-primary")["DBInstances"]
    assert left[0]["ReadReplicaDBInstanceIdentifiers"] == []


def test_automated_backups_replicate_to_another_region(sandbox: Sandbox) -> None:
    """AWS RDS API reference, StartDBInstanceAutomatedBackupsReplication: called in the
    destination Region; the source lists the replication in
    DBInstanceAutomatedBackupsReplications until StopDBInstanceAutomatedBackupsReplication."""
    source = _regional(sandbox, "rds", "eu-west-1")
    primary = _db(source, "backed-up", BackupRetentionPeriod=7)
    destination = _regional(sandbox, "rds", "eu-central-1")
    backup = destination.start_db_instance_automated_backups_replication(
        SourceDBInstanceArn=primary["DBInstanceArn"], BackupRetentionPeriod=3)[
        "DBInstanceAutomatedBackup"]
    assert (backup["Status"], backup["BackupRetentionPeriod"]) == ("replicating", 3)
    arn = backup["DBInstanceAutomatedBackupsArn"]
    assert arn.startswith("arn:aws:rds:eu-central-1:")
    found = destination.describe_db_instance_automated_backups(
        DBInstanceAutomatedBackupsArn=arn)["DBInstanceAutomatedBackups"]
    assert [b["DBInstanceArn"] for b in found] == [primary["DBInstanceArn"]]
    listed = source.describe_db_instances(DBInstanceIdentifier="backed-up")["DBInstances"][0]
    assert listed["DBInstanceAutomatedBackupsReplications"] == [
        {"DBInstanceAutomatedBackupsArn": arn}]
    destination.stop_db_instance_automated_backups_replication(
        SourceDBInstanceArn=primary["DBInstanceArn"])
    listed = source.describe_db_instances(DBInstanceIdentifier="backed-up")["DBInstances"][0]
    assert listed.get("DBInstanceAutomatedBackupsReplications", []) == []


def test_lifecycle_size_filters_and_minimum_size_read_back(sandbox: Sandbox) -> None:
    """AWS S3 API reference, PutBucketLifecycleConfiguration: filters by
    ObjectSizeGreaterThan/ObjectSizeLessThan (alone or under And), and the
    x-amz-transition-default-minimum-object-size the configuration was put with."""
    s3 = aws.client("s3", sandbox.moto.url)
    s3.create_bucket(Bucket="kit-lifecycle")
    rules = [
        {"ID": "sized", "Status": "Enabled",
         "Filter": {"And": {"Prefix": "logs/", "ObjectSizeGreaterThan": 200000,
                            "ObjectSizeLessThan": 500000,
                            "Tags": [{"Key": "team", "Value": "kit"}]}},
         "Expiration": {"Days": 30}},
        {"ID": "large", "Status": "Enabled", "Filter": {"ObjectSizeGreaterThan": 1000},
         "Expiration": {"Days": 10}},
    ]
    s3.put_bucket_lifecycle_configuration(
        Bucket="kit-lifecycle", LifecycleConfiguration={"Rules": rules},
        TransitionDefaultMinimumObjectSize="varies_by_storage_class")
    got = s3.get_bucket_lifecycle_configuration(Bucket="kit-lifecycle")
    assert got["TransitionDefaultMinimumObjectSize"] == "varies_by_storage_class"
    by_id = {rule["ID"]: rule["Filter"] for rule in got["Rules"]}
    assert by_id["sized"]["And"]["ObjectSizeGreaterThan"] == 200000
    assert by_id["sized"]["And"]["ObjectSizeLessThan"] == 500000
    assert by_id["large"] == {"ObjectSizeGreaterThan": 1000}


# --- Secrets Manager ---------------------------------------------------------------------

def test_a_rotation_schedule_is_kept_and_managed_rotation_cancels(sandbox: Sandbox) -> None:
    """AWS Secrets Manager API reference, RotateSecret / RotationRulesType: a schedule is
    a ScheduleExpression with an optional Duration, and DescribeSecret reports it with
    RotationEnabled; User Guide, "Managed rotation": rotation without a Lambda function,
    which CancelRotateSecret turns off (terraform-aws-modules/rds destroys it on AWS)."""
    sm = aws.client("secretsmanager", sandbox.moto.url)
    arn = sm.create_secret(Name="rds!db-kit", SecretString="s3cret")["ARN"]
    sm.rotate_secret(SecretId=arn, RotationRules={"ScheduleExpression": "rate(15 days)",
                                                  "Duration": "2h"},
                     RotateImmediately=False)
    described = sm.describe_secret(SecretId=arn)
    assert described["RotationEnabled"] is True
    assert described["RotationRules"] == {"ScheduleExpression": "rate(15 days)",
                                          "Duration": "2h"}
    sm.cancel_rotate_secret(SecretId=arn)
    assert sm.describe_secret(SecretId=arn)["RotationEnabled"] is False


def test_rotation_with_a_function_starts_with_an_empty_pending_version(
        sandbox: Sandbox) -> None:
    """AWS Secrets Manager API reference, RotateSecret: a rotation starts with the
    ClientRequestToken's version labelled AWSPENDING, empty until the function's
    createSecret puts its value ("When rotation is unsuccessful, the AWSPENDING staging
    label might be attached to an empty secret version"); AWSCURRENT moves only in the
    function's finishSecret (User Guide, "Lambda rotation functions"). DescribeSecret:
    RotationEnabled and RotationLambdaARN. (moto runs the function in Docker and moves
    AWSCURRENT itself.)"""
    import io
    import zipfile

    code = io.BytesIO()
    with zipfile.ZipFile(code, "w") as archive:
        archive.writestr("handler.py", "def handle(event, context):\n    return None\n")
    role = aws.client("iam", sandbox.moto.url).create_role(
        RoleName="rotator", AssumeRolePolicyDocument=json.dumps({
                "Version": "2012-10-17", "Statement": [{
                    "Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"},
                    "Action": "sts:AssumeRole"}]}))["Role"]["Arn"]
    function = aws.client("lambda", sandbox.moto.url).create_function(
        FunctionName="rotator", Runtime="python3.11", Role=role, Handler="handler.handle",
        Code={"ZipFile": code.getvalue()})["FunctionArn"]
    sm = aws.client("secretsmanager", sandbox.moto.url)
    arn = sm.create_secret(Name="app-credentials", SecretString="v1")["ARN"]
    first = sm.describe_secret(SecretId=arn)["VersionIdsToStages"]
    token = "00000000-0000-4000-8000-000000000001"
    sm.rotate_secret(SecretId=arn, RotationLambdaARN=function, ClientRequestToken=token,
                     RotationRules={"AutomaticallyAfterDays": 30})
    described = sm.describe_secret(SecretId=arn)
    assert (described["RotationEnabled"], described["RotationLambdaARN"]) == (True, function)
    assert described["VersionIdsToStages"] == {**first, token: ["AWSPENDING"]}
    assert sm.get_secret_value(SecretId=arn)["SecretString"] == "v1"
    with pytest.raises(botocore.exceptions.ClientError, match="ResourceNotFound"):
        sm.get_secret_value(SecretId=arn, VersionId=token, VersionStage="AWSPENDING")
    with pytest.raises(botocore.exceptions.ClientError, match="ResourceNotFound"):
        sm.rotate_secret(SecretId=arn, RotationLambdaARN=function + "-gone")


def test_moving_awscurrent_moves_the_value_read_without_a_version(sandbox: Sandbox) -> None:
    """AWS Secrets Manager API reference, GetSecretValue: without VersionStage or VersionId
    "Secrets Manager defaults to AWSCURRENT"; UpdateSecretVersionStage moves AWSCURRENT (and
    AWSPREVIOUS follows the version it left)."""
    sm = aws.client("secretsmanager", sandbox.moto.url)
    arn = sm.create_secret(Name="moved-label", SecretString="old")["ARN"]
    old = sm.get_secret_value(SecretId=arn)["VersionId"]
    new = sm.put_secret_value(SecretId=arn, SecretString="new",
                              VersionStages=["AWSPENDING"])["VersionId"]
    assert sm.get_secret_value(SecretId=arn)["SecretString"] == "old"
    sm.update_secret_version_stage(SecretId=arn, VersionStage="AWSCURRENT",
                                   MoveToVersionId=new, RemoveFromVersionId=old)
    got = sm.get_secret_value(SecretId=arn)
    assert (got["VersionId"], got["SecretString"]) == (new, "new")
    assert sm.get_secret_value(SecretId=arn, VersionStage="AWSPREVIOUS")["SecretString"] == "old"


def test_performance_insights_settings_read_back(sandbox: Sandbox) -> None:
    """AWS RDS API reference, CreateDBInstance: EnablePerformanceInsights and
    PerformanceInsightsRetentionPeriod (default 7 days); DBInstance reports them as
    PerformanceInsightsEnabled and PerformanceInsightsRetentionPeriod."""
    rds = aws.client("rds", sandbox.moto.url)
    db = _db(rds, "insightful", EnablePerformanceInsights=True)
    assert (db["PerformanceInsightsEnabled"], db["PerformanceInsightsRetentionPeriod"]) == (
        True, 7)
    rds.modify_db_instance(DBInstanceIdentifier="insightful",
                           PerformanceInsightsRetentionPeriod=31, ApplyImmediately=True)
    db = rds.describe_db_instances(DBInstanceIdentifier="insightful")["DBInstances"][0]
    assert db["PerformanceInsightsRetentionPeriod"] == 31
    assert _db(rds, "plain")["PerformanceInsightsEnabled"] is False
    rds.modify_db_instance(DBInstanceIdentifier="plain", EnablePerformanceInsights=True,
                           ApplyImmediately=True)
    db = rds.describe_db_instances(DBInstanceIdentifier="plain")["DBInstances"][0]
    assert (db["PerformanceInsightsEnabled"], db["PerformanceInsightsRetentionPeriod"]) == (
        True, 7)


def test_a_snapshot_of_an_instance_or_cluster_with_performance_insights_restores(
        sandbox: Sandbox) -> None:
    """AWS RDS API reference, RestoreDBInstanceFromDBSnapshot and
    RestoreDBClusterFromSnapshot restore any snapshot; moto 5.2.6 refused one whose source
    had Performance Insights (InvalidParameterCombination, "EnablePerformanceInsights must
    be set"): the rds-recovery drill's restore of such a design was the kit's `error`."""
    rds = aws.client("rds", sandbox.moto.url)
    _db(rds, "watched", EnablePerformanceInsights=True)
    rds.create_db_snapshot(DBInstanceIdentifier="watched", DBSnapshotIdentifier="watched-s")
    rds.restore_db_instance_from_db_snapshot(DBInstanceIdentifier="watched-r",
                                             DBSnapshotIdentifier="watched-s")
    rds.create_db_cluster(DBClusterIdentifier="watched-c", Engine="aurora-postgresql",
                          MasterUsername="kit", MasterUserPassword="kit-password-1",
                          EnablePerformanceInsights=True)
    rds.modify_db_cluster(DBClusterIdentifier="watched-c", ApplyImmediately=True,
                          PerformanceInsightsRetentionPeriod=62)
    got = rds.describe_db_clusters(DBClusterIdentifier="watched-c")["DBClusters"][0]
    assert (got["PerformanceInsightsEnabled"], got["PerformanceInsightsRetentionPeriod"]) == (
        True, 62)
    rds.create_db_cluster_snapshot(DBClusterIdentifier="watched-c",
                                   DBClusterSnapshotIdentifier="watched-cs")
    rds.restore_db_cluster_from_snapshot(DBClusterIdentifier="watched-cr",
                                         SnapshotIdentifier="watched-cs",
                                         Engine="aurora-postgresql")


def test_a_conditional_bucket_policy_deny_does_not_deny_when_its_condition_fails(
        sandbox: Sandbox) -> None:
    # AWS: a Deny applies only when its Condition holds; over HTTPS (every SDK call),
    # `aws:SecureTransport = false` does not hold. moto ignored the condition (403).
    s3 = aws.client("s3", sandbox.moto.url)
    s3.create_bucket(Bucket="tls-only")
    s3.put_bucket_policy(Bucket="tls-only", Policy=json.dumps({
        "Version": "2012-10-17", "Statement": [{
            "Sid": "DenyInsecureTransport", "Effect": "Deny", "Principal": "*",
            "Action": "s3:*", "Resource": ["arn:aws:s3:::tls-only",
                                           "arn:aws:s3:::tls-only/*"],
            "Condition": {"Bool": {"aws:SecureTransport": "false"}}}]}))
    s3.put_object(Bucket="tls-only", Key="k", Body=b"x")
    assert s3.get_object(Bucket="tls-only", Key="k")["Body"].read() == b"x"


@pytest.mark.parametrize("resource", ["*", "arn:aws:s3:::elsewhere/*",
                                      ["arn:aws:s3:::mine", "arn:aws:s3:::other"]])
def test_a_bucket_policy_naming_other_resources_is_refused(sandbox: Sandbox,
                                                           resource: object) -> None:
    """AWS answers PutBucketPolicy with MalformedPolicy, "Policy has invalid resource",
    when a statement's Resource is `*` or another bucket (the statement can govern only
    this bucket and its objects); moto stored it."""
    s3 = aws.client("s3", sandbox.moto.url)
    s3.create_bucket(Bucket="mine")

    def policy(res: object) -> str:
        return json.dumps({"Version": "2012-10-17", "Statement": [{
            "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::123456789012:root"},
            "Action": "s3:GetObject", "Resource": res}]})

    with pytest.raises(botocore.exceptions.ClientError) as refused:
        s3.put_bucket_policy(Bucket="mine", Policy=policy(resource))
    assert refused.value.response["Error"]["Code"] == "MalformedPolicy"
    s3.put_bucket_policy(Bucket="mine", Policy=policy(["arn:aws:s3:::mine",
                                                      "arn:aws:s3:::mine/results/*",
                                                      "arn:aws:s3:::mi*/*"]))
    assert "mine/results" in s3.get_bucket_policy(Bucket="mine")["Policy"]
