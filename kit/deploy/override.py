"""The generated provider configuration that points every AWS endpoint at the sandbox.

A solution's own `provider "aws"` blocks are kept and overridden (Terraform merges
`*_override.tf` files); a solution without one gets a plain provider block, because an
override with no base block is an error in Terraform.

The endpoint itself travels as AWS_ENDPOINT_URL in the provider's environment, not as an
`endpoints` block: the provider validates that block (one object of ~300 service
attributes) in time quadratic in its size, ~2 s of CPU on every configure, three times per
apply. A service served by another emulator than the primary one (RDS under LocalStack: kit/
sandbox/emulator.py) gets its own AWS_ENDPOINT_URL_<SERVICE>, which the provider's SDK reads
the same way. Only a solution that brings its own `endpoints` block gets one back, naming
every service, so that none of its endpoints survives the override.

The access key is the kit's account id: LocalStack reads a 12-digit access key id as the
account to act in (tflocal writes "test", LocalStack's default account 000000000000); moto
serves one account whatever the key. README ("tflocal") lists every difference from the
override tflocal writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path

from kit.deploy.hcl import Configuration, items
from kit.errors import SolutionError
from kit.workload.aws import ACCOUNT_ID

OVERRIDE_FILE = "zz_kit_override.tf"
PROVIDER_FILE = "zz_kit_provider.tf"
REGION = "us-east-1"

# Named in the override when a solution brings its own `endpoints` block. Terraform replaces
# a nested block as a whole, so services not listed here fall back to AWS_ENDPOINT_URL too.
SERVICES = (
    "acm", "apigateway", "autoscaling", "cloudformation", "cloudtrail", "cloudwatch",
    "dynamodb", "ec2", "ecr", "ecs", "elasticache", "elb", "elbv2", "events", "firehose",
    "iam", "kinesis", "kms", "lambda", "logs", "rds", "route53", "s3", "scheduler",
    "secretsmanager", "sns", "sqs", "ssm", "sts",
)


@cache
def sdk_env_name(service: str) -> str:
    """The SDKs' per-service endpoint variable (AWS_ENDPOINT_URL_<SERVICE ID>): boto3 and the
    Go SDK under the Terraform provider read the same name, built from the service's ID."""
    import botocore.session

    service_id = botocore.session.get_session().get_service_model(service).service_id
    return "AWS_ENDPOINT_URL_" + str(service_id).replace(" ", "_").upper()


def endpoint_env(endpoint: str, endpoints: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment that aims an AWS provider process at `endpoint` (and each service of
    `endpoints` at its own)."""
    # GOGC: the provider allocates heavily while building its schema; collecting less often
    # saves ~30 % of its CPU, and it lives for one sandbox only.
    return {"AWS_ENDPOINT_URL": endpoint, "GOGC": "400",
            **{sdk_env_name(service): url for service, url in (endpoints or {}).items()}}


def provider_blocks(config: Configuration) -> list[tuple[str | None, bool]]:
    """(alias, has an `endpoints` block) of each root `provider "aws"` block (alias None =
    default); override files are the kit's business, not the solution's."""
    blocks: list[tuple[str | None, bool]] = []
    for doc in config.at_root():
        if doc.is_override:
            continue
        for name, body in items(doc.content.get("provider")):
            if name == "aws" and isinstance(body, dict):
                alias = body.get("alias")
                blocks.append((alias if isinstance(alias, str) else None, "endpoints" in body))
    return blocks


def render_provider(endpoint: str, *, alias: str | None = None,
                    endpoints: Mapping[str, str] | None = None,
                    every_service: bool = False) -> str:
    """HCL for one `provider "aws"` block aimed at the sandbox."""
    chosen = {s: endpoint for s in SERVICES if every_service} | dict(endpoints or {})
    lines = ['provider "aws" {']
    if alias:
        lines.append(f'  alias                       = "{alias}"')
    lines += [
        f'  access_key                  = "{ACCOUNT_ID}"',
        '  secret_key                  = "test"',
        f'  region                      = "{REGION}"',
        "  skip_credentials_validation = true",
        "  skip_requesting_account_id  = false",
        "  skip_metadata_api_check     = true",
        "  skip_region_validation      = true",
        "  s3_use_path_style           = true",
    ]
    if chosen:
        lines += ["  endpoints {",
                  *(f'    {service} = "{url}"' for service, url in sorted(chosen.items())),
                  "  }"]
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_provider_config(solution_copy: Path, config: Configuration, endpoint: str,
                          endpoints: Mapping[str, str] | None = None) -> Path:
    """Write the kit's provider file into a copy of the solution; returns its path.
    `endpoints` (per service) go into the file only with a solution's own `endpoints` block:
    otherwise the environment carries them (`endpoint_env`)."""
    blocks = provider_blocks(config)
    name = OVERRIDE_FILE if blocks else PROVIDER_FILE
    target = solution_copy / name
    if target.exists():
        raise SolutionError(f"{name}: this file name is reserved for the kit")
    rendered = [render_provider(endpoint, alias=alias,
                                endpoints=endpoints if own_endpoints else None,
                                every_service=own_endpoints)
                for alias, own_endpoints in blocks or [(None, False)]]
    header = "# Generated by the kit: points the AWS provider at the sandbox emulator.\n"
    target.write_text(header + "\n".join(rendered))
    return target
