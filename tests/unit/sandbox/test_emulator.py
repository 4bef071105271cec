"""Routes: the primary emulator serves what it can, the fallback (moto) the rest."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from kit.deploy.override import sdk_env_name
from kit.sandbox.emulator import Routes


@dataclass
class _Emulator:
    name: str
    url: str
    services: frozenset[str] | None
    admin_paths: tuple[str, ...]
    account_id: str = "123456789012"


MOTO = _Emulator("moto", "http://127.0.0.1:1", None, ("/moto-api",))
LOCALSTACK = _Emulator("localstack", "http://127.0.0.1:2", frozenset({"sqs", "iam", "sts"}),
                       ("/_localstack", "/_aws"))


def test_a_service_the_primary_lacks_goes_to_the_fallback_only() -> None:
    routes = Routes(LOCALSTACK, MOTO)
    assert routes.url("sqs") == LOCALSTACK.url
    assert routes.url("rds") == MOTO.url
    assert routes.away_from_primary(["sqs", "rds", "iam"]) == {"rds": MOTO.url}
    assert routes.served_by(["sts", "rds", "sqs"]) == {
        "rds": "moto", "sqs": "localstack", "sts": "localstack"}


def test_moto_alone_serves_everything() -> None:
    routes = Routes(MOTO)
    assert routes.url("rds") == routes.url("sqs") == MOTO.url
    assert routes.away_from_primary(["rds", "sqs"]) == {}


def test_the_gateway_refuses_the_admin_api_of_every_emulator_behind_it() -> None:
    assert Routes(LOCALSTACK, MOTO).admin_paths == ("/_localstack", "/_aws", "/moto-api")
    assert Routes(MOTO).admin_paths == ("/moto-api",)


@pytest.mark.parametrize("service, name", [
    ("rds", "AWS_ENDPOINT_URL_RDS"), ("secretsmanager", "AWS_ENDPOINT_URL_SECRETS_MANAGER"),
    ("logs", "AWS_ENDPOINT_URL_CLOUDWATCH_LOGS"),
    ("elbv2", "AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2"),
])
def test_per_service_variables_are_named_after_the_service_id(service: str, name: str) -> None:
    assert sdk_env_name(service) == name
