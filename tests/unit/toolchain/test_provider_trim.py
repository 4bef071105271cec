"""The provider trim on a miniature provider tree shaped like the real one."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit.errors import ToolchainError
from kit.toolchain import provider_trim

M = provider_trim.MODULE

SERVICE_LIST = f'''package sdkv2

import (
\t"context"

\t"{M}/internal/conns"
\t"{M}/internal/service/alpha"
\t"{M}/internal/service/beta"
)

func servicePackages(ctx context.Context) []conns.ServicePackage {{
\tv := []conns.ServicePackage{{
\t\talpha.ServicePackage(ctx),
\t\tbeta.ServicePackage(ctx),
\t}}
\treturn v
}}
'''

CLIENTS = '''package conns

import (
\t"context"

\t"github.com/aws/aws-sdk-go-v2/service/alpha"
\tbetasdk "github.com/aws/aws-sdk-go-v2/service/beta"
\t"github.com/aws/aws-sdk-go-v2/service/gamma"
\t"github.com/hashicorp/terraform-provider-aws/names"
)

func (c *AWSClient) AlphaClient(ctx context.Context) *alpha.Client {
\treturn client[*alpha.Client](ctx, c, names.Alpha)
}

func (c *AWSClient) BetaClient(ctx context.Context) *betasdk.Client {
\treturn client[*betasdk.Client](ctx, c, names.Beta)
}

func (c *AWSClient) GammaClient(ctx context.Context) *gamma.Client {
\treturn client[*gamma.Client](ctx, c, names.Gamma)
}
'''


def _tree(root: Path) -> Path:
    files = {
        "main.go": f'package main\n\nimport (\n\t"{M}/internal/provider/sdkv2"\n)\n',
        provider_trim.SERVICE_LIST: SERVICE_LIST,
        provider_trim.CLIENTS: CLIENTS,
        "internal/conns/conns.go": "package conns\n",
        # alpha uses its own client and gamma's (a cross-service call); beta its own.
        "internal/service/alpha/queue.go":
            f'package alpha\n\nimport "{M}/internal/conns"\n\n'
            "func f(c *conns.AWSClient) { c.AlphaClient(ctx); c.GammaClient(ctx) }\n",
        "internal/service/alpha/service_package_gen.go":
            'package alpha\nvar r = []x{{TypeName: "aws_alpha_queue"}}\n',
        "internal/service/alpha/queue_test.go":
            "package alpha\nfunc t(c *conns.AWSClient) { c.BetaClient(ctx) }\n",
        "internal/service/beta/thing.go":
            "package beta\nfunc f(c *conns.AWSClient) { c.BetaClient(ctx) }\n",
        "internal/service/beta/service_package_gen.go":
            'package beta\nvar r = []x{{TypeName: "aws_beta_thing"},\n'
            '  {TypeName: "aws_beta_things"}}\n',
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_trim_keeps_the_services_and_exactly_the_clients_they_call(tmp_path: Path) -> None:
    source = _tree(tmp_path)
    doc = provider_trim.trim(source, ("alpha",))
    listed = (source / provider_trim.SERVICE_LIST).read_text()
    assert "service/alpha" in listed and "alpha.ServicePackage(ctx)" in listed
    assert "beta" not in listed
    clients = (source / provider_trim.CLIENTS).read_text()
    # Alpha's own client and the one it borrows stay; a test file's use does not count.
    assert "AlphaClient" in clients and "GammaClient" in clients
    assert "BetaClient" not in clients and "service/beta" not in clients
    assert '"github.com/aws/aws-sdk-go-v2/service/gamma"' in clients
    assert doc == {"services": ["alpha"], "types": {
        "aws_alpha_queue": "alpha", "aws_beta_thing": "beta", "aws_beta_things": "beta"}}


def test_a_service_the_provider_lacks_is_refused_with_the_fix(tmp_path: Path) -> None:
    with pytest.raises(ToolchainError, match="internal/service/delta.*SERVICES"):
        provider_trim.trim(_tree(tmp_path), ("alpha", "delta"))


def test_the_real_build_keeps_what_the_scenarios_use() -> None:
    for service in ("sqs", "iam", "rds", "kms", "sts", "s3", "ec2", "secretsmanager", "meta"):
        assert service in provider_trim.SERVICES
