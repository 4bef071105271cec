"""Credential settings of every `provider "aws"` block are neutralised by the override."""

from __future__ import annotations

from pathlib import Path

from kit.deploy.hcl import items, loads, parse
from kit.deploy.override import (
    NEUTRAL_BLOCKS,
    NEUTRALISED,
    OVERRIDE_FILE,
    ProviderBlock,
    provider_blocks,
    write_provider_config,
)

URL = "http://127.0.0.1:4566"
PROVIDERS = """
provider "aws" {
  region  = "eu-west-1"
  profile = "prod"
  assume_role {
    role_arn = "arn:aws:iam::111111111111:role/deployer"
  }
}
provider "aws" {
  alias                    = "dr"
  region                   = "us-west-2"
  shared_credentials_files = ["~/.aws/credentials"]
  assume_role_with_web_identity {
    role_arn                = "arn:aws:iam::111111111111:role/ci"
    web_identity_token_file = "/var/run/token"
  }
}
"""


def _blocks(text: str) -> list[dict]:
    return [body for name, body in items(loads(text)["provider"]) if name == "aws"]


def test_every_block_unsets_each_credential_attribute(tmp_path: Path) -> None:
    (tmp_path / "infra").mkdir()
    (tmp_path / "infra" / "providers.tf").write_text(PROVIDERS)
    config = parse(tmp_path)
    (written,) = write_provider_config(tmp_path, config, URL, module=Path("infra"))
    assert written == tmp_path / "infra" / OVERRIDE_FILE
    default, dr = _blocks(written.read_text())
    for block in (default, dr):
        assert all(block[name] is None for name in NEUTRALISED)
        assert block["access_key"] and block["secret_key"]
    assert "profile" in NEUTRALISED and "shared_config_files" in NEUTRALISED
    # A nested credential block is replaced by an empty one, where the solution has it.
    assert default["assume_role"] == [{}] and "assume_role_with_web_identity" not in default
    assert dr["assume_role_with_web_identity"] == [{}] and "assume_role" not in dr


def test_blocks_record_which_credential_blocks_they_have(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(PROVIDERS)
    found = provider_blocks(parse(tmp_path))
    assert [b.credential_blocks for b in found] == [("assume_role",),
                                                    ("assume_role_with_web_identity",)]
    assert set(NEUTRAL_BLOCKS) == {"assume_role", "assume_role_with_web_identity"}
    assert found[1] == ProviderBlock("dr", False, '"us-west-2"',
                                     ("assume_role_with_web_identity",))


def test_the_root_module_is_where_providers_are_read(tmp_path: Path) -> None:
    (tmp_path / "infra").mkdir()
    (tmp_path / "infra" / "main.tf").write_text(PROVIDERS)
    assert provider_blocks(parse(tmp_path)) == []  # not at the top
    assert len(provider_blocks(parse(tmp_path), Path("infra"))) == 2
