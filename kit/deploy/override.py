"""The generated provider configuration that points every AWS endpoint at the sandbox.

A solution's own `provider "aws"` blocks are kept and overridden (Terraform merges
`*_override.tf` files); a solution without one gets a plain provider block, because an
override with no base block is an error in Terraform.

The endpoint itself travels as AWS_ENDPOINT_URL in the provider's environment, not as an
`endpoints` block: the provider validates that block (one object of ~300 service
attributes) in time quadratic in its size, ~2 s of CPU on every configure, three times per
apply. Only a solution that brings its own `endpoints` block gets one back, naming every
service, so that none of its endpoints survives the override.

Regions: by default the default provider runs in the kit's region (the scenario's
contract). An alias keeps its own region, so that a replica "in another region" lands in
another region of the emulator, as it would in AWS; since the default provider was moved,
the solution's default region and the kit's region trade places for the aliases (an alias
in the solution's default region stays with the default provider). With `region=None`
every block keeps the region the solution gave it.

S3 Control (and any other API the AWS SDK addresses as `<account-id>.<endpoint host>`) is
reached through `http_proxy` aimed at the emulator: the SDK proxies every host except
loopback addresses, and moto serves a request in proxy form like any other. So
`123456789012.127.0.0.1:<port>`, which no resolver knows, reaches moto without DNS.

A service served elsewhere than the primary emulator (RDS through the kit's front before
moto; under LocalStack, what LocalStack lacks: kit/sandbox/emulator.py) gets its own
AWS_ENDPOINT_URL_<SERVICE>, which the provider's SDK reads the same way.

Credential settings are neutralised in every block (NEUTRALISED, NEUTRAL_BLOCKS): a
team's provider names how it reaches its own AWS account (`profile = "prod"`, shared
config and credentials files, `assume_role`, web identity, an allowed account list, FIPS or
dual-stack endpoints, a CA bundle, proxies), each of which breaks against the emulator or
would use something that is not the kit's ("failed to get shared config profile"). The
override sets each attribute to null (unset) and replaces each credential block the
solution has with an empty one, which the provider ignores (tested with the real provider,
tests/integration/test_team_terraform.py).

The root module's backend, whatever it is (a team repository's S3 backend; an untrusted
solution's can only be local, the gate refuses the others), is replaced by the run copy's
own local state (`write_backend_override`), as tflocal does: an
override file's `backend` (or `cloud`) block replaces the original's, whatever its type
(Terraform "Override Files": "The presence of a block defining a backend (either cloud or
backend) in an override file always takes precedence over a block defining a backend in
the original configuration"). The real backend is never contacted: init runs with
`-backend=false` and the state is the copy's terraform.tfstate.

The access key is the kit's account id: LocalStack reads a 12-digit access key id as the
account to act in (tflocal writes "test", LocalStack's default account 000000000000); moto
serves one account whatever the key. docs/emulators.md ("tflocal") lists every difference from the
override tflocal writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from kit.aws import ACCOUNT_ID
from kit.deploy.hcl import Configuration, blocks, items
from kit.intake import files as intake_files

OVERRIDE_FILE = "zz_kit_override.tf"
PROVIDER_FILE = "zz_kit_provider.tf"
BACKEND_FILE = "zz_kit_backend_override.tf"
# Provider attributes (hashicorp/aws 6.x schema) that aim it at a real account or break
# against an emulator: unset in every block of the override.
NEUTRALISED = (
    "profile", "shared_config_files", "shared_credentials_files", "token",
    "allowed_account_ids", "forbidden_account_ids", "custom_ca_bundle",
    "ec2_metadata_service_endpoint", "ec2_metadata_service_endpoint_mode", "https_proxy",
    "no_proxy", "sts_region", "use_fips_endpoint", "use_dualstack_endpoint",
    "s3_us_east_1_regional_endpoint", "tag_policy_compliance",
)
# Nested credential blocks: Terraform replaces a nested block type as a whole, so the
# solution's is replaced by an empty one (no role to assume) where it has one.
NEUTRAL_BLOCKS = ("assume_role", "assume_role_with_web_identity")
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


@dataclass(frozen=True)
class ProviderBlock:
    """What the override needs of one `provider "aws"` block of the solution."""

    alias: str | None  # None: the default provider
    own_endpoints: bool  # it has an `endpoints` block
    region: str | None  # its `region` as an HCL expression, None when unset
    credential_blocks: tuple[str, ...] = ()  # which of NEUTRAL_BLOCKS it has


def _expression(value: object) -> str | None:
    """An attribute as the parse gives it (quotes stripped), back as HCL: `${x}` -> `x`,
    anything else a string template."""
    if not isinstance(value, str):
        return None
    if value.startswith("${") and value.endswith("}") and value.count("${") == 1:
        return value[2:-1]
    return f'"{value}"'


def provider_blocks(config: Configuration, module: Path = Path(".")) -> list[ProviderBlock]:
    """Every `provider "aws"` block of the solution's root module (`module`, relative to
    the solution); override files are the kit's business, not the solution's."""
    blocks: list[ProviderBlock] = []
    for doc in config.at(module):
        if doc.is_override:
            continue
        for name, body in items(doc.content.get("provider")):
            if name == "aws" and isinstance(body, dict):
                alias = body.get("alias")
                blocks.append(ProviderBlock(alias if isinstance(alias, str) else None,
                                            "endpoints" in body,
                                            _expression(body.get("region")),
                                            tuple(b for b in NEUTRAL_BLOCKS if b in body)))
    return blocks


def block_region(block: ProviderBlock, default: str | None, forced: str | None) -> str:
    """HCL for the region of one provider block.

    `forced`: the region the default provider is moved to (None: every block keeps its
    own). An alias then keeps its own region, with the solution's default region and the
    forced one trading places, so that two blocks share a region exactly when they do in
    the solution. A block without a region gets the kit's region, as the environment's
    region would apply to it."""
    kit = f'"{forced or REGION}"'
    if block.alias is None and forced:
        return kit
    own = block.region
    if own is None:
        return kit
    if not forced or default is None:
        return own
    return f"({own}) == ({default}) ? {kit} : (({own}) == {kit} ? ({default}) : ({own}))"


def render_provider(endpoint: str, *, alias: str | None = None,
                    endpoints: Mapping[str, str] | None = None,
                    every_service: bool = False, region: str | None = None,
                    credential_blocks: tuple[str, ...] = ()) -> str:
    """HCL for one `provider "aws"` block aimed at the sandbox (`region`: an HCL expression,
    default the kit's region), every credential setting neutralised (`credential_blocks`:
    the solution's nested ones, replaced by empty blocks)."""
    chosen = {s: endpoint for s in SERVICES if every_service} | dict(endpoints or {})
    region = region or f'"{REGION}"'
    lines = ['provider "aws" {']
    if alias:
        lines.append(f'  alias                       = "{alias}"')
    lines += [
        f'  access_key                  = "{ACCOUNT_ID}"',
        '  secret_key                  = "test"',
        f"  region                      = {region}",
        "  skip_credentials_validation = true",
        "  skip_requesting_account_id  = false",
        "  skip_metadata_api_check     = true",
        "  skip_region_validation      = true",
        "  s3_use_path_style           = true",
        f'  http_proxy                  = "{endpoint}"',
        *(f"  {name:<27} = null" for name in NEUTRALISED),
        *(f"  {name} {{}}" for name in credential_blocks),
    ]
    if chosen:
        lines += ["  endpoints {",
                  *(f'    {service} = "{url}"' for service, url in sorted(chosen.items())),
                  "  }"]
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_provider_config(solution_copy: Path, config: Configuration, endpoint: str,
                          endpoints: Mapping[str, str] | None = None,
                          region: str | None = REGION, module: Path = Path(".")) -> list[Path]:
    """Write the kit's provider files into a copy of the solution (into its root module,
    `module`); returns their paths: an override of each of its `provider "aws"` blocks,
    and a default provider block of the kit's when it has blocks but no default one (only
    aliases: Terraform still configures the default provider for every resource that
    names none, and an override file cannot create a block).
    `region`: where the default provider is moved (None: the solution's regions stay).
    `endpoints` (per service) go into the file only with a solution's own `endpoints` block:
    otherwise the environment carries them (`endpoint_env`)."""
    blocks = provider_blocks(config, module)
    files = {OVERRIDE_FILE: blocks} if blocks else {}
    if not any(b.alias is None for b in blocks):
        files[PROVIDER_FILE] = [ProviderBlock(None, False, None)]
    default = next((b.region for b in blocks if b.alias is None), None)
    header = "# Generated by the kit: points the AWS provider at the sandbox emulator.\n"
    written = []
    for name, of in files.items():
        rendered = [render_provider(endpoint, alias=b.alias,
                                    endpoints=endpoints if b.own_endpoints else None,
                                    every_service=b.own_endpoints,
                                    region=block_region(b, default, region),
                                    credential_blocks=b.credential_blocks)
                    for b in of]
        # Never through a link the solution put at the name (kit/intake/files.py).
        written.append(intake_files.create(solution_copy, module / name,
                                           header + "\n".join(rendered),
                                           why="the kit's provider override"))
    return written


def configurations(config: Configuration, module: Path = Path(".")) -> int:
    """How many configurations of the AWS provider a run has: the solution's blocks, and
    the default one the kit adds beside aliases alone."""
    blocks = provider_blocks(config, module)
    return len(blocks) + (0 if any(b.alias is None for b in blocks) else 1)


def has_backend(config: Configuration, module: Path = Path(".")) -> bool:
    """Whether the root module declares a backend or a `cloud` block (any type)."""
    return any(blocks_of(doc.content.get("terraform"), key)
               for doc in config.at(module) if not doc.is_override
               for key in ("backend", "cloud"))


def blocks_of(terraform: object, key: str) -> bool:
    """Whether any `terraform` block of one file holds a `key` block."""
    return any(key in body for _, body in blocks(terraform, 0))


def write_backend_override(solution_copy: Path, config: Configuration,
                           module: Path = Path(".")) -> Path | None:
    """Replace the root module's backend (any type, or `cloud`) by local state in the copy;
    the override file written, or None when it declares none (local state already)."""
    if not has_backend(config, module):
        return None
    return intake_files.create(
        solution_copy, module / BACKEND_FILE,
        "# Generated by the kit: the run's state is local, its own backend is never "
        "contacted.\nterraform {\n  backend \"local\" {}\n}\n", why="the kit's backend override")
