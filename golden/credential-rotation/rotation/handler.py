"""Rotation of the ledger application's PostgreSQL credentials, alternating users.

Secrets Manager invokes `handle` four times per rotation, with the same ClientRequestToken
(the new version's id): createSecret, setSecret, testSecret, finishSecret. Two users take
turns (the DBA made both; the second, `<user>_clone`, is a member of the first): the
rotation gives the user that is not AWSCURRENT a new password, so the credentials the
application holds keep working until it reads the new ones, and the user that was current
two rotations ago loses its old password. Each user sets its own password (ALTER ROLE
CURRENT_USER), logged in with the one it has: no master credentials. Every step is safe to
repeat.
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


def logs_in(creds: dict[str, Any]) -> bool:
    """Whether these credentials log in."""
    try:
        connect(creds).close()
        return True
    except psycopg.OperationalError:
        return False


def present_password(arn: str, user: str) -> str:
    """The password `user` has before this rotation: AWSPREVIOUS's when that version names
    it (it was current two rotations ago), else AWSCURRENT's (the first rotation: the DBA
    gave the second user the first version's password)."""
    try:
        previous = value(arn, "AWSPREVIOUS")
    except secrets.exceptions.ResourceNotFoundException:
        previous = {}
    return previous["password"] if previous.get("username") == user \
        else value(arn, "AWSCURRENT")["password"]


def set_secret(arn: str, token: str) -> None:
    """The pending user's new password, set by that user itself (nothing to do when the
    pending credentials already log in: a repeated step)."""
    pending = value(arn, "AWSPENDING", token)
    if logs_in(pending):
        return
    present = present_password(arn, pending["username"])
    with connect({**pending, "password": present}) as conn:
        conn.execute(sql.SQL("alter role current_user with password {}").format(
            sql.Literal(pending["password"])))


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
