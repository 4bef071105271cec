"""Each module of modules/ is applied and destroyed through the kit's deploy layer, against
the sandbox's emulator, and its outputs name what it made."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kit import aws
from kit.deploy.terraform import Terraform
from kit.run.sandbox import Sandbox
from kit.scenario import MODULES

NAMES = sorted(p.name for p in MODULES.iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(postgres=False, provider=True) as sb:
        yield sb


@pytest.mark.parametrize("name", NAMES)
def test_applies_and_destroys(sandbox: Sandbox, tmp_path: Path, name: str) -> None:
    tf = Terraform(MODULES / name, tmp_path,
                   reattach=sandbox.provider.reattach if sandbox.provider else None)
    tf.configure(sandbox.moto.url)
    tf.init()
    tf.apply()
    outputs = tf.outputs()
    assert outputs and all(outputs.values()), outputs
    tf.destroy()


def test_org_baseline_makes_a_boundary_a_key_and_a_rule(sandbox: Sandbox,
                                                         tmp_path: Path) -> None:
    tf = Terraform(MODULES / "org-baseline", tmp_path,
                   reattach=sandbox.provider.reattach if sandbox.provider else None)
    tf.configure(sandbox.moto.url)
    tf.init()
    tf.apply({"name_prefix": "acme"})
    out = tf.outputs()
    moto = sandbox.moto.url
    policy = aws.client("iam", moto).get_policy(PolicyArn=out["boundary_policy_arn"])["Policy"]
    assert (policy["PolicyName"], policy["Path"]) == ("acme-workload-boundary", "/acme/")
    key = aws.client("kms", moto).describe_key(KeyId="alias/acme-shared")["KeyMetadata"]
    assert (key["Arn"], key["KeyManager"]) == (out["kms_key_arn"], "CUSTOMER")
    rule = aws.client("events", moto).describe_rule(Name="acme-jobs-submitted")
    assert rule["Arn"] == out["jobs_rule_arn"]
    tf.destroy()
    assert not aws.client("events", moto).list_rules(NamePrefix="acme-")["Rules"]
