"""The LocalStack launcher's shims: Python 3.11's uuid5 hashes a bytes name as 3.12's does;
the fixes of LocalStack's bundled moto run when their module is first imported."""

from __future__ import annotations

import ast
import importlib
import json
import sys
import uuid
from pathlib import Path

import pytest

from kit.sandbox import localstack_main


def test_uuid5_takes_bytes_and_agrees_with_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(uuid, "uuid5", uuid.uuid5)  # restored after the test
    namespace = uuid.UUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8")
    before = uuid.uuid5(namespace, "key-material")
    localstack_main.uuid5_accepts_bytes()
    assert uuid.uuid5(namespace, b"key-material") == before
    assert uuid.uuid5(namespace, "key-material") == before


def test_a_fix_runs_right_after_its_module_is_first_imported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "kit_demo_fixed.py").write_text("VALUE = 'as imported'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    seen: list[str] = []

    def fix() -> None:
        seen.append(sys.modules["kit_demo_fixed"].VALUE)
        sys.modules["kit_demo_fixed"].VALUE = "fixed"

    hook = localstack_main.AfterImport({"kit_demo_fixed": [fix]})
    monkeypatch.setattr(sys, "meta_path", [hook, *sys.meta_path])
    monkeypatch.delitem(sys.modules, "kit_demo_fixed", raising=False)
    module = importlib.import_module("kit_demo_fixed")
    assert (seen, module.VALUE) == (["as imported"], "fixed")
    assert hook.fixes == {}  # once: a later import finds the module as fixed


def test_the_shared_fixes_exist_and_import_nothing_of_the_kit() -> None:
    """LocalStack's interpreter has no kit: a shared fix module imports only the standard
    library and moto (inside its functions)."""
    for filename, names in localstack_main.SHARED.values():
        path = localstack_main.FIDELITY / filename
        tree = ast.parse(path.read_text())
        imported = {alias.name.split(".")[0] for node in tree.body
                    if isinstance(node, ast.Import) for alias in node.names}
        imported |= {(node.module or "").split(".")[0] for node in tree.body
                     if isinstance(node, ast.ImportFrom)}
        assert imported <= sys.stdlib_module_names | {"__future__"}, (filename, imported)
        defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        assert set(names) <= defined, filename


def test_a_managed_secret_rotates_without_a_function_and_others_keep_their_answers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """AWS (Secrets Manager User Guide, "Managed rotation"): a secret another service
    manages (tag aws:secretsmanager:owningService) rotates without a Lambda function and
    keeps its value (the service rotates it); any other secret gets the answer it had."""
    from moto.secretsmanager.models import SecretsManagerBackend

    calls: list[str] = []

    def refuse(self: object, secret_id: str, *args: object) -> str:
        calls.append(secret_id)
        return "refused"

    monkeypatch.setattr(SecretsManagerBackend, "rotate_secret", refuse)
    localstack_main.managed_rotation_needs_no_function()
    backend = SecretsManagerBackend("eu-west-1", "123456789012")
    backend.create_secret("rds-db-1", secret_string='{"password": "p"}', secret_binary=None,
                          description=None, tags=[{"Key": "aws:secretsmanager:owningService",
                                                   "Value": "rds"}], kms_key_id=None,
                          client_request_token=None, replica_regions=[],
                          force_overwrite=False)
    backend.create_secret("own", secret_string="x", secret_binary=None, description=None,
                          tags=[], kms_key_id=None, client_request_token=None,
                          replica_regions=[], force_overwrite=False)
    answer = json.loads(backend.rotate_secret("rds-db-1",
                                              rotation_rules={"AutomaticallyAfterDays": 7}))
    secret = backend.secrets["rds-db-1"]
    assert answer["Name"] == "rds-db-1"
    assert (secret.rotation_enabled, secret.auto_rotate_after_days) == (True, 7)
    assert secret.secret_string == '{"password": "p"}'
    assert backend.rotate_secret("own") == "refused"
    assert calls == ["own"]
