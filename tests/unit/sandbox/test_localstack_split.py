"""The LocalStack split's pure parts: which lookups moto's RDS makes on the primary, which
answers mean "no such resource", which ids a watched EC2 lookup was given."""

from __future__ import annotations

import pytest

from kit.sandbox.localstack import SERVICES
from kit.sandbox.localstack_split import ENV_PEER, ENV_SERVICES, not_found, settings
from kit.sandbox.localstack_unseen import _ids


def test_beside_localstack_rds_looks_up_ec2_kms_and_secrets_manager_there() -> None:
    assert settings("http://127.0.0.1:9", SERVICES) == {
        ENV_PEER: "http://127.0.0.1:9", ENV_SERVICES: "ec2,kms,secretsmanager"}


def test_a_primary_that_serves_only_some_of_them_is_asked_for_those_only() -> None:
    assert settings("http://x", frozenset({"sqs", "kms"}))[ENV_SERVICES] == "kms"
    assert settings("http://x", frozenset({"sqs"})) == {}  # moto keeps its own EC2 and KMS
    assert settings("http://x", None)[ENV_SERVICES] == "ec2,kms,secretsmanager"


@pytest.mark.parametrize(("code", "missing"), [
    ("InvalidSubnetID.NotFound", True), ("InvalidVpcID.NotFound", True),
    ("InvalidGroup.NotFound", True), ("NotFoundException", True),
    ("ResourceNotFoundException", True),
    ("InvalidLaunchTemplateName.NotFoundException", True),
    ("InternalError", False), ("AccessDenied", False), ("ValidationException", False),
])
def test_only_a_not_found_answer_means_the_resource_is_missing(code: str,
                                                               missing: bool) -> None:
    assert not_found(code) is missing


def test_the_ids_of_a_lookup_by_one_id_or_by_a_list() -> None:
    assert _ids(("subnet-1",), {}, None) == ["subnet-1"]
    assert _ids((), {"subnet_ids": ["subnet-1", "subnet-2"]}, "subnet_ids") == [
        "subnet-1", "subnet-2"]
    assert _ids((["sg-1"],), {}, "group_ids") == ["sg-1"]
    assert _ids((), {}, "group_ids") == []
