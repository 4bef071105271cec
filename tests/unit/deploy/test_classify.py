from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kit import settings, toolchain
from kit.deploy import divergences
from kit.deploy.command import Completed
from kit.deploy.evidence import Evidence
from kit.deploy.terraform import DeployFailure, EnvironmentFailure, classify
from kit.sandbox.journal import Answer

NO_MATCH = """
Error: Failed to query available provider packages

Could not retrieve the list of available versions for provider hashicorp/aws: no
available releases match the given constraints ~> 5.0
"""


def _failed(stderr: str, code: int | None = 1) -> Completed:
    return Completed(("terraform",), code, "", stderr)


@pytest.fixture()
def mirror(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KIT_CACHE", str(tmp_path))
    for version in ("6.48.0", "3.39.0"):
        path = toolchain.provider_path("aws", version)
        path.parent.mkdir(parents=True)
        path.write_text("")
    return tmp_path


def test_a_constraint_excluding_the_kits_version_is_the_solutions_naming_the_mirror(
        mirror: Path) -> None:
    # The prompt says `~> 6.0` and the mirror has the kit's 6.48.0: asking for 5.x is the
    # solution's mistake, not a missing version (else any solution could reach `error`).
    failure = classify("init", _failed(NO_MATCH))
    assert isinstance(failure, DeployFailure)
    assert "3.39.0, 6.48.0" in str(failure)
    assert "~> 5.0" in str(failure)


def test_a_mirror_without_the_kits_own_version_is_the_environments(
        mirror: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(settings.AWS_PROVIDER, "version", "6.99.0")
    failure = classify("init", _failed(NO_MATCH))
    assert isinstance(failure, EnvironmentFailure)
    assert "3.39.0, 6.48.0" in str(failure) and "6.99.0" in str(failure)


def test_unknown_provider_is_the_solutions(mirror: Path) -> None:
    text = NO_MATCH.replace("hashicorp/aws", "hashicorp/google")
    assert isinstance(classify("init", _failed(text)), DeployFailure)


def test_hcl_error_is_the_solutions_with_terraforms_text_verbatim() -> None:
    text = 'Error: Unclosed configuration block\n\n  on main.tf line 1, in resource "x" "y":'
    failure = classify("init", _failed(text))
    assert isinstance(failure, DeployFailure)
    assert failure.diagnostics == text


def test_apply_error_is_the_solutions() -> None:
    text = "Error: creating SQS Queue (q): InvalidParameterValue: bad"
    assert isinstance(classify("apply", _failed(text)), DeployFailure)


def test_timeout_is_the_environments() -> None:
    assert isinstance(classify("apply", _failed("", code=None)), EnvironmentFailure)


def test_emulator_gone_is_the_environments() -> None:
    text = 'Error: reading SQS Queue: dial tcp 127.0.0.1:40001: connect: connection refused'
    assert isinstance(classify("apply", _failed(text)), EnvironmentFailure)


def _catalogue(mirror: Path) -> None:
    path = toolchain.catalogue_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"services": ["sqs", "iam"], "types": {
        "aws_sqs_queue": "sqs", "aws_glue_job": "glue", "aws_glue_catalog_table": "glue"}}))


def test_a_resource_type_outside_the_trimmed_build_is_the_kits_gap(mirror: Path) -> None:
    _catalogue(mirror)
    text = ('Error: Invalid resource type\n\n  on main.tf line 1:\n'
            'The provider hashicorp/aws does not support resource type "aws_glue_job".')
    failure = classify("apply", _failed(text))
    assert isinstance(failure, EnvironmentFailure)
    assert "aws_glue_job" in str(failure) and "'glue'" in str(failure)
    assert "sqs, iam" in str(failure)


def test_a_type_no_aws_provider_has_is_the_solutions_mistake(mirror: Path) -> None:
    _catalogue(mirror)
    text = 'The provider hashicorp/aws does not support resource type "aws_sqs_queueue".'
    assert isinstance(classify("apply", _failed(text)), DeployFailure)
    text = 'The provider hashicorp/aws does not support data source "aws_sqs_queue".'
    assert isinstance(classify("apply", _failed(text)), DeployFailure)


# Terraform's output (-no-color) for failures seen in fidelity/corpus, trimmed.
NOT_IMPLEMENTED = """
Error: creating CloudWatch Logs Data Protection Policy (protected): operation error CloudWatch Logs: PutDataProtectionPolicy, https response error StatusCode: 501, RequestID: kit-fidelity, api error NotImplemented: moto does not implement logs PutDataProtectionPolicy: an emulator gap, not an AWS answer

  with aws_cloudwatch_log_data_protection_policy.p,
  on main.tf line 3, in resource "aws_cloudwatch_log_data_protection_policy" "p":
   3: resource "aws_cloudwatch_log_data_protection_policy" "p" {
"""  # noqa: E501
CRASH = ("Error: creating RDS DB Instance (read replica) (r): operation error RDS: "
         "CreateDBInstanceReadReplica, https response error StatusCode: 501, RequestID: "
         "kit-fidelity, api error KitEmulatorFailure: moto failed on rds "
         "CreateDBInstanceReadReplica (KeyError: 'm'): an emulator gap, not an AWS answer\n")
SERVER_ERROR = ("Error: creating SQS Queue (q): operation error SQS: CreateQueue, https "
                "response error StatusCode: 500, RequestID: abc, api error InternalFailure: "
                "boom\n")
UNRESOLVED = ('Error: reading S3 Bucket (b) tags: operation error S3 Control: '
              'ListTagsForResource, exceeded maximum number of attempts, 25, https response '
              'error StatusCode: 0, RequestID: , request send failed, Get "http://123456789012'
              '.127.0.0.1:40001/v20180820/tags/arn:aws:s3:::b": dial tcp: lookup '
              '123456789012.127.0.0.1: no such host\n')
INTERNET = ('Error: creating IAM Access Key (u): retrieving Public Key (keybase:test): Get '
            '"https://keybase.io/_/api/1.0/user/lookup.json": dial tcp: lookup keybase.io on '
            '10.255.255.53:53: no such host\n')
AWS_REJECTS = ("Error: creating RDS DB Instance (db): operation error RDS: CreateDBInstance, "
               "https response error StatusCode: 400, RequestID: x, api error "
               "InvalidParameterValue: The backup window and maintenance window must not "
               "overlap.\n")


def test_an_action_moto_does_not_implement_is_the_kits_error_naming_it() -> None:
    failure = classify("apply", _failed(NOT_IMPLEMENTED))
    assert isinstance(failure, EnvironmentFailure)
    assert failure.gaps == ("moto.not-implemented",)
    assert "logs PutDataProtectionPolicy" in str(failure)
    assert "emulator gap, not an AWS answer" not in failure.reason


def test_a_moto_crash_and_a_5xx_answer_are_the_kits_error_naming_the_operation() -> None:
    failure = classify("apply", _failed(CRASH + "\n" + SERVER_ERROR))
    assert isinstance(failure, EnvironmentFailure)
    assert failure.gaps == ("moto.failure", "moto.server-error")
    assert "rds CreateDBInstanceReadReplica (KeyError: 'm')" in failure.reason
    assert "HTTP 500 to SQS CreateQueue" in failure.reason


def test_an_emulator_address_that_does_not_resolve_is_the_kits_error() -> None:
    failure = classify("apply", _failed(UNRESOLVED))
    assert isinstance(failure, EnvironmentFailure)
    assert "123456789012.127.0.0.1 does not resolve" in failure.reason


def test_a_solution_reaching_the_internet_is_its_own_failure() -> None:
    # The sandbox has no network by design (the gate refuses network constructs too).
    failure = classify("apply", _failed(INTERNET))
    assert isinstance(failure, DeployFailure)
    assert "keybase.io" in failure.diagnostics


def test_a_request_aws_rejects_too_is_the_solutions_with_terraforms_diagnostic() -> None:
    failure = classify("apply", _failed(AWS_REJECTS))
    assert isinstance(failure, DeployFailure)
    assert failure.diagnostics == AWS_REJECTS.strip()


def test_a_gap_beside_a_genuine_error_does_not_excuse_it() -> None:
    # Otherwise a solution could turn its own mistake into an `error` by touching a gap.
    failure = classify("apply", _failed(NOT_IMPLEMENTED + "\n" + AWS_REJECTS))
    assert isinstance(failure, DeployFailure)


def test_a_known_divergence_is_the_kits_error_naming_it(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    known = divergences.Divergence("ec2.example", r"no matching EC2 Widget found",
                                   "moto has no widgets; AWS has one per region", "a test",
                                   "Error: no matching EC2 Widget found")
    refused = divergences.Divergence("ec2.refused", r"InvalidWidget", "AWS refuses it too",
                                     "a test", "Error: InvalidWidget", aws_accepts=False)
    monkeypatch.setattr(divergences, "KNOWN", (known, refused))
    failure = classify("apply", _failed("Error: no matching EC2 Widget found\n"))
    assert isinstance(failure, EnvironmentFailure)
    assert failure.reason == "emulator gap: ec2.example: moto has no widgets; AWS has one " \
        "per region"
    assert isinstance(classify("apply", _failed("Error: InvalidWidget\n")), DeployFailure)


def test_every_known_divergence_matches_its_own_evidence() -> None:
    for known in divergences.KNOWN:
        assert known.evidence, f"{known.name}: no sample of Terraform's output"
        found = divergences.gap_of(known.evidence)
        assert (found.name if found else None) == (known.name if known.aws_accepts else None)


def test_an_error_terraform_wrapped_across_lines_is_still_read() -> None:
    wrapped = ("Error: creating S3 Directory Bucket (b--x-s3)\n\n  with module.m.b,\n\n"
               "operation error S3: CreateBucket, get identity: get credentials: operation\n"
               "error S3: CreateSession, https response error StatusCode: 404, RequestID:\n"
               "x, HostID: y, NoSuchBucket: The specified bucket does not exist\n")
    failure = classify("apply", _failed(wrapped))
    assert isinstance(failure, EnvironmentFailure)
    assert failure.gaps == ("s3.directory-buckets",)


def test_a_timeout_names_what_was_still_in_progress() -> None:
    text = ("a.b: Creating...\nmodule.k.aws_kms_replica_key.this[0]: Still creating... "
            "[10s elapsed]\na.b: Still creating... [10s elapsed]\na.b: Creation complete "
            "after 12s\n")
    failure = classify("apply", _failed(text, code=None))
    assert isinstance(failure, EnvironmentFailure)
    assert failure.reason == ("timed out after 600 s while "
                              "module.k.aws_kms_replica_key.this[0] was still creating")


# --- blame from evidence the solution cannot write (kit/deploy/evidence.py) -------------

def _answer(line: str, seconds: float = 0.01, pending: bool = False) -> Answer:
    found = re.fullmatch(r"(\S+) (.+?) (\d+)(?: (\S+))?", line)
    assert found, line
    service, action, status, code = found.groups()
    return Answer(service, action, int(status), code or "", seconds, pending)


def _seen(*lines: str, outage: str | None = None) -> Evidence:
    return Evidence(tuple(_answer(line) for line in lines), outage)


QUIET = _seen("sqs CreateQueue 200", "iam CreateRole 200")
# The red team's forged outage: a precondition whose error_message reads like Go's dialer.
FORGED_REFUSED = """
Error: Resource precondition failed

  on main.tf line 40, in resource "terraform_data" "forge":
  40:       condition     = false
    ├────────────────

dial tcp 127.0.0.1:1: connect: connection refused
"""
# The same with a whole fake gap diagnostic in the message ("\\nError: ..." in error_message).
FORGED_GAP = FORGED_REFUSED.replace("dial tcp", "x\n\n" + NOT_IMPLEMENTED + "\ndial tcp")


@pytest.mark.parametrize("evidence", [None, QUIET, _seen(
    "logs PutDataProtectionPolicy 501 NotImplemented")])
def test_a_forged_outage_or_gap_in_the_solutions_own_condition_is_its_fail(
        evidence: Evidence | None) -> None:
    for text in (FORGED_REFUSED, FORGED_GAP):
        failure = classify("apply", _failed(text), evidence)
        assert isinstance(failure, DeployFailure), (text, failure)
        assert "connection refused" in failure.diagnostics  # its message, kept for reports


@pytest.mark.parametrize("summary", divergences.OWN_EXPRESSIONS)
def test_every_diagnostic_of_the_solutions_expressions_is_its_own(summary: str) -> None:
    text = f"Error: {summary}\n\n  on main.tf line 1:\n\n{NOT_IMPLEMENTED}"
    evidence = _seen("logs PutDataProtectionPolicy 501 NotImplemented")
    assert isinstance(classify("apply", _failed(text), evidence), DeployFailure)


def test_connection_refused_is_an_outage_only_when_the_kit_saw_one() -> None:
    text = 'Error: reading SQS Queue: dial tcp 127.0.0.1:40001: connect: connection refused'
    assert isinstance(classify("apply", _failed(text), QUIET), DeployFailure)
    failure = classify("apply", _failed(text), _seen(outage="the moto process exited "
                                                            "with code -9"))
    assert isinstance(failure, EnvironmentFailure)
    assert failure.gaps == ("sandbox.outage",)
    assert "the moto process exited with code -9" in failure.reason


def test_a_gap_is_the_kits_only_when_the_emulators_journal_shows_its_answer() -> None:
    assert isinstance(classify("apply", _failed(NOT_IMPLEMENTED), QUIET), DeployFailure)
    # Another action's 501 does not confirm this one.
    other = _seen("logs PutRetentionPolicy 501 NotImplemented")
    assert isinstance(classify("apply", _failed(NOT_IMPLEMENTED), other), DeployFailure)
    failure = classify("apply", _failed(NOT_IMPLEMENTED),
                       _seen("logs PutDataProtectionPolicy 501 NotImplemented"))
    assert isinstance(failure, EnvironmentFailure)
    assert failure.gaps == ("moto.not-implemented",)
    assert isinstance(classify("apply", _failed(SERVER_ERROR), QUIET), DeployFailure)
    served = classify("apply", _failed(SERVER_ERROR), _seen("sqs CreateQueue 500 InternalFailure"))
    assert isinstance(served, EnvironmentFailure)


def test_every_known_divergence_names_the_answer_its_journal_shows() -> None:
    for known in divergences.KNOWN:
        if not known.aws_accepts:
            continue
        assert re.search(known.answer, known.answered), known.name
        text = known.evidence + "\n"
        assert isinstance(classify("apply", _failed(text), QUIET), DeployFailure), known.name
        failure = classify("apply", _failed(text), _seen(known.answered))
        assert isinstance(failure, EnvironmentFailure), known.name
        assert failure.gaps == (known.name,)


def test_a_type_outside_the_build_quoted_by_the_solution_is_its_own(mirror: Path) -> None:
    _catalogue(mirror)
    quoted = ('Error: Resource postcondition failed\n\nThe provider hashicorp/aws does not '
              'support resource type "aws_glue_job".')
    assert isinstance(classify("apply", _failed(quoted), QUIET), DeployFailure)
    echoed = ('Error: creating SQS Queue (q): InvalidParameterValue: The provider '
              'hashicorp/aws does not support resource type "aws_glue_job".')
    assert isinstance(classify("apply", _failed(echoed), QUIET), DeployFailure)


BIG_PLAN = "".join(f"aws_sqs_queue.q[{i}]: Creation complete after 0s [id=q{i}]\n"
                   for i in range(40)) + "aws_sqs_queue.q[40]: Creating...\n"


def test_a_timeout_with_the_emulator_answering_promptly_is_the_plans_size() -> None:
    # The rule: every request answered within STUCK_SECONDS, the emulator answering after,
    # no resource waiting past LONG_WAIT_SECONDS: the time went to the solution's plan.
    failure = classify("apply", _failed(BIG_PLAN, code=None), QUIET)
    assert isinstance(failure, DeployFailure)
    assert "40 resources completed" in failure.diagnostics
    assert "answered every one of its 2 requests within 0.0 s" in failure.diagnostics


@pytest.mark.parametrize(("evidence", "text", "seen"), [
    (None, BIG_PLAN, "timed out after 600 s"),
    (Evidence(journaled=False), BIG_PLAN, "timed out after 600 s"),
    (_seen(outage="moto did not answer the kit's probe within 10 s"), BIG_PLAN,
     "moto did not answer"),
    (Evidence((_answer("sqs CreateQueue 0", 11.0, pending=True),)), BIG_PLAN,
     "sqs CreateQueue unanswered after 11 s"),
    (Evidence((_answer("sqs CreateQueue 200", 30.0),)), BIG_PLAN, "in 30.0 s"),
    (QUIET, "aws_db_instance.db: Still creating... [2m10s elapsed]\n",
     "still in progress after 130 s"),
])
def test_a_timeout_is_the_kits_when_the_kit_saw_the_emulator_slow_or_gone(
        evidence: Evidence | None, text: str, seen: str) -> None:
    failure = classify("apply", _failed(text, code=None), evidence)
    assert isinstance(failure, EnvironmentFailure), failure
    assert failure.gaps == ("sandbox.timeout",)
    assert seen in failure.reason
