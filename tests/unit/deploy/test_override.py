from __future__ import annotations

from pathlib import Path

import hcl2
import pytest

from kit.deploy.hcl import parse
from kit.deploy.override import (
    OVERRIDE_FILE,
    PROVIDER_FILE,
    SERVICES,
    ProviderBlock,
    endpoint_env,
    provider_blocks,
    render_provider,
    write_provider_config,
)
from kit.errors import SolutionError

URL = "http://127.0.0.1:4566"


def _plain(value: object) -> object:
    """python-hcl2 keeps string quotes and block markers; strip both for comparisons."""
    if isinstance(value, dict):
        return {str(_plain(k)): _plain(v) for k, v in value.items() if k != "__is_block__"}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return value.strip('"')
    return value


def _providers(text: str) -> list[dict]:
    return [block["aws"] for block in _plain(hcl2.loads(text))["provider"]]


def _text(written: list[Path]) -> str:
    return "\n".join(path.read_text() for path in written)


def _solution(tmp_path: Path, body: str) -> Path:
    (tmp_path / "main.tf").write_text(body)
    return tmp_path


def test_rendered_block_leaves_the_endpoint_to_the_environment() -> None:
    block = _providers(render_provider(URL))[0]
    assert "endpoints" not in block
    assert block["skip_credentials_validation"] is True
    assert block["s3_use_path_style"] is True
    assert endpoint_env(URL)["AWS_ENDPOINT_URL"] == URL


def test_every_service_block_points_each_service_at_the_endpoint() -> None:
    endpoints = _providers(render_provider(URL, every_service=True))[0]["endpoints"][0]
    assert set(endpoints) == set(SERVICES)
    assert all(value == URL for value in endpoints.values())


def test_solution_endpoints_are_replaced_by_the_sandbox(tmp_path: Path) -> None:
    sol = _solution(tmp_path, 'provider "aws" {\n  endpoints {\n'
                    '    sqs = "http://127.0.0.1:4566"\n  }\n}\n')
    assert provider_blocks(parse(sol)) == [ProviderBlock(None, True, None)]
    block = _providers(_text(write_provider_config(sol, parse(sol), URL)))[0]
    assert block["endpoints"][0]["sqs"] == URL


def test_per_service_endpoint_wins_over_the_default() -> None:
    block = _providers(render_provider(URL, endpoints={"sqs": "http://127.0.0.1:9"}))[0]
    assert block["endpoints"][0] == {"sqs": "http://127.0.0.1:9"}


def test_solution_without_provider_gets_a_plain_provider_file(tmp_path: Path) -> None:
    sol = _solution(tmp_path, 'resource "aws_sqs_queue" "q" { name = "q" }\n')
    written = write_provider_config(sol, parse(sol), URL)
    assert [path.name for path in written] == [PROVIDER_FILE]
    assert not (sol / OVERRIDE_FILE).exists()


def test_solution_providers_are_overridden_alias_by_alias(tmp_path: Path) -> None:
    sol = _solution(tmp_path, 'provider "aws" { region = "eu-west-1" }\n'
                    'provider "aws" {\n  alias = "dr"\n  region = "us-west-2"\n}\n')
    assert provider_blocks(parse(sol)) == [ProviderBlock(None, False, '"eu-west-1"'),
                                    ProviderBlock("dr", False, '"us-west-2"')]
    written = write_provider_config(sol, parse(sol), URL)
    assert [path.name for path in written] == [OVERRIDE_FILE]
    blocks = _providers(_text(written))
    assert [b.get("alias") for b in blocks] == [None, "dr"]
    assert blocks[0]["region"] == "us-east-1"
    # The alias keeps its own region (the swap with the default's is proven by a real
    # apply in tests/integration/test_fidelity.py).
    assert "us-west-2" in blocks[1]["region"] and "eu-west-1" in blocks[1]["region"]


def test_aliases_alone_get_a_default_provider_of_the_kits_beside_their_override(
        tmp_path: Path) -> None:
    # Terraform configures the default provider for every resource that names no alias,
    # whether or not a block declares it; an override file cannot create one.
    sol = _solution(tmp_path, 'provider "aws" {\n  alias = "dr"\n  region = "us-west-2"\n}\n')
    written = write_provider_config(sol, parse(sol), URL)
    assert [path.name for path in written] == [OVERRIDE_FILE, PROVIDER_FILE]
    (dr,) = _providers(written[0].read_text())
    (default,) = _providers(written[1].read_text())
    assert dr["alias"] == "dr" and "us-west-2" in dr["region"]
    assert "alias" not in default and default["region"] == "us-east-1"
    assert default["skip_credentials_validation"] is True


def test_alias_without_region_uses_the_kits_region_and_expressions_are_kept(
        tmp_path: Path) -> None:
    sol = _solution(tmp_path, 'locals {\n  r = "eu-west-1"\n}\n'
                    'provider "aws" { region = local.r }\n'
                    'provider "aws" {\n  alias = "same"\n}\n'
                    'provider "aws" {\n  alias = "dr"\n  region = var.dr_region\n}\n')
    blocks = _providers(_text(write_provider_config(sol, parse(sol), URL)))
    assert blocks[1]["region"] == "us-east-1"
    assert "var.dr_region" in blocks[2]["region"] and "local.r" in blocks[2]["region"]


def test_account_prefixed_hosts_are_proxied_to_the_emulator(tmp_path: Path) -> None:
    # S3 Control is addressed as <account>.127.0.0.1:<port>; the proxy reaches moto.
    sol = _solution(tmp_path, "")
    block = _providers(_text(write_provider_config(sol, parse(sol), URL)))[0]
    assert block["http_proxy"] == URL


def test_reserved_file_name_is_refused(tmp_path: Path) -> None:
    sol = _solution(tmp_path, "")
    (sol / PROVIDER_FILE).write_text("")
    with pytest.raises(SolutionError, match="reserved"):
        write_provider_config(sol, parse(sol), URL)


def test_invalid_hcl_is_the_solutions_fault_and_names_the_file(tmp_path: Path) -> None:
    sol = _solution(tmp_path, 'resource "aws_sqs_queue" "q" {\n')
    with pytest.raises(SolutionError, match="main.tf"):
        provider_blocks(parse(sol))


def test_a_service_served_elsewhere_gets_its_own_endpoint_variable() -> None:
    env = endpoint_env(URL, {"rds": "http://127.0.0.1:9", "secretsmanager": "http://127.0.0.1:8"})
    assert env["AWS_ENDPOINT_URL"] == URL
    assert env["AWS_ENDPOINT_URL_RDS"] == "http://127.0.0.1:9"
    assert env["AWS_ENDPOINT_URL_SECRETS_MANAGER"] == "http://127.0.0.1:8"


def test_per_service_endpoints_stay_out_of_the_file_unless_the_solution_has_a_block(
        tmp_path: Path) -> None:
    sol = _solution(tmp_path, 'resource "aws_sqs_queue" "q" { name = "q" }\n')
    block = _providers(_text(write_provider_config(sol, parse(sol), URL,
                                                   {"rds": "http://x:9"})))[0]
    assert "endpoints" not in block  # the environment carries them: endpoint_env


# What tflocal (localstack/terraform-local, bin/tflocal) writes into
# localstack_providers_override.tf for each provider block, with LocalStack at URL.
TFLOCAL = {"access_key": "test", "secret_key": "test", "skip_credentials_validation": True,
           "skip_metadata_api_check": True, "s3_use_path_style": True, "region": "us-east-1",
           "endpoints": "every service at the LocalStack endpoint"}
# Where the kit's override differs, and how the difference keeps the same effect (docs/emulators.md,
# "tflocal").
DIFFERENCES = {
    "access_key": "123456789012",  # LocalStack reads a 12-digit key id as the account
    "endpoints": None,  # AWS_ENDPOINT_URL (+ _<SERVICE>) in the provider's environment
}


def test_the_override_sets_what_tflocal_sets_or_a_documented_equivalent() -> None:
    block = _providers(render_provider(URL))[0]
    for key, value in TFLOCAL.items():
        expected = DIFFERENCES.get(key, value)
        assert block.get(key) == expected, key
    assert endpoint_env(URL)["AWS_ENDPOINT_URL"] == URL
    # Beyond tflocal: the account is read (kit.account), any region name is accepted.
    assert block["skip_requesting_account_id"] is False
    assert block["skip_region_validation"] is True
