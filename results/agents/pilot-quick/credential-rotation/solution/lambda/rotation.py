"""Secrets Manager rotation function for the ledger's PostgreSQL credentials.

Alternating-users strategy without master credentials: the secret alternates
between <user> and <user>_clone. Each user can only change its own password, so
setSecret logs in as the *inactive* user (with the password it last had) and
changes its own password to the new one. The active user is never touched, so
the application keeps working throughout.
"""
import json
import logging
import os

import boto3
import psycopg
from psycopg import sql

logger = logging.getLogger()
logger.setLevel(logging.INFO)

CLONE_SUFFIX = "_clone"
sm = boto3.client("secretsmanager")


def lambda_handler(event, context):
    arn = event["SecretId"]
    token = event["ClientRequestToken"]
    step = event["Step"]

    metadata = sm.describe_secret(SecretId=arn)
    versions = metadata.get("VersionIdsToStages", {})
    if token not in versions:
        raise ValueError("Secret version %s has no stage for rotation of secret %s." % (token, arn))
    if "AWSCURRENT" in versions[token]:
        logger.info("Version %s already AWSCURRENT for %s", token, arn)
        return
    if "AWSPENDING" not in versions[token]:
        raise ValueError("Secret version %s not set as AWSPENDING for rotation of secret %s." % (token, arn))

    if step == "createSecret":
        create_secret(arn, token)
    elif step == "setSecret":
        set_secret(arn, token)
    elif step == "testSecret":
        test_secret(arn, token)
    elif step == "finishSecret":
        finish_secret(arn, token, versions)
    else:
        raise ValueError("Invalid step parameter %s" % step)


def get_secret(arn, stage=None, token=None):
    kwargs = {"SecretId": arn}
    if token:
        kwargs["VersionId"] = token
    if stage:
        kwargs["VersionStage"] = stage
    return json.loads(sm.get_secret_value(**kwargs)["SecretString"])


def create_secret(arn, token):
    current = get_secret(arn, "AWSCURRENT")
    try:
        get_secret(arn, "AWSPENDING", token)
        logger.info("createSecret: pending version already exists")
        return
    except sm.exceptions.ResourceNotFoundException:
        pass
    pending = dict(current)
    user = current["username"]
    if user.endswith(CLONE_SUFFIX):
        pending["username"] = user[: -len(CLONE_SUFFIX)]
    else:
        pending["username"] = user + CLONE_SUFFIX
    pending["password"] = sm.get_random_password(
        PasswordLength=int(os.environ.get("PASSWORD_LENGTH", "32")),
        ExcludePunctuation=True,
    )["RandomPassword"]
    sm.put_secret_value(
        SecretId=arn,
        ClientRequestToken=token,
        SecretString=json.dumps(pending),
        VersionStages=["AWSPENDING"],
    )
    logger.info("createSecret: created pending version for user %s", pending["username"])


def connect(secret, password):
    return psycopg.connect(
        host=secret["host"],
        port=int(secret["port"]),
        dbname=secret["dbname"],
        user=secret["username"],
        password=password,
        connect_timeout=5,
        autocommit=True,
    )


def try_connect(secret, password):
    try:
        return connect(secret, password)
    except psycopg.OperationalError as e:
        logger.info("login as %s failed: %s", secret["username"], str(e).splitlines()[0] if str(e) else e)
        return None


def set_secret(arn, token):
    pending = get_secret(arn, "AWSPENDING", token)
    current = get_secret(arn, "AWSCURRENT")
    if pending["username"] == current["username"]:
        raise ValueError("Pending user must differ from the current user")

    conn = try_connect(pending, pending["password"])
    if conn:
        conn.close()
        logger.info("setSecret: password already set")
        return

    candidates = []
    try:
        previous = get_secret(arn, "AWSPREVIOUS")
        if previous.get("username") == pending["username"]:
            candidates.append(previous["password"])
    except sm.exceptions.ResourceNotFoundException:
        pass
    # The clone initially shares the current user's password.
    candidates.append(current["password"])

    for pw in candidates:
        conn = try_connect(pending, pw)
        if conn:
            with conn:
                conn.execute(
                    sql.SQL("ALTER ROLE CURRENT_USER WITH PASSWORD {}").format(sql.Literal(pending["password"]))
                )
            logger.info("setSecret: password changed for %s", pending["username"])
            return
    raise ValueError("setSecret: could not log in as %s with any known password" % pending["username"])


def test_secret(arn, token):
    pending = get_secret(arn, "AWSPENDING", token)
    with connect(pending, pending["password"]) as conn:
        row = conn.execute("SELECT current_user").fetchone()
    if row[0] != pending["username"]:
        raise ValueError("testSecret: logged in as unexpected user %s" % row[0])
    logger.info("testSecret: login as %s works", pending["username"])


def finish_secret(arn, token, versions):
    current_version = None
    for version, stages in versions.items():
        if "AWSCURRENT" in stages:
            if version == token:
                return
            current_version = version
            break
    sm.update_secret_version_stage(
        SecretId=arn,
        VersionStage="AWSCURRENT",
        MoveToVersionId=token,
        RemoveFromVersionId=current_version,
    )
    logger.info("finishSecret: version %s is now AWSCURRENT", token)
