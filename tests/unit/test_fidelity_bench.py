"""The fidelity bench's pure parts: read-back of a plan, the score per source and emulator,
and the vendoring of the other sources (bench/fidelity_*.py)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from bench import fidelity, fidelity_readback, fidelity_report, fidelity_sources
from kit.deploy import divergences


def _change(address: str, kind: str, actions: list[str], before: dict, after: dict,
            mode: str = "managed") -> dict:
    return {"address": address, "type": kind, "mode": mode,
            "change": {"actions": actions, "before": before, "after": after,
                       "after_unknown": {}}}


# Shaped as `terraform show -json` of a plan right after an apply.
PLAN = {"resource_changes": [
    _change("aws_sqs_queue.a", "aws_sqs_queue", ["no-op"], {"name": "a"}, {"name": "a"}),
    _change("data.aws_iam_policy_document.p", "aws_iam_policy_document", ["read"], {}, {},
            mode="data"),
    _change("module.sns.aws_sns_topic.this[0]", "aws_sns_topic", ["update"],
            {"name": "t", "sqs_success_feedback_role_arn": None,
             "sqs_success_feedback_sample_rate": 0},
            {"name": "t", "sqs_success_feedback_role_arn": "arn:aws:iam::1:role/r",
             "sqs_success_feedback_sample_rate": 100}),
    _change("aws_sqs_queue.b", "aws_sqs_queue", ["update"],
            {"redrive_policy": ""}, {"redrive_policy": "{\"maxReceiveCount\":3}"}),
    _change("aws_customer_gateway.c", "aws_customer_gateway", ["delete", "create"],
            {"bgp_asn": "65000", "ip_address": "203.0.113.1"},
            {"bgp_asn": "65000", "ip_address": "203.0.113.2"}),
    {**_change("aws_db_instance.d", "aws_db_instance", ["delete", "create"],
               {"arn": "a", "engine_version": "19"}, {"arn": None, "engine_version": "19.0"}),
     "change": {"actions": ["delete", "create"], "before": {"arn": "a", "engine_version": "19"},
                "after": {"engine_version": "19.0"}, "after_unknown": {"arn": True},
                "replace_paths": [["engine_version"]]}},
]}


def test_read_back_ignores_no_ops_and_data_reads() -> None:
    changes = fidelity_readback.changes_of(PLAN)
    assert [c.address for c in changes] == ["module.sns.aws_sns_topic.this[0]",
                                            "aws_sqs_queue.b", "aws_customer_gateway.c",
                                            "aws_db_instance.d"]


def test_read_back_names_the_attributes_that_differ_and_the_known_divergence() -> None:
    topic, queue, gateway, instance = fidelity_readback.changes_of(PLAN)
    assert topic.attributes == ("sqs_success_feedback_role_arn",
                                "sqs_success_feedback_sample_rate")
    assert topic.divergence == "sns.feedback-attributes"
    assert (queue.action, queue.attributes, queue.divergence) == \
        ("update", ("redrive_policy",), None)
    assert (gateway.action, gateway.attributes) == ("replace", ("ip_address",))
    # A replacement: the attributes that force it, not the computed ones it renews.
    assert (instance.action, instance.attributes) == ("replace", ("engine_version",))


def test_only_changes_no_known_divergence_explains_fail_the_read_back() -> None:
    left = fidelity_readback.unexplained(fidelity_readback.changes_of(PLAN))
    assert [c.address for c in left] == ["aws_sqs_queue.b", "aws_customer_gateway.c",
                                         "aws_db_instance.d"]


@pytest.mark.parametrize(("kind", "action", "attributes", "known"), [
    ("aws_sns_topic", "update", ["lambda_failure_feedback_role_arn"], "sns.feedback-attributes"),
    # One attribute outside the divergence: the change is not explained.
    ("aws_sns_topic", "update", ["lambda_failure_feedback_role_arn", "policy"], None),
    ("aws_sns_topic", "replace", ["lambda_failure_feedback_role_arn"], None),
    ("aws_db_parameter_group", "update", ["parameter"], "rds.parameter-group-parameters"),
    ("aws_db_instance", "update", ["parameter"], None),
    ("aws_sns_topic", "update", [], None),
    ("aws_s3_bucket_replication_configuration", "update", ["rule"],
     "s3.replication-rule-filters"),
    ("aws_s3_bucket_replication_configuration", "update", ["rule", "role"], None),
    ("aws_vpc_endpoint", "update", ["dns_options", "subnet_configuration"],
     "ec2.vpc-endpoint-interfaces"),
    ("aws_vpc_endpoint", "update", ["policy"], None),
    ("aws_vpc_endpoint", "replace", ["dns_options"], "ec2.vpc-endpoint-interfaces"),
    # A replacement only where the divergence says its attributes force one.
    ("aws_customer_gateway", "replace", ["device_name"], "localstack.customer-gateway-settings"),
    ("aws_customer_gateway", "replace", ["ip_address"], None),
    ("aws_vpc_dhcp_options", "replace", ["tags"], None),
])
def test_read_back_gap(kind: str, action: str, attributes: list[str], known: str | None) -> None:
    assert divergences.read_back_gap(kind, action, attributes) == known


def test_a_replicas_divergence_explains_replicas_only() -> None:
    replica = {"replicate_source_db": "arn:aws:rds:eu-west-1:1:db:primary"}
    assert divergences.read_back_gap("aws_db_instance", "update", ["multi_az"], replica) == \
        "rds.read-replica-copies-its-source"
    assert divergences.read_back_gap("aws_db_instance", "update", ["multi_az"],
                                     {"replicate_source_db": None}) is None
    assert divergences.read_back_gap("aws_db_instance", "update", ["multi_az"]) is None


def _outcome(name: str, source: str, emulator: str, status: str, **more: object) -> dict:
    return {"name": name, "source": source, "emulator": emulator, "status": status,
            "stage": more.get("stage", ""), "blame": more.get("blame", ""),
            "cause": more.get("cause", ""), "read_back": more.get("read_back", []),
            "seconds": 1.0}


OUTCOMES = [
    _outcome("sqs/complete", "terraform-aws-modules", "moto", "passed"),
    _outcome("sns-topic/complete", "cloudposse", "moto", "passed",
             read_back=["sns.feedback-attributes"]),
    _outcome("learn-terraform-rds", "hashicorp", "moto", "failed", stage="apply",
             blame="fail", cause="Error: Unsupported argument"),
    _outcome("vpc/outpost", "terraform-aws-modules", "moto", "out of scope", cause="outposts"),
    _outcome("sqs/complete", "terraform-aws-modules", "localstack", "failed",
             stage="read-back", blame="read-back", cause="1 change"),
    _outcome("sns-topic/complete", "cloudposse", "localstack", "passed"),
    _outcome("learn-terraform-rds", "hashicorp", "localstack", "failed", stage="apply",
             blame="error", cause="emulator gap"),
    _outcome("vpc/outpost", "terraform-aws-modules", "localstack", "out of scope",
             cause="outposts"),
]


def test_the_score_counts_in_scope_examples_per_source_and_emulator() -> None:
    table = fidelity_report.scores(OUTCOMES, ["aws-samples/serverless-patterns"])
    assert "| cloudposse | 1 | 1/1 | 1/1 |" in table
    assert "| terraform-aws-modules | 2 | 1/1 | 0/1 |" in table
    assert "| **all** | 4 | **2/3** | **1/3** |" in table
    assert "Not vendored on this checkout" in table
    assert "aws-samples/serverless-patterns" in table


def test_the_example_table_has_a_column_per_emulator() -> None:
    table = fidelity_report.examples_table(OUTCOMES)
    assert "| example | source | moto | LocalStack | seconds |" in table
    assert ("| sns-topic/complete | cloudposse | passed (read back with known divergences: "
            "sns.feedback-attributes) | passed | 1.0 / 1.0 |") in table
    assert "failed: read-back at read-back: 1 change" in table


def test_remaining_lists_each_failure_with_its_blame_and_emulator() -> None:
    text = fidelity_report.remaining(OUTCOMES)
    assert "- `learn-terraform-rds` on moto: `fail` at apply" in text
    assert "- `sqs/complete` on LocalStack: `read-back` at read-back" in text
    assert "vpc/outpost" not in text


def test_names_and_sources_of_examples(tmp_path: Path) -> None:
    corpus = tmp_path / "c"
    for where, repo in (("terraform-aws-sqs/examples/complete", "terraform-aws-modules/x"),
                        ("hashicorp+learn-terraform-rds", "hashicorp/learn-terraform-rds"),
                        ("aws-samples+serverless-patterns/sns-sqs-terraform", "aws-samples/s")):
        (corpus / where).mkdir(parents=True)
        (corpus / where / "SOURCE").write_text(f"repository: https://github.com/{repo}\n")
    assert fidelity.name_of(corpus / "terraform-aws-sqs/examples/complete") == "sqs/complete"
    assert fidelity.name_of(corpus / "hashicorp+learn-terraform-rds") == "learn-terraform-rds"
    example = corpus / "aws-samples+serverless-patterns/sns-sqs-terraform"
    assert fidelity.name_of(example) == "serverless-patterns/sns-sqs-terraform"
    assert fidelity.source_of(example) == "aws-samples"


def _repo(mirrors: Path, name: str, files: dict[str, str], tag: str | None = None) -> None:
    work = mirrors / "work" / name
    work.mkdir(parents=True)
    for path, text in files.items():
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_text(text)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(work)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True)
    if tag:
        subprocess.run([*git, "tag", tag], check=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(work),
                    str(mirrors / name.replace("/", "+") / "repo")], check=True)


def test_vendoring_rewrites_a_listed_registry_module_to_the_tag_and_keeps_the_rest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mirrors = tmp_path / "mirrors"
    _repo(mirrors, "cloudposse/terraform-aws-x", {
        "LICENSE": "Apache", "main.tf": 'resource "aws_sqs_queue" "q" {}\n',
        "examples/complete/main.tf": 'module "x" {\n  source = "../../"\n}\n'
        'module "this" {\n  source  = "cloudposse/label/null"\n  version = "0.25.0"\n}\n'
        'module "far" {\n  source = "someone/else/aws"\n}\n',
        "examples/complete/fixtures.us-east-2.tfvars": 'region = "us-east-2"\n',
        "examples/complete/README.md": "docs", "test/x_test.go": "package x"})
    _repo(mirrors, "cloudposse/terraform-null-label",
          {"LICENSE": "Apache", "main.tf": 'locals {}\n'}, tag="0.25.0")
    monkeypatch.setattr(fidelity_sources, "VENDORED", tmp_path / "vendored")
    vendor = fidelity_sources.Vendor(mirrors)
    source = fidelity_sources.Source("cloudposse/terraform-aws-x", "HEAD", "Apache-2.0",
                                     ("examples/complete",))
    vendor.example(source, "examples/complete")
    vendor.write_trees()
    out = tmp_path / "vendored"
    example = out / "cloudposse+terraform-aws-x/examples/complete"
    text = (example / "main.tf").read_text()
    assert 'source  = "../../../cloudposse+terraform-null-label-0.25.0" # kit: was ' \
        '"cloudposse/label/null" version "0.25.0"' in text
    assert 'version = "0.25.0"' not in text
    assert 'source = "someone/else/aws"' in text  # not listed: left, so out of scope
    assert (out / "cloudposse+terraform-aws-x/main.tf").exists()  # reached by ../../
    assert (out / "cloudposse+terraform-null-label-0.25.0/main.tf").exists()
    assert (example / "kit.auto.tfvars").read_text() == 'region = "us-east-2"\n'
    assert not (example / "README.md").exists()
    assert not (out / "cloudposse+terraform-aws-x/test").exists()
    recorded = (example / "SOURCE").read_text()
    assert "repository: https://github.com/cloudposse/terraform-aws-x" in recorded
    assert "copied to kit.auto.tfvars" in recorded


def test_merged_runs_keep_the_latest_outcome_of_each_example_and_emulator(
        tmp_path: Path) -> None:
    first = tmp_path / "moto.json"  # a whole run's list
    first.write_text(json.dumps([OUTCOMES[0], OUTCOMES[2]]))
    again = tmp_path / "again.jsonl"  # a later run of one example, as JSON lines
    rerun = {**OUTCOMES[2], "status": "passed", "blame": "", "stage": ""}
    again.write_text(json.dumps(rerun) + "\n" + json.dumps(OUTCOMES[4]) + "\n")
    outcomes = fidelity.merged([first, again, tmp_path / "absent.jsonl"])
    assert [(o["emulator"], o["name"], o["status"]) for o in outcomes] == [
        ("moto", "learn-terraform-rds", "passed"), ("moto", "sqs/complete", "passed"),
        ("localstack", "sqs/complete", "failed")]


def test_an_emulator_that_ran_fewer_examples_is_said_so() -> None:
    table = fidelity_report.scores(OUTCOMES[:5], [])
    assert "LocalStack ran 1 of the 4 examples" in table
    assert "Not measured everywhere" not in fidelity_report.scores(OUTCOMES, [])


def test_a_host_the_example_reaches_is_out_of_scope_even_where_terraform_wraps_it() -> None:
    # iam/iam-oidc-provider's tls_certificate, as Terraform printed it (wrapped at 80).
    diagnostics = (
        "Error: Failed to identify fetch peer certificates\n\n  with module.github_oidc_"
        "iam_provider.data.tls_certificate.this[0],\n\nfailed to fetch certificates from "
        "URL 'https': Get\n\"https://token.actions.githubusercontent.com:443\": dial tcp: "
        "lookup\ntoken.actions.githubusercontent.com: no such host\n")
    outcome = fidelity.Outcome("iam/iam-oidc-provider", "passed")
    failure = fidelity.DeployFailure("apply", diagnostics)
    fidelity._failed(outcome, "apply", failure)
    assert (outcome.status, outcome.blame) == ("out of scope", "")
    assert outcome.cause == ("needs the internet: reached for "
                             "token.actions.githubusercontent.com at apply")
    local = diagnostics.replace("token.actions.githubusercontent.com", "sqs.127.0.0.1")
    fidelity._failed(outcome := fidelity.Outcome("x", "passed"), "apply",
                     fidelity.DeployFailure("apply", local))
    assert outcome.status == "failed"  # the emulator's own address: no internet needed


LOCK = '''# This file is maintained automatically by "terraform init".
provider "registry.terraform.io/hashicorp/aws" {
  version     = "3.32.0"
  constraints = ">= 2.70.0, >= 3.20.0"
  hashes = [
    "h1:tY5R3hRBB1v8v3MT+ofoCJ/Vz/b/4PXo3xtBKtw7T4A=",
  ]
}

provider "registry.terraform.io/hashicorp/random" {
  version     = "%s"
}
'''


def test_a_failure_on_other_provider_versions_than_the_stacks_lock_file_is_the_kits(
        tmp_path: Path) -> None:
    # learn-terraform-rds's lock file (aws 3.32.0): on 6.48 its vpc module's
    # enable_classiclink is an unsupported argument (removed in aws 5.0).
    random = fidelity.settings.RANDOM_PROVIDER["version"]
    (tmp_path / ".terraform.lock.hcl").write_text(LOCK % random)
    assert fidelity.locked_elsewhere(tmp_path) == [
        f"hashicorp/aws 3.32.0 (the mirror: {fidelity.settings.AWS_PROVIDER['version']})"]
    cause = "Error: Unsupported argument on main.tf line 36"
    outcome = fidelity.Outcome("learn-terraform-rds", "failed", blame="fail", cause=cause)
    fidelity._blame_the_lock(outcome, tmp_path)
    assert outcome.blame == "error"
    assert outcome.cause.startswith("provider versions: its .terraform.lock.hcl selects "
                                    "hashicorp/aws 3.32.0 (the mirror: ")
    assert outcome.cause.endswith(cause)
    # The mirror's own versions, or no lock file at all: the failure stays the example's.
    (tmp_path / ".terraform.lock.hcl").write_text(
        (LOCK % random).replace("3.32.0", fidelity.settings.AWS_PROVIDER["version"]))
    for where in (tmp_path, tmp_path / "absent"):
        kept = fidelity.Outcome("x", "failed", blame="fail", cause=cause)
        fidelity._blame_the_lock(kept, where)
        assert (kept.blame, kept.cause) == ("fail", cause)


def test_a_change_only_unknown_until_the_apply_follows_the_known_divergence_it_depends_on(
        ) -> None:
    # sns-topic/complete on LocalStack: the topic's feedback attributes do not read back,
    # so the policy documents built from the topic are unknown in the same plan.
    topic = PLAN["resource_changes"][2]
    policy = {**_change("aws_sns_topic_policy.p", "aws_sns_topic_policy", ["update"],
                        {"policy": "{}"}, {"policy": None})}
    policy["change"]["after_unknown"] = {"policy": True}
    changes = fidelity_readback.changes_of({"resource_changes": [topic, policy]})
    assert [c.derived for c in changes] == [False, True]
    assert fidelity_readback.unexplained(changes) == []
    # With an unexplained change beside it, the derived one is not explained either.
    queue = PLAN["resource_changes"][3]
    changes = fidelity_readback.changes_of({"resource_changes": [topic, policy, queue]})
    assert [c.address for c in fidelity_readback.unexplained(changes)] == [
        "aws_sns_topic_policy.p", "aws_sqs_queue.b"]
    # Alone, a derived change has nothing to follow from.
    alone = fidelity_readback.changes_of({"resource_changes": [policy]})
    assert [c.address for c in fidelity_readback.unexplained(alone)] == ["aws_sns_topic_policy.p"]
