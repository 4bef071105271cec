"""An answer not in the AWS SDK's wire protocol is the kit's `error` naming the gap (issue 25,
class 1), on the evidence of the emulator's journal, never on Terraform's text alone."""

from __future__ import annotations

from kit.deploy import divergences
from kit.deploy.command import Completed
from kit.deploy.evidence import Evidence
from kit.deploy.terraform import DeployFailure, EnvironmentFailure, classify
from kit.sandbox.journal import Answer

# Terraform's output verbatim (provider 6.48 on moto 5.2.5 before the kit answered CBOR):
# the issue quotes its last line.
WRONG_PROTOCOL = """
Error: creating CloudWatch Metric Alarm

  with aws_cloudwatch_metric_alarm.a,
  on main.tf line 2, in resource "aws_cloudwatch_metric_alarm" "a":
   2: resource "aws_cloudwatch_metric_alarm" "a" {

ID: queue-depth
Cause: operation error CloudWatch: PutMetricAlarm, , RequestID: ,
deserialization failed, unexpected smithy-protocol response header '' (HTTP
status: 404 NOT FOUND)"
"""
ISSUE_TEXT = ("deserialization failed, unexpected smithy-protocol response header '' "
              "(HTTP status: 404 NOT FOUND)")
# The same SDK's other parse failure, with the status part left empty as above.
UNPARSABLE = ("Error: reading CloudWatch Dashboard (d): operation error CloudWatch: "
              "GetDashboard, , RequestID: , deserialization failed, failed to decode response "
              "body, unexpected EOF\n")


def _failed(text: str) -> Completed:
    return Completed(("terraform",), 1, "", text)


def _journal(*lines: tuple[str, str, int, str]) -> Evidence:
    return Evidence(tuple(Answer(s, a, status, code, 0.01, False) for s, a, status, code in lines))


def test_the_issues_text_is_in_the_sample() -> None:
    assert ISSUE_TEXT in " ".join(WRONG_PROTOCOL.split())


def test_a_wrong_protocol_answer_is_the_kits_error_naming_the_service_and_protocol() -> None:
    failure = classify("apply", _failed(WRONG_PROTOCOL))  # no journal (LocalStack): the text
    assert isinstance(failure, EnvironmentFailure), failure
    assert failure.outcome == "error"
    assert failure.gaps == ("moto.wrong-protocol",)
    assert "CloudWatch PutMetricAlarm" in failure.reason
    assert "HTTP 404 NOT FOUND" in failure.reason and "rpc-v2-cbor" in failure.reason


def test_a_wrong_protocol_answer_is_the_kits_only_when_the_journal_shows_it() -> None:
    quiet = _journal(("sqs", "CreateQueue", 200, ""))
    assert isinstance(classify("apply", _failed(WRONG_PROTOCOL), quiet), DeployFailure)
    other = _journal(("cloudwatch", "DescribeAlarms", 404, ""))
    assert isinstance(classify("apply", _failed(WRONG_PROTOCOL), other), DeployFailure)
    for action in ("PutMetricAlarm",
                   "POST /service/GraniteServiceVersion20100801/operation/PutMetricAlarm"):
        seen = _journal(("cloudwatch", action, 404, ""))
        failure = classify("apply", _failed(WRONG_PROTOCOL), seen)
        assert isinstance(failure, EnvironmentFailure), action
        assert failure.gaps == ("moto.wrong-protocol",)


def test_an_unparsable_answer_without_a_status_part_is_still_read() -> None:
    gap = divergences.gap_of(UNPARSABLE)
    assert gap is not None and gap.name == "moto.unparsable-answer"
    assert "CloudWatch GetDashboard" in gap.detail
    failure = classify("apply", _failed(UNPARSABLE), _journal(
        ("cloudwatch", "GetDashboard", 200, "")))
    assert isinstance(failure, EnvironmentFailure)


def test_the_wrong_protocol_text_in_the_solutions_own_condition_is_its_fail() -> None:
    forged = ("Error: Resource precondition failed\n\n  on main.tf line 3:\n\n"
              + WRONG_PROTOCOL)
    seen = _journal(("cloudwatch", "PutMetricAlarm", 404, ""))
    assert isinstance(classify("apply", _failed(forged), seen), DeployFailure)
