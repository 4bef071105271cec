"""Issue 25, classes 1 and 8: a wire protocol moto did not speak, and a destroy path it lacked.

Class 1. Smithy 2.0, "RPC v2 CBOR protocol": a request is a POST to
/service/<ServiceShape>/operation/<Operation> with the header `smithy-protocol:
rpc-v2-cbor`, and every answer carries that header and a CBOR body. aws-sdk-go-v2's
CloudWatch client (AWS provider 6.48) speaks only this protocol; moto 5.2.5 serves
CloudWatch in AWS JSON 1.0 and query only and answered 404, so no CloudWatch resource
could be made. kit/sandbox/fidelity/rpcv2cbor.py translates. The CloudWatch API reference
(PutMetricAlarm, PutCompositeAlarm, DescribeAlarms, PutDashboard, GetDashboard,
DeleteAlarms, DeleteDashboards) says what each answer holds; PutMetricStream is a gap moto
keeps, refused as not implemented.

Class 8. IAM API reference, ListServiceSpecificCredentials: "If none exists, the operation
returns an empty list"; the provider calls it to destroy an aws_iam_user with
force_destroy.

Each through real Terraform and the sandbox's real moto (the deploy stage's Terraform with
the run's witness), or through boto3 told to speak RPC v2 CBOR to CloudWatch.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import boto3
import botocore.exceptions
import botocore.model
import pytest
import requests

from kit import aws, settings
from kit.run.sandbox import Sandbox
from kit.sandbox.fidelity import rpcv2cbor
from tests.integration.stack import stack

ALARMS = """
resource "aws_sns_topic" "alerts" { name = "alerts" }

resource "aws_cloudwatch_metric_alarm" "depth" {
  alarm_name          = "queue-depth"
  comparison_operator = "GreaterThanThreshold"
  evaluation_periods  = 2
  metric_name         = "ApproximateNumberOfMessagesVisible"
  namespace           = "AWS/SQS"
  period              = 60
  statistic           = "Average"
  threshold           = 80.5
  alarm_description   = "orders are piling up"
  alarm_actions       = [aws_sns_topic.alerts.arn]
  ok_actions          = [aws_sns_topic.alerts.arn]
  dimensions          = { QueueName = "orders" }
  tags                = { team = "orders" }
}

resource "aws_cloudwatch_metric_alarm" "ratio" {
  alarm_name          = "error-ratio"
  comparison_operator = "GreaterThanOrEqualToThreshold"
  evaluation_periods  = 3
  datapoints_to_alarm = 2
  threshold           = 5
  treat_missing_data  = "notBreaching"
  metric_query {
    id          = "ratio"
    expression  = "100 * errors / requests"
    label       = "Error rate"
    return_data = true
  }
  metric_query {
    id = "errors"
    metric {
      metric_name = "5XXError"
      namespace   = "AWS/ApiGateway"
      period      = 300
      stat        = "Sum"
      unit        = "Count"
      dimensions  = { ApiName = "orders" }
    }
  }
  metric_query {
    id = "requests"
    metric {
      metric_name = "Count"
      namespace   = "AWS/ApiGateway"
      period      = 300
      stat        = "Sum"
      dimensions  = { ApiName = "orders" }
    }
  }
}

resource "aws_cloudwatch_composite_alarm" "either" {
  alarm_name    = "either"
  alarm_rule = join(" OR ", [for a in [aws_cloudwatch_metric_alarm.depth,
    aws_cloudwatch_metric_alarm.ratio] : "ALARM(${a.alarm_name})"])
  alarm_actions = [aws_sns_topic.alerts.arn]
  tags          = { team = "orders" }
}

resource "aws_cloudwatch_dashboard" "orders" {
  dashboard_name = "orders"
  dashboard_body = jsonencode({
    widgets = [{
      type = "metric", x = 0, y = 0, width = 12, height = 6
      properties = {
        metrics = [["AWS/SQS", "ApproximateNumberOfMessagesVisible", "QueueName", "orders"]]
        period  = 300, stat = "Average", region = "us-east-1", title = "depth"
      }
    }]
  })
}
"""

USER = """
resource "aws_iam_user" "deployer" {
  name          = "deployer"
  force_destroy = true
}

resource "aws_iam_access_key" "deployer" { user = aws_iam_user.deployer.name }
"""


@pytest.fixture(scope="module")
def sandbox():  # noqa: ANN201
    with Sandbox(postgres=False, provider=True) as sb:
        yield sb


@pytest.fixture()
def cloudwatch(sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201
    """A boto3 CloudWatch client that speaks RPC v2 CBOR, as the provider's does: botocore
    prefers AWS JSON where a model lists both, so it is told to prefer CBOR."""
    sandbox.moto.reset()
    order = botocore.model.PRIORITY_ORDERED_SUPPORTED_PROTOCOLS
    preferred = ("smithy-rpc-v2-cbor", *(p for p in order if p != "smithy-rpc-v2-cbor"))
    monkeypatch.setattr(botocore.model, "PRIORITY_ORDERED_SUPPORTED_PROTOCOLS", preferred)
    client = boto3.session.Session().client(
        "cloudwatch", endpoint_url=sandbox.moto.url, region_name="us-east-1",
        aws_access_key_id="123456789012", aws_secret_access_key="test")
    assert client.meta.service_model.resolved_protocol == "smithy-rpc-v2-cbor"  # not vacuous
    return client


def test_cloudwatch_alarms_and_dashboards_apply_read_back_and_destroy(
        sandbox: Sandbox, tmp_path: Path) -> None:
    sandbox.moto.reset()
    tf = stack(sandbox, tmp_path, ALARMS, witnessed=True)
    mark = sandbox.moto.journal.mark()
    tf.apply()
    assert tf.pending_changes() == []  # read back as declared
    client = aws.client("cloudwatch", sandbox.moto.url)
    alarms = client.describe_alarms(AlarmNames=["queue-depth", "error-ratio", "either"])
    metric = {a["AlarmName"]: a for a in alarms["MetricAlarms"]}
    assert metric["queue-depth"]["Threshold"] == 80.5
    assert metric["queue-depth"]["Dimensions"] == [{"Name": "QueueName", "Value": "orders"}]
    assert sorted(q["Id"] for q in metric["error-ratio"]["Metrics"]) == ["errors", "ratio",
                                                                      "requests"]
    (composite,) = alarms["CompositeAlarms"]
    assert composite["AlarmRule"] == "ALARM(queue-depth) OR ALARM(error-ratio)"
    body = json.loads(client.get_dashboard(DashboardName="orders")["DashboardBody"])
    assert body["widgets"][0]["properties"]["title"] == "depth"
    tf.destroy()
    assert client.describe_alarms()["MetricAlarms"] == []
    assert client.describe_alarms()["CompositeAlarms"] == []
    assert client.list_dashboards()["DashboardEntries"] == []
    # Every CloudWatch answer was moto's own, journaled under its action.
    served = {a.action for a in sandbox.moto.journal.since(mark) if a.service == "cloudwatch"}
    assert {"PutMetricAlarm", "PutCompositeAlarm", "PutDashboard", "DeleteAlarms"} <= served


def test_boto3_in_cbor_gets_moto_s_answers_and_errors(cloudwatch) -> None:  # noqa: ANN001
    cloudwatch.put_metric_alarm(
        AlarmName="a", ComparisonOperator="LessThanThreshold", EvaluationPeriods=1,
        MetricName="m", Namespace="kit", Period=60, Statistic="Sum", Threshold=1)
    (alarm,) = cloudwatch.describe_alarms(AlarmNames=["a"])["MetricAlarms"]
    assert alarm["Threshold"] == 1.0 and alarm["EvaluationPeriods"] == 1
    assert alarm["StateUpdatedTimestamp"].tzinfo is not None  # a CBOR epoch timestamp
    # GetDashboard of a missing dashboard: ResourceNotFound (CloudWatch API reference).
    with pytest.raises(botocore.exceptions.ClientError) as missing:
        cloudwatch.get_dashboard(DashboardName="none")
    assert missing.value.response["Error"]["Code"] == "ResourceNotFound"


def test_a_cloudwatch_action_moto_lacks_is_refused_at_once_naming_it(
        cloudwatch) -> None:  # noqa: ANN001
    with pytest.raises(botocore.exceptions.ClientError) as refused:
        cloudwatch.put_metric_stream(
            Name="s", FirehoseArn="arn:aws:firehose:us-east-1:123456789012:deliverystream/x",
            RoleArn="arn:aws:iam::123456789012:role/r", OutputFormat="json")
    assert refused.value.response["Error"]["Code"] == "NotImplemented"
    assert "moto does not implement cloudwatch PutMetricStream" in str(refused.value)


def test_a_cbor_request_to_a_service_moto_serves_in_no_json_is_a_journaled_501(
        sandbox: Sandbox) -> None:
    mark = sandbox.moto.journal.mark()
    scope = "Credential=123456789012/20261201/us-east-1/s3/aws4_request"
    answer = requests.post(f"{sandbox.moto.url}/service/AmazonS3/operation/ListBuckets",
                           data=b"\xa0", timeout=10, headers={
                               "smithy-protocol": "rpc-v2-cbor",
                               "Content-Type": "application/cbor",
                               "Authorization": f"AWS4-HMAC-SHA256 {scope}, "
                                                "SignedHeaders=host, Signature=0"})
    assert answer.status_code == 501
    assert answer.headers["smithy-protocol"] == "rpc-v2-cbor"
    lines = [(a.service, a.action, a.status, a.code) for a in sandbox.moto.journal.since(mark)]
    assert ("s3", "ListBuckets", 501, "NotImplemented") in lines


def test_an_iam_user_with_force_destroy_applies_and_destroys(sandbox: Sandbox,
                                                             tmp_path: Path) -> None:
    sandbox.moto.reset()
    tf = stack(sandbox, tmp_path, USER, witnessed=True)
    mark = sandbox.moto.journal.mark()
    tf.apply()
    iam = aws.client("iam", sandbox.moto.url)
    assert iam.list_service_specific_credentials(UserName="deployer")[
        "ServiceSpecificCredentials"] == []
    with pytest.raises(botocore.exceptions.ClientError) as missing:
        iam.list_service_specific_credentials(UserName="nobody")
    assert missing.value.response["Error"]["Code"] == "NoSuchEntity"
    tf.destroy()  # lists the user's service-specific credentials before deleting it
    assert [u["UserName"] for u in iam.list_users()["Users"]] == []
    listed = [a.status for a in sandbox.moto.journal.since(mark)
              if a.action == "ListServiceSpecificCredentials"]
    assert listed and set(listed) <= {200, 404}  # the destroy's 200, the test's own 404


# The wire protocol of each aws-sdk-go-v2 client in the provider build (docs/fidelity.md,
# "Wire protocols"), by the Go package's name; Smithy's protocol names as botocore has them.
PROTOCOLS = {
    "smithy-rpc-v2-cbor": {"cloudwatch"},
    "json": {"acm", "applicationautoscaling", "cloudtrail", "cloudwatchlogs", "directoryservice",
             "dynamodb", "ecr", "ecs", "eventbridge", "firehose", "kinesis", "kms",
             "organizations", "redshiftserverless", "resourcegroupstaggingapi", "secretsmanager",
             "sfn", "sqs", "ssm"},
    "query": {"autoscaling", "cloudformation", "elasticache", "elasticloadbalancing",
              "elasticloadbalancingv2", "iam", "rds", "redshift", "sns", "sts"},
    "ec2": {"ec2"},
    "rest-json": {"account", "apigateway", "apigatewayv2", "backup", "lambda", "ram",
                  "scheduler"},
    "rest-xml": {"cloudfront", "route53", "s3", "s3control"},
}
_GO_PROTOCOL = {"awsAwsjson10": "json", "awsAwsjson11": "json", "awsAwsquery": "query",
                "awsEc2query": "ec2", "awsRestjson1": "rest-json", "awsRestxml": "rest-xml",
                "smithyRpcv2cbor": "smithy-rpc-v2-cbor"}
# Go package -> the service's name in botocore's models (and moto's), where they differ.
_BOTOCORE = {"applicationautoscaling": "application-autoscaling", "cloudwatchlogs": "logs",
             "directoryservice": "ds", "elasticloadbalancing": "elb",
             "elasticloadbalancingv2": "elbv2", "eventbridge": "events",
             "redshiftserverless": "redshift-serverless", "sfn": "stepfunctions"}
_SDK = "github.com/aws/aws-sdk-go-v2/service/"


def _build_protocols() -> dict[str, str]:
    """The protocol of every AWS SDK client the trimmed provider build gives its resources
    (internal/conns/awsclient_gen.go after the trim, kit/toolchain/provider_trim.py)."""
    build = settings.cache_dir() / "build" / "provider-aws"
    # The wrapper module's replace line names the (trimmed) source tree the binary is from.
    built = re.search(r"=> (\./src-\w+)", (build / "go.mod").read_text()) if (
        build / "go.mod").is_file() else None
    if built is None:
        pytest.fail("the provider build's source is missing: run `make setup`")
    source = build / built.group(1)
    clients = (source / "internal" / "conns" / "awsclient_gen.go").read_text()
    versions = dict(re.findall(rf"^\s*{re.escape(_SDK)}(\w+) (\S+)",
                               (source / "go.mod").read_text(), re.M))
    cache = Path(subprocess.run(["go", "env", "GOMODCACHE"], capture_output=True, text=True,
                                check=True).stdout.strip())
    found = {}
    for name in set(re.findall(rf'"{re.escape(_SDK)}(\w+)"', clients)):
        serializers = cache / f"{_SDK}{name}@{versions[name]}" / "serializers.go"
        prefix = re.search(r"^type (\w+?)_serializeOp", serializers.read_text(), re.M)
        found[name] = _GO_PROTOCOL[prefix.group(1)]
    return found


def test_every_sdk_client_of_the_provider_build_speaks_a_protocol_moto_answers() -> None:
    from moto.core.utils import get_service_model

    found = _build_protocols()
    assert {p: {n for n, q in found.items() if q == p} for p in PROTOCOLS} == PROTOCOLS
    for name, protocol in found.items():
        model = get_service_model(_BOTOCORE.get(name, name))
        protocols = model.metadata.get("protocols", [model.protocol])
        if protocol == "smithy-rpc-v2-cbor":  # moto reads none: the kit translates to JSON
            assert rpcv2cbor.json_model(model.service_name,
                                        model.metadata["targetPrefix"]) is not None, name
        else:
            assert protocol in protocols, (name, protocol, protocols)


def test_with_localstack_cloudwatch_is_served_by_moto_and_an_alarm_applies(
        tmp_path: Path) -> None:
    """LocalStack 4.13.1 answers the provider's CBOR DescribeAlarms with a 500 (its
    serializer fails on the alarm), retried until the apply's limit: the kit serves
    CloudWatch from moto when LocalStack is the primary emulator."""
    from kit.toolchain import localstack_install

    if localstack_install.python() is None:
        pytest.fail(f"LocalStack is not installed: run `{localstack_install.FIX}`")
    with Sandbox(postgres=False, provider=True, emulator="localstack") as sb:
        assert sb.routes.served_by(["cloudwatch", "sns"]) == {"cloudwatch": "moto",
                                                              "sns": "localstack"}
        tf = stack(sb, tmp_path, ALARMS, routed=True, witnessed=True)
        tf.apply()
        assert tf.pending_changes() == []
        alarms = aws.client("cloudwatch", sb.endpoint("cloudwatch")).describe_alarms()
        assert {a["AlarmName"] for a in alarms["MetricAlarms"]} == {"queue-depth", "error-ratio"}
        tf.destroy()
