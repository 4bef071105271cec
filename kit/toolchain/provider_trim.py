"""Build the AWS provider with only the services an emulator can serve.

The provider registers ~270 service packages, and its client layer imports an AWS SDK
package for each; compiling them all is what makes a cold build take half an hour on two
cores and the binary weigh 900 MB. The kit's emulators serve a known set of services, so
the build keeps those (generously: anything a plausible solution for a scenario might
declare) and drops the rest, by rewriting the two generated files that enumerate every
service: the provider's service list and the AWS client's accessor methods. Go's import
graph then leaves out whatever nothing kept imports.

Written here rather than taken from a tool: the provider has no build tags or option for
a subset, and its own generators need the full source tree and network access.

The trim also writes a catalogue of every resource and data source type of the full
provider, with its service, so that a solution using a type outside the build gets an
`error` naming the type (the kit's gap), never a `fail`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from kit.errors import ToolchainError

# internal/service/<name> packages kept in the build. Generous on purpose: a solution
# for any scenario may declare these, and moto or LocalStack serves each of them.
# cloudfront, ds and redshift: widely used modules declare their types even where they
# create none (terraform-aws-modules/vpc has an aws_redshift_subnet_group with count = 0,
# and Terraform needs the schema of every declared type), so without them no stack using
# those modules can deploy (measured by `make fidelity`).
SERVICES = (
    "acm", "apigateway", "apigatewayv2", "appautoscaling", "autoscaling", "backup",
    "cloudformation", "cloudfront", "cloudtrail", "cloudwatch", "ds", "dynamodb", "ec2",
    "ecr", "ecs", "elasticache", "elb", "elbv2", "events", "firehose", "iam", "kinesis",
    "kms", "lambda", "logs", "meta", "organizations", "ram", "rds", "redshift",
    "resourcegroupstaggingapi", "route53", "s3", "s3control", "scheduler", "secretsmanager",
    "sfn", "sns", "sqs", "ssm", "sts",
)

SERVICE_LIST = "internal/provider/sdkv2/service_packages_gen.go"
CLIENTS = "internal/conns/awsclient_gen.go"
MODULE = "github.com/hashicorp/terraform-provider-aws"
_IMPORT_BLOCK = re.compile(r"^import \((.*?)^\)", re.S | re.M)
_IMPORT_LINE = re.compile(r'^\s*(?:(\w+)\s+)?"([^"]+)"\s*$', re.M)
_SINGLE_IMPORT = re.compile(r'^import\s+(?:\w+\s+)?"([^"]+)"', re.M)
_METHOD = re.compile(r"^func \(c \*AWSClient\) (\w+Client)\(ctx context\.Context\) \*(\w+)\.Client"
                     r" \{\n.*?^\}\n\n?", re.S | re.M)
_CLIENT_CALL = re.compile(r"\.(\w+Client)\(ctx\b")
_TYPE_NAME = re.compile(r'TypeName:\s*"(aws_\w+)"')


def _imports(package_dir: Path) -> set[str]:
    """Import paths of a package's non-test Go files."""
    found: set[str] = set()
    for go in package_dir.glob("*.go"):
        if go.name.endswith("_test.go"):
            continue
        text = go.read_text(errors="replace")
        for block in _IMPORT_BLOCK.findall(text):
            found.update(m.group(2) for m in _IMPORT_LINE.finditer(block))
        found.update(_SINGLE_IMPORT.findall(text))
    return found


def _closure(source: Path, roots: list[str]) -> set[str]:
    """Internal package dirs (relative) reachable from `roots` by non-test imports."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        rel = todo.pop()
        if rel in seen or not (source / rel).is_dir():
            continue
        seen.add(rel)
        for path in _imports(source / rel):
            if path.startswith(MODULE + "/"):
                todo.append(path.removeprefix(MODULE + "/"))
    return seen


def _rewrite_service_list(text: str, keep: set[str]) -> str:
    """The service list with only the kept packages imported and registered."""
    prefix = f"{MODULE}/internal/service/"
    lines = []
    for line in text.splitlines(keepends=True):
        imported = re.match(rf'^\s*(?:\w+\s+)?"{re.escape(prefix)}(\w+)"\s*$', line)
        listed = re.match(r"^\s*(\w+)\.ServicePackage\(ctx\),\s*$", line)
        name = (imported or listed).group(1) if (imported or listed) else None
        if name is None or name in keep:
            lines.append(line)
    return "".join(lines)


def _rewrite_clients(text: str, used: set[str]) -> str:
    """The AWS client accessors with only the used methods and their SDK imports."""
    kept_methods = [m for m in _METHOD.finditer(text) if m.group(1) in used]
    packages = {m.group(2) for m in kept_methods}
    body_start = _METHOD.search(text)
    if body_start is None:
        raise ToolchainError(f"provider trim: no client accessor found in {CLIENTS}; the "
                             "provider revision changed: update kit/toolchain/provider_trim.py")
    head = text[:body_start.start()]

    def keep_import(match: re.Match[str]) -> str:
        alias, path = match.group(1), match.group(2)
        name = alias or path.rsplit("/", 1)[-1]
        if "/aws-sdk-go-v2/service/" in path and name not in packages:
            return ""
        return match.group(0)

    head = _IMPORT_LINE.sub(keep_import, head)
    head = re.sub(r"\n{2,}(?=\))", "\n", head)
    return head + "".join(m.group(0) for m in kept_methods)


def catalogue(source: Path) -> dict[str, str]:
    """Every resource and data source type of the full provider -> its service package."""
    types: dict[str, str] = {}
    for gen in sorted((source / "internal" / "service").glob("*/service_package_gen.go")):
        for name in _TYPE_NAME.findall(gen.read_text(errors="replace")):
            types.setdefault(name, gen.parent.name)
    return types


def trim(source: Path, services: tuple[str, ...] = SERVICES) -> dict[str, object]:
    """Rewrite the source tree in place to build only `services`; returns the catalogue
    document (kept services, and every type of the full provider with its service)."""
    missing = [s for s in services if not (source / "internal" / "service" / s).is_dir()]
    if missing:
        raise ToolchainError(f"provider trim: no internal/service/{missing[0]} in the "
                             "provider source; fix SERVICES in kit/toolchain/provider_trim.py")
    types = catalogue(source)
    service_list = source / SERVICE_LIST
    service_list.chmod(0o644)
    service_list.write_text(_rewrite_service_list(service_list.read_text(), set(services)))
    # What the binary compiles: everything main.go reaches once the list is trimmed.
    built = _closure(source, [p.removeprefix(MODULE + "/") for p in _imports(source)
                              if p.startswith(MODULE + "/")])
    used: set[str] = set()
    for rel in built:
        for go in (source / rel).glob("*.go"):
            if not go.name.endswith("_test.go") and go.name != Path(CLIENTS).name:
                used.update(_CLIENT_CALL.findall(go.read_text(errors="replace")))
    clients = source / CLIENTS
    clients.chmod(0o644)
    clients.write_text(_rewrite_clients(clients.read_text(), used))
    return {"services": sorted(services), "types": types}


def write_catalogue(document: dict[str, object], path: Path) -> None:
    """Store the catalogue beside the provider binary."""
    path.write_text(json.dumps(document, indent=1, sort_keys=True))
