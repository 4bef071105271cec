"""Known ways the emulator differs from AWS, and how a failed deploy's output shows them.

`classify` (kit/deploy/terraform.py) blames a failed deploy on the emulator only on
evidence: every error in Terraform's output must be an emulator gap, named here, and the
emulator's journal of the command's answers (kit/sandbox/journal.py, which the solution
cannot write) must show the answer each gap names (`Gap.answer`, `Divergence.answer`),
for the deploy to be the kit's `error`. The text only names the gap: a diagnostic of the
solution's own expressions (`OWN_EXPRESSIONS`: a precondition's error_message may read
like anything) makes the whole output the solution's. Any other error is Terraform's own
diagnostic and the solution's `fail`, so a solution cannot turn its own mistake into an
`error` (which drops the run from the reward) by also touching a gap.

Two kinds of evidence:
- general signs, which name the action: an action moto does not implement or fails on
  (kit/sandbox/fidelity/errors.py answers those with NotImplemented or
  KitEmulatorFailure), any other HTTP 5xx answer, an answer the AWS SDK cannot parse or
  that is not in its wire protocol (Smithy RPC v2 CBOR), an emulator address that does not
  resolve;
- `KNOWN`: specific refusals found by `make fidelity` (fidelity/corpus) or by the kit's
  tests, each with the request AWS accepts, the example that shows it and a sample of
  Terraform's output (checked against the pattern by tests/unit/deploy/test_classify.py). A
  known entry is matched first, so the gap gets its own name.

Divergences the kit has fixed are not listed (kit/sandbox/fidelity/ fixes them, each with
a test); when a fix lands, its entry goes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kit.deploy.evidence import UNWATCHED, Evidence
from kit.sandbox.fidelity.errors import EMULATOR_FAILURE, NOT_IMPLEMENTED


@dataclass(frozen=True)
class Divergence:
    """One known difference between moto and AWS."""

    name: str  # stable id: <service>.<what>
    pattern: str  # regex over one error of Terraform's output
    gap: str  # what moto does, and what AWS does instead
    seen_in: str  # where it shows (a corpus example or a test)
    evidence: str  # an error of Terraform's output that shows it (tested against pattern)
    # The emulator's answer that must be in its journal (kit/sandbox/journal.py) for the
    # gap to be the kit's: a regex over "service action status code", and a sample of it.
    answer: str = r"^$"
    answered: str = ""
    aws_accepts: bool = True  # False: AWS refuses it too, so it is no gap (documented only)


@dataclass(frozen=True)
class Gap:
    """The emulator gap one error of a failed deploy shows."""

    name: str
    detail: str
    # The journal line ("service action status code" regex) that confirms it; None for a
    # request that never reached the emulator (an address the provider could not resolve).
    answer: str | None = None

    def __str__(self) -> str:
        return f"{self.name}: {self.detail}"


KNOWN: tuple[Divergence, ...] = (
    Divergence(
        "kms.import-key-material",
        r"moto does not implement kms (GetParametersForImport|ImportKeyMaterial)",
        "moto cannot import key material into a KMS key with Origin EXTERNAL "
        "(GetParametersForImport, ImportKeyMaterial); AWS can (aws_kms_external_key with "
        "key_material_base64)",
        "kms/complete",
        "Error: reading KMS External Key (1933f36c) parameters for import: operation error "
        "KMS: GetParametersForImport, https response error StatusCode: 501, RequestID: , api "
        "error NotImplemented: moto does not implement kms GetParametersForImport: an "
        "emulator gap, not an AWS answer",
        r"^kms (GetParametersForImport|ImportKeyMaterial) 501 NotImplemented$",
        "kms GetParametersForImport 501 NotImplemented"),
    Divergence(
        "ds.directory-data-access",
        r"moto does not implement ds DescribeDirectoryDataAccess",
        "moto's Directory Service has no DescribeDirectoryDataAccess, which the provider "
        "reads for every aws_directory_service_directory; AWS has it",
        "rds/complete-mssql",
        "Error: reading directory data access: describing Directory Data Access for "
        "Directory Service Directory (d-e897b5e56e): operation error Directory Service: "
        "DescribeDirectoryDataAccess, https response error StatusCode: 501, RequestID: , api "
        "error NotImplemented: moto does not implement ds DescribeDirectoryDataAccess: an "
        "emulator gap, not an AWS answer",
        r"^ds DescribeDirectoryDataAccess 501 NotImplemented$",
        "ds DescribeDirectoryDataAccess 501 NotImplemented"),
    Divergence(
        "ec2.vpc-block-public-access",
        r"moto does not implement ec2 \w*VpcBlockPublicAccess\w*",
        "moto has no VPC Block Public Access (ModifyVpcBlockPublicAccessOptions, "
        "CreateVpcBlockPublicAccessExclusion, ...); AWS has",
        "vpc/block-public-access",
        "Error: creating VPC Block Public Access Options\n\n  with module.vpc.x,\n\n"
        "operation error EC2: ModifyVpcBlockPublicAccessOptions, https response error\n"
        "StatusCode: 501, RequestID: , api error NotImplemented: moto does not\nimplement "
        "ec2 ModifyVpcBlockPublicAccessOptions: an emulator gap, not an AWS\nanswer",
        r"^ec2 \w*VpcBlockPublicAccess\w* 501 NotImplemented$",
        "ec2 ModifyVpcBlockPublicAccessOptions 501 NotImplemented"),
    Divergence(
        "s3.directory-buckets",
        r"operation error S3: CreateSession, https response error StatusCode: 404",
        "moto has no S3 Express One Zone: a directory bucket's CreateSession answers "
        "NoSuchBucket; AWS creates directory buckets (aws_s3_directory_bucket)",
        "s3-bucket/directory-bucket",
        "Error: creating S3 Directory Bucket (b--euw1-az1--x-s3) operation error S3: "
        "CreateBucket, get identity: get credentials: operation error S3: CreateSession, "
        "https response error StatusCode: 404, RequestID: x, HostID: y, NoSuchBucket: The "
        "specified bucket does not exist",
        r"^s3 .* 404 NoSuchBucket$", "s3 GET / 404 NoSuchBucket"),
    Divergence(
        "s3.logging-target-permissions",
        r"api error InvalidTargetBucketForLogging: You must either provide the necessary "
        r"permissions",
        "moto refuses PutBucketLogging until the target bucket's policy or ACL already "
        "grants the logging service; terraform-aws-modules/s3-bucket's complete example "
        "attaches that policy in parallel with the logging configuration and applies on "
        "AWS",
        "s3-bucket/complete",
        "Error: creating S3 Bucket (s3-bucket-b) Logging: operation error S3: "
        "PutBucketLogging, https response error StatusCode: 400, RequestID: x, HostID: y, "
        "api error InvalidTargetBucketForLogging: You must either provide the necessary "
        "permissions to the logging service using a bucket policy or give the log-delivery "
        "group WRITE and READ_ACP permissions to the target bucket",
        r"^s3 .* 400 InvalidTargetBucketForLogging$",
        "s3 PUT /s3-bucket-b 400 InvalidTargetBucketForLogging"),
    Divergence(
        "localstack.flow-log-aggregation-interval",
        r"operation error EC2: CreateFlowLogs, .*api error InvalidParameter: Invalid Flow Log "
        r"Max Aggregation Interval",
        "LocalStack 4.13.1 re-sends a CreateFlowLogs with an S3 destination to its moto with "
        "MaxAggregationInterval as a number, which that moto compares with the strings "
        "'60' and '600', so every such flow log is refused; AWS accepts 60 or 600 (EC2 API "
        "reference, CreateFlowLogs, MaxAggregationInterval; the provider sends only those, "
        "its schema validates the value before any request)",
        "vpc/flow-log (--emulator localstack)",
        "Error: creating Flow Log (vpc-39d63c648a872ff05): operation error EC2: "
        "CreateFlowLogs, https response error StatusCode: 400, RequestID: "
        "9dafed32-0fc5-4200-a96a-ecccf7aa92f9, api error InvalidParameter: Invalid Flow Log "
        "Max Aggregation Interval",
        r"^ec2 CreateFlowLogs 400 InvalidParameter$", "ec2 CreateFlowLogs 400 InvalidParameter"),
)

# The detail ends at the kit's suffix (kit/sandbox/fidelity/errors.py) or where Terraform
# goes on with the resource's address.
_DETAIL = r"(?P<detail>.+?)(?=: an emulator gap, not an AWS answer| with |$)"
_NOT_IMPLEMENTED = re.compile(r"api error NotImplemented: " + _DETAIL)
_EMULATOR_FAILURE = re.compile(r"api error KitEmulatorFailure: " + _DETAIL)
_OPERATION = r"operation error (?P<service>[\w ]+): (?P<operation>\w+), "
_SERVER_ERROR = re.compile(_OPERATION + r"https response error StatusCode: (?P<status>5\d\d)")
# aws-sdk-go-v2 leaves the "https response error StatusCode: N" part empty when the answer
# failed its protocol check before its status was read (", , RequestID: , deserialization").
_UNPARSABLE = re.compile(_OPERATION + r"(?:https response error StatusCode: \d+)?, RequestID: "
                         r"[^,]*, deserialization failed")
# An answer not in the client's wire protocol: a Smithy RPC v2 CBOR client (CloudWatch's in
# provider 6.x) checks the smithy-protocol header before anything else.
_WRONG_PROTOCOL = re.compile(_OPERATION + r".*?deserialization failed, unexpected "
                             r"smithy-protocol response header '(?P<header>[^']*)' \(HTTP "
                             r"status: (?P<status>\d+)(?P<reason>[^)]*)\)")
# Hosts the AWS SDK derives from the sandbox's endpoint (S3 Control: <account>.<host>).
_UNRESOLVED = re.compile(r"lookup (?P<host>[\w.-]*(?:127\.0\.0\.1|localhost)|"
                         r"[\w.-]+\.amazonaws\.com)(?::\d+)?(?: on [\d.:]+)?: no such host")
_ERROR_START = re.compile(r"^Error: ", re.M)
_NAMED = re.compile(r"^moto (?:does not implement|failed on) (?P<service>\S+) (?P<action>\S+)")
NAME_OF_CODE = {"moto.not-implemented": NOT_IMPLEMENTED, "moto.failure": EMULATOR_FAILURE}
# Summaries Terraform gives a diagnostic of the solution's own expressions: their detail is
# the solution's text (error_message), so it may read like anything.
OWN_EXPRESSIONS = ("Resource precondition failed", "Resource postcondition failed",
                   "Check block assertion failed", "Invalid value for variable",
                   "Module output value precondition failed", "Output precondition failed",
                   "Postcondition failed", "Precondition failed")
_OWN = re.compile(r"^(?:Error|Warning): (" + "|".join(map(re.escape, OWN_EXPRESSIONS))
                  + r")\s*$", re.M)


def _general(error: str) -> Gap | None:
    for pattern, name in ((_NOT_IMPLEMENTED, "moto.not-implemented"),
                          (_EMULATOR_FAILURE, "moto.failure")):
        found = pattern.search(error)
        if found:
            detail = found.group("detail")[:300]
            named = _NAMED.search(detail)
            answer = (rf"^{re.escape(named['service'])} {re.escape(named['action'])}\b.* 501 "
                      rf"{NAME_OF_CODE[name]}$") if named else r"^\S+ .* 501 " + NAME_OF_CODE[name]
            return Gap(name, detail, answer)
    found = _SERVER_ERROR.search(error)
    if found:
        return Gap("moto.server-error", f"the emulator answered HTTP {found['status']} to "
                   f"{found['service']} {found['operation']}",
                   rf"^\S+ {found['operation']} {found['status']} ")
    found = _WRONG_PROTOCOL.search(error)
    if found:
        return Gap("moto.wrong-protocol", f"the emulator does not answer {found['service']} "
                   f"{found['operation']} in the AWS SDK's wire protocol: it answered HTTP "
                   f"{found['status']}{found['reason']} with smithy-protocol header "
                   f"'{found['header']}', not 'rpc-v2-cbor' (Smithy RPC v2 CBOR, the only "
                   f"protocol the provider's {found['service']} client speaks)",
                   # the journal names it by action, or by method and path if unrouted
                   rf"^\S+ (?:\w+ \S*/)?{found['operation']} {found['status']} ")
    found = _UNPARSABLE.search(error)
    if found:
        return Gap("moto.unparsable-answer", f"the AWS SDK cannot parse the emulator's answer "
                   f"to {found['service']} {found['operation']}",
                   rf"^\S+ {found['operation']} \d+ ")
    found = _UNRESOLVED.search(error)
    if found:
        return Gap("sandbox.unresolved-address", f"the emulator's address {found['host']} "
                   "does not resolve")
    return None


def gap_of(error: str) -> Gap | None:
    """The emulator gap one error of Terraform's output shows; None if it shows none."""
    flat = " ".join(error.split())  # Terraform wraps a long detail across lines
    for known in KNOWN:
        if re.search(known.pattern, flat):
            return Gap(known.name, known.gap, known.answer) if known.aws_accepts else None
    return _general(flat)


def errors(output: str) -> list[str]:
    """Each `Error:` diagnostic of Terraform's output (-no-color), with its detail."""
    starts = [m.start() for m in _ERROR_START.finditer(output)]
    ends = [*starts[1:], len(output)] if starts else []
    return [output[a:b].strip() for a, b in zip(starts, ends, strict=True)]


def own_expression(output: str) -> str | None:
    """The summary of a diagnostic of the solution's own expressions (a pre/postcondition,
    a check, a variable's validation), if the output has one: its text is the solution's,
    so nothing in it, or beside it, is evidence of a gap."""
    found = _OWN.search(output)
    return found.group(1) if found else None


def confirmed(gap: Gap, evidence: Evidence) -> bool:
    """Whether the kit's own record shows the emulator gave the answer the gap names."""
    if not evidence.journaled or gap.answer is None:
        return True
    return evidence.answered(gap.answer) is not None


def gaps(output: str, evidence: Evidence | None = None) -> list[Gap] | None:
    """The emulator gaps a failed command's output shows, when every error it reports is
    one the emulator's journal confirms (deduplicated, in order); None when any error is
    not a known gap, the journal does not show it, the solution's own expression failed,
    or there is no error. Without `evidence` the text alone decides (no journal kept)."""
    evidence = evidence or UNWATCHED
    if own_expression(output):
        return None
    found = [gap_of(error) for error in errors(output)]
    if not found or any(g is None or not confirmed(g, evidence) for g in found):
        return None
    return list(dict.fromkeys(g for g in found if g is not None))


@dataclass(frozen=True)
class ReadBack:
    """One known way moto reads a resource back otherwise than it was declared, so that a
    plan right after the apply still updates it in place, where AWS reads it back as
    declared. `make fidelity` counts an example as applied only when every change of that
    plan is one of these (bench/fidelity_readback.py)."""

    name: str  # stable id: <service>.<what>
    resource: str  # regex over the resource type
    attributes: str  # regex that every changed top-level attribute matches
    gap: str  # what moto does, and what AWS does instead
    seen_in: str  # the corpus example that shows it
    when: str = ""  # an attribute the resource's planned values must set (e.g. a replica's)
    # A replacement these attributes force is explained too (they are ForceNew), not only
    # an in-place update.
    replaces: bool = False


READ_BACK: tuple[ReadBack, ...] = (
    ReadBack(
        "sns.feedback-attributes", r"^aws_sns_topic$",
        r"^(application|firehose|http|lambda|sqs)_(success|failure)_feedback_"
        r"(role_arn|sample_rate)$",
        "moto's GetTopicAttributes omits <protocol>SuccessFeedbackRoleArn, "
        "FailureFeedbackRoleArn and SuccessFeedbackSampleRate after SetTopicAttributes "
        "stored them; AWS returns them (SNS developer guide, message delivery status)",
        "sns-topic/complete"),
    ReadBack(
        "rds.parameter-group-parameters", r"^aws_db_parameter_group$", r"^parameter$",
        "moto's DescribeDBParameters does not return the parameters ModifyDBParameterGroup "
        "set (source user); AWS returns them",
        "rds/complete-postgres, learn-terraform-rds"),
    ReadBack(
        "rds.read-replica-copies-its-source", r"^aws_db_instance$",
        r"^(backup_retention_period|multi_az)$",
        "moto makes a read replica as a copy of its source DB instance, so it reports the "
        "source's BackupRetentionPeriod and MultiAZ; AWS creates read replicas with backups "
        "disabled and reports the replica's own settings (RDS API reference, "
        "CreateDBInstanceReadReplica)",
        "rds/replica-postgres, rds/cross-region-replica-postgres", when="replicate_source_db"),
    ReadBack(
        "s3.replication-rule-filters", r"^aws_s3_bucket_replication_configuration$", r"^rule$",
        "moto's GetBucketReplication drops a rule's Filter.And (its prefix and tags) and its "
        "SourceSelectionCriteria (ReplicaModifications, SseKmsEncryptedObjects) after "
        "PutBucketReplication stored them; AWS returns the rules as put (S3 API reference, "
        "GetBucketReplication, ReplicationRule)",
        "s3-bucket/s3-replication"),
    ReadBack(
        "ec2.vpc-endpoint-interfaces", r"^aws_vpc_endpoint$",
        r"^(subnet_configuration|network_interface_ids|dns_options)$",
        "moto gives an interface endpoint's network interfaces addresses of its own, not "
        "the SubnetConfiguration.N Ipv4 the request asked for, and its DescribeVpcEndpoints "
        "has no DnsOptions; AWS uses the requested addresses and returns DnsOptions (EC2 API "
        "reference, CreateVpcEndpoint, SubnetConfiguration, DnsOptionsSpecification)",
        "vpc/complete", replaces=True),
    # LocalStack serves EC2 from its own bundled moto, which of the kit's fixes gets only
    # the subnets' (kit/sandbox/localstack_main.py `SHARED`), not these two of ec2.py.
    ReadBack(
        "localstack.customer-gateway-settings", r"^aws_customer_gateway$",
        r"^(device_name|bgp_asn_extended|certificate_arn)$",
        "LocalStack 4.13.1's EC2 drops CreateCustomerGateway's DeviceName, BgpAsnExtended "
        "and CertificateArn; AWS returns them (EC2 API reference, CustomerGateway; the "
        "kit's moto is fixed)",
        "vpc/complete (--emulator localstack)", replaces=True),
    ReadBack(
        "localstack.dhcp-options-tags", r"^aws_vpc_dhcp_options$", r"^(tags|tags_all)$",
        "LocalStack 4.13.1's EC2 drops the tags CreateDhcpOptions' TagSpecification gave; "
        "AWS returns them (EC2 API reference, CreateDhcpOptions; the kit's moto is fixed)",
        "vpc/complete (--emulator localstack)"),
)


def read_back_gap(resource_type: str, action: str, attributes: list[str],
                  planned: dict[str, object] | None = None) -> str | None:
    """The name of the known read-back divergence that explains a pending in-place update
    (or, for one that `replaces`, a replacement) of these attributes of a resource of this
    type (`planned`: its planned values); None if none does."""
    if action not in ("update", "replace") or not attributes:
        return None
    for known in READ_BACK:
        if (action == "update" or known.replaces) and \
                re.search(known.resource, resource_type) and \
                all(re.search(known.attributes, a) for a in attributes) and \
                (not known.when or (planned or {}).get(known.when)):
            return known.name
    return None
