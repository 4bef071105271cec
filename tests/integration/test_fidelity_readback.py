"""Attributes stored but not returned, found by `make fidelity`'s read-back (issue 25):
each test cites the AWS documentation of what a resource reads back as, and runs against
the sandbox's real moto server (kit/sandbox/fidelity/)."""

from __future__ import annotations

import pytest

from kit import aws
from kit.run.sandbox import Sandbox


@pytest.fixture(scope="module")
def sandbox():  # noqa: ANN201
    with Sandbox(postgres=False, provider=False) as sb:
        yield sb


def test_an_oracle_instance_reads_back_its_nchar_character_set(sandbox: Sandbox) -> None:
    """AWS RDS API reference, CreateDBInstance, NcharCharacterSetName ("The name of the
    NCHAR character set for the Oracle DB instance") and DBInstance, NcharCharacterSetName:
    DescribeDBInstances returns what CreateDBInstance set. moto 5.2 dropped it, and
    rds/complete-oracle was replaced by the plan right after its apply."""
    rds = aws.client("rds", sandbox.moto.url)
    rds.create_db_instance(DBInstanceIdentifier="oracle-nchar", Engine="oracle-ee",
                           EngineVersion="19.0.0.0.ru-2024-01.rur-2024-01.r1",
                           DBInstanceClass="db.t3.large", MasterUsername="kit",
                           MasterUserPassword="s3cret-pw", AllocatedStorage=20,
                           LicenseModel="bring-your-own-license",
                           CharacterSetName="AL32UTF8", NcharCharacterSetName="AL16UTF16")
    found = rds.describe_db_instances(DBInstanceIdentifier="oracle-nchar")["DBInstances"][0]
    assert found.get("NcharCharacterSetName") == "AL16UTF16"
    assert found.get("CharacterSetName") == "AL32UTF8"
    plain = rds.create_db_instance(DBInstanceIdentifier="postgres-plain", Engine="postgres",
                                   DBInstanceClass="db.t3.micro", MasterUsername="kit",
                                   MasterUserPassword="s3cret-pw", AllocatedStorage=20)
    assert "NcharCharacterSetName" not in plain["DBInstance"]  # none given, none reported


def test_a_customer_gateway_reads_back_its_device_name_and_extended_asn(
        sandbox: Sandbox) -> None:
    """AWS EC2 API reference, CreateCustomerGateway (DeviceName; BgpAsnExtended, "Valid
    values: 2,147,483,648 to 4,294,967,295") and the CustomerGateway data type, which
    DescribeCustomerGateways returns with DeviceName and BgpAsnExtended. moto 5.2 dropped
    both, and vpc/complete replaced its gateways right after the apply."""
    ec2 = aws.client("ec2", sandbox.moto.url)
    named = ec2.create_customer_gateway(Type="ipsec.1", PublicIp="203.0.113.12",
                                        BgpAsn=65112, DeviceName="edge-1")["CustomerGateway"]
    extended = ec2.create_customer_gateway(Type="ipsec.1", PublicIp="203.0.113.13",
                                           BgpAsnExtended=2147483648)["CustomerGateway"]
    found = {g["CustomerGatewayId"]: g for g in ec2.describe_customer_gateways(
        CustomerGatewayIds=[named["CustomerGatewayId"], extended["CustomerGatewayId"]])[
        "CustomerGateways"]}
    assert found[named["CustomerGatewayId"]].get("DeviceName") == "edge-1"
    assert found[extended["CustomerGatewayId"]].get("BgpAsnExtended") == "2147483648"
    assert "DeviceName" not in found[extended["CustomerGatewayId"]]


def test_an_inventory_configuration_reads_back_as_put(sandbox: Sandbox) -> None:
    """AWS S3 API reference, PutBucketInventoryConfiguration and
    GetBucketInventoryConfiguration: the InventoryConfiguration read back is the one put,
    IncludedObjectVersions ("All" | "Current") and the destination's InventoryEncryption
    (SSE-S3, an empty element) included. moto 5.2 answered "All" and an empty Encryption,
    and s3-bucket/s3-inventory and s3-analytics did not read back."""
    s3 = aws.client("s3", sandbox.moto.url)
    for bucket in ("inventory-source", "inventory-target"):
        s3.create_bucket(Bucket=bucket)
    s3.put_bucket_inventory_configuration(
        Bucket="inventory-source", Id="daily", InventoryConfiguration={
            "Id": "daily", "IsEnabled": True, "IncludedObjectVersions": "Current",
            "Schedule": {"Frequency": "Daily"},
            "Destination": {"S3BucketDestination": {
                "Bucket": "arn:aws:s3:::inventory-target", "Format": "CSV",
                "Encryption": {"SSES3": {}}}}})
    found = s3.get_bucket_inventory_configuration(Bucket="inventory-source", Id="daily")[
        "InventoryConfiguration"]
    assert found["IncludedObjectVersions"] == "Current"
    assert found["Destination"]["S3BucketDestination"]["Encryption"] == {"SSES3": {}}


def test_a_redrive_policy_reads_back_as_compact_json(sandbox: Sandbox) -> None:
    """AWS SQS API reference, SetQueueAttributes / GetQueueAttributes, RedrivePolicy (a JSON
    object as a string): read back as Terraform's jsonencode sent it, without the blanks
    moto 5.2 added (sqs/complete planned a change to every redrive policy after its apply)."""
    sqs = aws.client("sqs", sandbox.moto.url)
    dlq = sqs.create_queue(QueueName="readback-dlq")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])[
        "Attributes"]["QueueArn"]
    queue = sqs.create_queue(QueueName="readback-source")["QueueUrl"]
    sent = f'{{"deadLetterTargetArn":"{arn}","maxReceiveCount":10}}'
    sqs.set_queue_attributes(QueueUrl=queue, Attributes={"RedrivePolicy": sent})
    read = sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["RedrivePolicy"])
    assert read["Attributes"]["RedrivePolicy"] == sent


def test_dhcp_options_read_back_the_tags_they_were_created_with(sandbox: Sandbox) -> None:
    """AWS EC2 API reference, CreateDhcpOptions, TagSpecification.N ("The tags to assign to
    the DHCP option"), and DescribeDhcpOptions, which returns them: moto 5.2 dropped them
    (vpc/complete planned its DHCP options' tags again after the apply)."""
    ec2 = aws.client("ec2", sandbox.moto.url)
    made = ec2.create_dhcp_options(
        DhcpConfigurations=[{"Key": "domain-name", "Values": ["service.consul"]}],
        TagSpecifications=[{"ResourceType": "dhcp-options",
                            "Tags": [{"Key": "Name", "Value": "ex-solution"}]}])["DhcpOptions"]
    found = ec2.describe_dhcp_options(DhcpOptionsIds=[made["DhcpOptionsId"]])["DhcpOptions"][0]
    assert found.get("Tags") == [{"Key": "Name", "Value": "ex-solution"}]
