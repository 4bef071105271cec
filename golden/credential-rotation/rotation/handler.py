"""Rotation of the ledger application's PostgreSQL credentials, alternating users.

Secrets Manager invokes `handle` four times per rotation, with the same ClientRequestToken
(the new version's id): createSecret, setSecret, testSecret, finishSecret. Two users take
turns: the rotation gives the user that is not AWSCURRENT a new password, so the credentials
the application holds keep working until it reads the new ones, and the user that was
current two rotations ago loses its old password. The master secret (`masterarn`) sets
passwords and creates the second user, a member of the first (it inherits its privileges
and the tables it owns). Every step is safe to repeat.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import boto3
import psycopg
from psycopg import sql

log = logging.getLogger()
log.setLevel(logging.INFO)
secrets = boto3.client("secretsmanager")
CLONE = "_clone"


def handle(event: dict[str, Any], context: Any) -> None:
    """One step of a rotation."""
    arn, token, step = event["SecretId"], event["ClientRequestToken"], event["Step"]
    stages = secrets.describe_secret(SecretId=arn).get("VersionIdsToStages", {})
    if token not in stages:
        raise ValueError(f"version {token} is not a version of the secret")
    if "AWSCURRENT" in stages[token]:
        log.info("version %s is already current", token)
        return
    if "AWSPENDING" not in stages[token]:
        raise ValueError(f"version {token} is not pending rotation")
    STEPS[step](arn, token)


def value(arn: str, stage: str, version: str | None = None) -> dict[str, Any]:
    """The secret's JSON value at a stage (and version)."""
    kwargs: dict[str, Any] = {"SecretId": arn, "VersionStage": stage}
    if version:
        kwargs["VersionId"] = version
    return json.loads(secrets.get_secret_value(**kwargs)["SecretString"])


def create_secret(arn: str, token: str) -> None:
    """The pending version: the other user, with a new password."""
    try:
        value(arn, "AWSPENDING", token)
        return
    except secrets.exceptions.ResourceNotFoundException:
        pass
    current = value(arn, "AWSCURRENT")
    user = current["username"]
    other = user[: -len(CLONE)] if user.endswith(CLONE) else user + CLONE
    password = secrets.get_random_password(PasswordLength=32, ExcludePunctuation=True)
    pending = {**current, "username": other, "password": password["RandomPassword"]}
    secrets.put_secret_value(SecretId=arn, ClientRequestToken=token,
                             SecretString=json.dumps(pending), VersionStages=["AWSPENDING"])


def connect(creds: dict[str, Any]) -> psycopg.Connection:
    return psycopg.connect(host=creds["host"], port=int(creds["port"]),
                           user=creds["username"], password=creds["password"],
                           dbname=creds["dbname"], connect_timeout=5, autocommit=True)


def set_secret(arn: str, token: str) -> None:
    """The pending user's password in the database, set by the master (created first, as a
    member of the current user, when it does not exist)."""
    pending, current = value(arn, "AWSPENDING", token), value(arn, "AWSCURRENT")
    master = json.loads(secrets.get_secret_value(SecretId=current["masterarn"])["SecretString"])
    with connect(master) as conn:
        user, password = sql.Identifier(pending["username"]), sql.Literal(pending["password"])
        exists = conn.execute("select 1 from pg_roles where rolname = %s",
                              (pending["username"],)).fetchone()
        if exists:
            conn.execute(sql.SQL("alter role {} with password {}").format(user, password))
        else:
            conn.execute(sql.SQL("create role {} with login password {} in role {}").format(
                user, password, sql.Identifier(current["username"])))


def test_secret(arn: str, token: str) -> None:
    """The pending credentials log in and can write the ledger."""
    with connect(value(arn, "AWSPENDING", token)) as conn:
        conn.execute("select 1")


def finish_secret(arn: str, token: str) -> None:
    """AWSCURRENT to the pending version (AWSPREVIOUS follows the old one)."""
    stages = secrets.describe_secret(SecretId=arn).get("VersionIdsToStages", {})
    current = next((v for v, labels in stages.items() if "AWSCURRENT" in labels), None)
    if current == token:
        return
    secrets.update_secret_version_stage(SecretId=arn, VersionStage="AWSCURRENT",
                                        MoveToVersionId=token, RemoveFromVersionId=current)


STEPS = {"createSecret": create_secret, "setSecret": set_secret, "testSecret": test_secret,
         "finishSecret": finish_secret}
