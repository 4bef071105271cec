"""Secrets Manager rotation function for the ledger's PostgreSQL credentials.

Strategy: alternating users *without* master credentials.

The DBA creates two login roles before the application starts:

    <user>          owner of the ledger database, password P0
    <user>_clone    member of <user> (inherits its privileges), password P0

No role here has CREATEROLE, so a role can only change its *own* password
(ALTER ROLE CURRENT_USER ... PASSWORD). Each rotation therefore targets the
user that is *not* in AWSCURRENT (the "inactive" user):

    createSecret  copy AWSCURRENT, switch username to the inactive user, new
                  random password -> AWSPENDING
    setSecret     log in as the inactive user with the password it has now
                  (found in earlier versions of the secret) and change its own
                  password to the pending one
    testSecret    log in with the pending credentials, check they can do
                  everything the current credentials can
    finishSecret  move AWSCURRENT to the pending version (the old one becomes
                  AWSPREVIOUS)

The user the application is logged in as (AWSCURRENT) is never modified, so
logins with AWSCURRENT keep working throughout every step. After two
rotations the credentials that were AWSCURRENT before the first one no longer
log in: the second rotation changed that user's password.

The function never writes to the application's tables and never terminates
sessions: sessions already open keep working (PostgreSQL checks passwords at
login only) and the pool recycles them.
"""

import json
import logging
import os
import time

import boto3
import psycopg
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError
from psycopg import sql

logger = logging.getLogger()
logger.setLevel(logging.INFO)

AWSCURRENT = "AWSCURRENT"
AWSPENDING = "AWSPENDING"
AWSPREVIOUS = "AWSPREVIOUS"
STEPS = ("createSecret", "setSecret", "testSecret", "finishSecret")
REQUIRED_KEYS = ("host", "port", "username", "password", "dbname")

CLONE_SUFFIX = os.environ.get("CLONE_SUFFIX", "_clone")
PASSWORD_LENGTH = int(os.environ.get("PASSWORD_LENGTH", "40"))
EXCLUDE_CHARACTERS = os.environ.get("EXCLUDE_CHARACTERS", "")
PG_CONNECT_TIMEOUT = int(os.environ.get("PG_CONNECT_TIMEOUT", "5"))
PG_STATEMENT_TIMEOUT_MS = int(os.environ.get("PG_STATEMENT_TIMEOUT_MS", "5000"))
PG_SSLMODE = os.environ.get("PG_SSLMODE", "prefer")
PG_CONNECT_ATTEMPTS = int(os.environ.get("PG_CONNECT_ATTEMPTS", "3"))
PRIVILEGE_CHECK = os.environ.get("PRIVILEGE_CHECK", "true").lower() in ("1", "true", "yes")
# How many older versions of the secret setSecret may read while looking for
# the inactive user's present password (only after a failed rotation).
MAX_HISTORY_VERSIONS = int(os.environ.get("MAX_HISTORY_VERSIONS", "10"))
# Time kept in reserve before the Lambda deadline.
DEADLINE_MARGIN_S = 3.0
DEFAULT_BUDGET_S = 50.0

PG_IDENTIFIER_MAX = 63

_BOTO_CONFIG = Config(
    connect_timeout=5,
    read_timeout=10,
    retries={"max_attempts": 4, "mode": "standard"},
)
_clients = {}


class RotationError(Exception):
    """The rotation cannot proceed; the step fails and the rotation ends."""


class AuthenticationFailed(Exception):
    """The database refused the credentials (as opposed to being unreachable)."""


# --------------------------------------------------------------------- entry


def lambda_handler(event, context):
    step = event.get("Step")
    arn = event.get("SecretId")
    token = event.get("ClientRequestToken")
    if step not in STEPS:
        raise RotationError("invalid step %r" % (step,))
    if not arn or not token:
        raise RotationError("event must carry SecretId and ClientRequestToken")

    deadline = _deadline(context)
    sm = _client("secretsmanager", arn)

    metadata = sm.describe_secret(SecretId=arn)
    expected_arn = os.environ.get("SECRET_ARN")
    if expected_arn and metadata.get("ARN") != expected_arn:
        raise RotationError("this function rotates %s only, not %s" % (expected_arn, metadata.get("ARN")))
    if metadata.get("RotationEnabled") is False:
        # The function is pinned to one secret (SECRET_ARN and IAM), so a
        # manual invocation is allowed; just make it visible.
        logger.warning("rotation is not enabled on secret %s; rotating on request", arn)

    versions = metadata.get("VersionIdsToStages", {})
    if token not in versions:
        raise RotationError("version %s has no stage for rotation of secret %s" % (token, arn))
    if AWSCURRENT in versions[token]:
        logger.info("%s: version %s is already AWSCURRENT, nothing to do", step, token)
        return
    if AWSPENDING not in versions[token]:
        raise RotationError("version %s is not AWSPENDING for rotation of secret %s" % (token, arn))

    logger.info("%s: secret %s version %s", step, arn, token)
    if step == "createSecret":
        create_secret(sm, arn, token)
    elif step == "setSecret":
        set_secret(sm, arn, token, deadline)
    elif step == "testSecret":
        test_secret(sm, arn, token, deadline)
    else:
        finish_secret(sm, arn, token)


# --------------------------------------------------------------------- steps


def create_secret(sm, arn, token):
    current = get_secret(sm, arn, stage=AWSCURRENT)
    if current is None:
        raise RotationError("secret %s has no AWSCURRENT value" % arn)

    existing = get_secret(sm, arn, version_id=token, stage=AWSPENDING)
    if existing is not None:
        # A retried createSecret: keep the value already generated, so that a
        # password possibly set by an earlier setSecret stays valid.
        logger.info("createSecret: pending value already exists (user %s)", existing["username"])
        return

    pending = dict(current)
    pending["username"] = alternate_username(current["username"])
    pending["password"] = generate_password(sm)
    refresh_endpoint(pending, arn)

    sm.put_secret_value(
        SecretId=arn,
        ClientRequestToken=token,
        SecretString=json.dumps(pending),
        VersionStages=[AWSPENDING],
    )
    logger.info(
        "createSecret: pending version for user %s (current user %s)",
        pending["username"],
        current["username"],
    )


def set_secret(sm, arn, token, deadline):
    pending = require_secret(sm, arn, version_id=token, stage=AWSPENDING)
    current = require_secret(sm, arn, stage=AWSCURRENT)
    user = pending["username"]

    # Never touch the user the application is logged in as.
    if user == current["username"]:
        raise RotationError("pending user %s is the current user; refusing to change its password" % user)
    if user != alternate_username(current["username"]):
        raise RotationError(
            "pending user %s is not the alternate of the current user %s" % (user, current["username"])
        )

    # Retried setSecret: the password may already be the pending one.
    try:
        conn = connect(pending, pending["password"], deadline)
    except AuthenticationFailed:
        pass
    else:
        with conn:
            assert_logged_in_as(conn, user)
        logger.info("setSecret: %s already has the pending password", user)
        return

    tried = 0
    for label, password in known_passwords(sm, arn, token, user, current):
        if password == pending["password"]:
            continue
        tried += 1
        try:
            conn = connect(pending, password, deadline)
        except AuthenticationFailed:
            logger.info("setSecret: %s does not log in with the password of %s", user, label)
            continue
        with conn:
            assert_logged_in_as(conn, user)
            change_own_password(conn, user, pending["password"])
        logger.info("setSecret: changed the password of %s (logged in with the password of %s)", user, label)

        # The new password must work before testSecret/finishSecret rely on it.
        with connect(pending, pending["password"], deadline) as conn:
            assert_logged_in_as(conn, user)
        return

    raise RotationError(
        "setSecret: cannot log in as %s with any of %d known passwords; "
        "the DBA must reset it to the pending password" % (user, tried)
    )


def test_secret(sm, arn, token, deadline):
    pending = require_secret(sm, arn, version_id=token, stage=AWSPENDING)
    current = require_secret(sm, arn, stage=AWSCURRENT)
    user = pending["username"]

    with connect(pending, pending["password"], deadline, read_only=True) as conn:
        assert_logged_in_as(conn, user)
        conn.execute("SELECT 1").fetchone()
        if PRIVILEGE_CHECK and current["username"] != user:
            missing = missing_privileges(conn, reference_role=current["username"])
            if missing:
                raise RotationError(
                    "testSecret: %s lacks privileges %s has: %s"
                    % (user, current["username"], ", ".join(missing))
                )
    logger.info("testSecret: %s logs in and has the privileges of %s", user, current["username"])


def finish_secret(sm, arn, token):
    versions = sm.describe_secret(SecretId=arn).get("VersionIdsToStages", {})
    previous_current = next((v for v, stages in versions.items() if AWSCURRENT in stages), None)
    if previous_current == token:
        logger.info("finishSecret: version %s already AWSCURRENT", token)
        return

    kwargs = {"SecretId": arn, "VersionStage": AWSCURRENT, "MoveToVersionId": token}
    if previous_current:
        kwargs["RemoveFromVersionId"] = previous_current
    sm.update_secret_version_stage(**kwargs)
    logger.info("finishSecret: version %s is AWSCURRENT (was %s)", token, previous_current)

    if not previous_current:
        return
    # Secrets Manager moves AWSPREVIOUS itself when AWSCURRENT moves; make
    # sure of it, so the previous credentials stay findable for the next
    # rotation's setSecret.
    versions = sm.describe_secret(SecretId=arn).get("VersionIdsToStages", {})
    if AWSPREVIOUS in versions.get(previous_current, []):
        return
    kwargs = {"SecretId": arn, "VersionStage": AWSPREVIOUS, "MoveToVersionId": previous_current}
    holder = next((v for v, stages in versions.items() if AWSPREVIOUS in stages), None)
    if holder:
        kwargs["RemoveFromVersionId"] = holder
    sm.update_secret_version_stage(**kwargs)
    logger.info("finishSecret: labelled %s AWSPREVIOUS", previous_current)


# ------------------------------------------------------------ secret helpers


def get_secret(sm, arn, version_id=None, stage=None):
    """The version's value as a dict, or None if the version holds no value."""
    kwargs = {"SecretId": arn}
    if version_id:
        kwargs["VersionId"] = version_id
    if stage:
        kwargs["VersionStage"] = stage
    try:
        response = sm.get_secret_value(**kwargs)
    except ClientError as e:
        if e.response.get("Error", {}).get("Code") == "ResourceNotFoundException":
            return None
        raise
    if response.get("SecretString") is None:
        return None
    value = json.loads(response["SecretString"])
    validate_secret(value, version_id or stage)
    return value


def require_secret(sm, arn, version_id=None, stage=None):
    value = get_secret(sm, arn, version_id=version_id, stage=stage)
    if value is None:
        raise RotationError("secret %s has no value for %s" % (arn, version_id or stage))
    return value


def validate_secret(value, which):
    if not isinstance(value, dict):
        raise RotationError("secret value of %s is not a JSON object" % which)
    missing = [k for k in REQUIRED_KEYS if value.get(k) in (None, "")]
    if missing:
        raise RotationError("secret value of %s lacks %s" % (which, ", ".join(missing)))


def alternate_username(username):
    if CLONE_SUFFIX and username.endswith(CLONE_SUFFIX):
        alternate = username[: -len(CLONE_SUFFIX)]
    else:
        alternate = username + CLONE_SUFFIX
    if not alternate or len(alternate.encode()) > PG_IDENTIFIER_MAX:
        raise RotationError("cannot derive the alternate of user %s" % username)
    return alternate


def generate_password(sm):
    kwargs = {
        "PasswordLength": PASSWORD_LENGTH,
        # Letters and digits only: no quoting or URI-escaping issue in any
        # client's connection string; 40 alphanumerics are ~238 bits.
        "ExcludePunctuation": True,
        "IncludeSpace": False,
        "RequireEachIncludedType": True,
    }
    if EXCLUDE_CHARACTERS:
        kwargs["ExcludeCharacters"] = EXCLUDE_CHARACTERS
    return sm.get_random_password(**kwargs)["RandomPassword"]


def refresh_endpoint(secret, arn):
    """Point the new version at the instance's current Endpoint."""
    identifier = os.environ.get("DB_INSTANCE_IDENTIFIER")
    if not identifier:
        return
    try:
        instances = _client("rds", arn).describe_db_instances(DBInstanceIdentifier=identifier)["DBInstances"]
        endpoint = instances[0].get("Endpoint") or {}
    except (ClientError, BotoCoreError, IndexError) as e:
        # The current version's endpoint is still a valid fallback.
        logger.warning("createSecret: cannot describe DB instance %s, keeping endpoint: %s", identifier, e)
        return
    if endpoint.get("Address") and endpoint.get("Port"):
        if (endpoint["Address"], int(endpoint["Port"])) != (secret["host"], int(secret["port"])):
            logger.info("createSecret: endpoint changed to %s:%s", endpoint["Address"], endpoint["Port"])
        secret["host"] = endpoint["Address"]
        secret["port"] = int(endpoint["Port"])


def known_passwords(sm, arn, token, user, current):
    """Yield (label, password) candidates for the inactive user's present password.

    In order: AWSPREVIOUS (the last rotation that targeted this user), then
    AWSCURRENT (the clone starts with the first user's password), then older
    versions for this user, newest first (left by failed rotations).
    """
    seen = set()

    def fresh(password):
        if password in seen:
            return False
        seen.add(password)
        return True

    previous = get_secret(sm, arn, stage=AWSPREVIOUS)
    if previous is not None and previous["username"] == user and fresh(previous["password"]):
        yield AWSPREVIOUS, previous["password"]
    if fresh(current["password"]):
        yield AWSCURRENT, current["password"]

    try:
        history = []
        paginator = sm.get_paginator("list_secret_version_ids")
        for page in paginator.paginate(SecretId=arn, IncludeDeprecated=True):
            history.extend(page.get("Versions", []))
    except (ClientError, BotoCoreError) as e:
        logger.warning("setSecret: cannot list versions of %s: %s", arn, e)
        return
    history.sort(key=lambda v: v["CreatedDate"].timestamp() if v.get("CreatedDate") else 0.0, reverse=True)
    read = 0
    for version in history:
        stages = version.get("VersionStages") or []
        if version["VersionId"] == token or AWSCURRENT in stages or AWSPREVIOUS in stages:
            continue
        if read >= MAX_HISTORY_VERSIONS:
            break
        read += 1
        try:
            value = get_secret(sm, arn, version_id=version["VersionId"])
        except (RotationError, ValueError, ClientError) as e:
            logger.info("setSecret: skipping version %s: %s", version["VersionId"], brief(e))
            continue
        if value is not None and value["username"] == user and fresh(value["password"]):
            yield "version %s" % version["VersionId"], value["password"]


# ---------------------------------------------------------- database helpers


def connect(secret, password, deadline, read_only=False):
    """Log in as secret["username"] with password.

    Raises AuthenticationFailed if the server refuses the credentials; retries
    other (network, startup) failures with backoff within the deadline.
    """
    last_error = None
    for attempt in range(1, PG_CONNECT_ATTEMPTS + 1):
        remaining = deadline - time.monotonic()
        if remaining < 1:
            break
        try:
            conn = psycopg.connect(
                host=secret["host"],
                port=int(secret["port"]),
                dbname=secret["dbname"],
                user=secret["username"],
                password=password,
                connect_timeout=max(1, min(PG_CONNECT_TIMEOUT, int(remaining))),
                sslmode=PG_SSLMODE,
                application_name="secretsmanager-rotation",
                options=_session_options(read_only),
                autocommit=True,
            )
        except psycopg.OperationalError as e:
            if is_authentication_failure(e):
                raise AuthenticationFailed(brief(e)) from None
            last_error = e
            logger.warning(
                "login as %s failed (attempt %d/%d): %s",
                secret["username"], attempt, PG_CONNECT_ATTEMPTS, brief(e),
            )
            backoff = min(0.5 * 2 ** (attempt - 1), 4.0)
            if attempt < PG_CONNECT_ATTEMPTS and deadline - time.monotonic() > backoff + 1:
                time.sleep(backoff)
            continue
        return conn
    raise RotationError(
        "cannot reach the database as %s: %s" % (secret["username"], brief(last_error) if last_error else "out of time")
    )


def _session_options(read_only):
    # Bound every statement so a step can never hang on a lock until the
    # Lambda timeout; read-only sessions (testSecret) cannot write at all.
    # (Connection.read_only does not apply in autocommit mode.)
    options = [
        "-c statement_timeout=%d" % PG_STATEMENT_TIMEOUT_MS,
        "-c lock_timeout=%d" % PG_STATEMENT_TIMEOUT_MS,
        "-c idle_in_transaction_session_timeout=%d" % (2 * PG_STATEMENT_TIMEOUT_MS),
    ]
    if read_only:
        options.append("-c default_transaction_read_only=on")
    return " ".join(options)


def is_authentication_failure(error):
    if getattr(error, "sqlstate", None) in ("28P01", "28000"):
        return True
    message = str(error).lower()
    return "password authentication failed" in message or "authentication failed" in message or (
        "role" in message and "does not exist" in message
    )


def brief(error):
    """The last (most specific) line of an error message; never a password."""
    text = str(error).strip()
    return text.splitlines()[-1].strip() if text else type(error).__name__


def assert_logged_in_as(conn, user):
    current_user, session_user = conn.execute("SELECT current_user, session_user").fetchone()
    if current_user != user or session_user != user:
        raise RotationError("logged in as %s/%s, expected %s" % (session_user, current_user, user))


def change_own_password(conn, user, password):
    """ALTER ROLE CURRENT_USER ... PASSWORD, sending only a password verifier.

    Like psql's \\password, the password is hashed client-side (with the
    server's password_encryption) so the plaintext never reaches the server's
    logs or statistics views.
    """
    verifier = encrypt_password(conn, user, password)
    conn.execute(sql.SQL("ALTER ROLE CURRENT_USER WITH PASSWORD {}").format(sql.Literal(verifier)))


def encrypt_password(conn, user, password):
    try:
        return conn.pgconn.encrypt_password(password.encode(), user.encode()).decode()
    except (AttributeError, psycopg.Error) as e:
        logger.info("libpq cannot encrypt the password (%s); using SCRAM-SHA-256 directly", brief(e))
        return scram_sha_256_verifier(password)


def scram_sha_256_verifier(password, iterations=4096):
    """PostgreSQL's SCRAM-SHA-256 verifier (RFC 5802/7677) for an ASCII password."""
    import base64
    import hashlib
    import hmac

    salt = os.urandom(16)
    salted = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations)
    client_key = hmac.new(salted, b"Client Key", hashlib.sha256).digest()
    stored_key = hashlib.sha256(client_key).digest()
    server_key = hmac.new(salted, b"Server Key", hashlib.sha256).digest()
    b64 = lambda b: base64.b64encode(b).decode()  # noqa: E731
    return "SCRAM-SHA-256$%d:%s$%s:%s" % (iterations, b64(salt), b64(stored_key), b64(server_key))


_MISSING_PRIVILEGES_SQL = """
WITH schemas AS (
    SELECT oid, nspname FROM pg_catalog.pg_namespace
    WHERE nspname <> 'information_schema' AND nspname NOT LIKE 'pg\\_%%'
), relations AS (
    SELECT c.oid, c.relkind, s.nspname, c.relname
    FROM pg_catalog.pg_class c JOIN schemas s ON s.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
)
SELECT format('%%s on database %%I', p, current_database())
FROM unnest(ARRAY['CONNECT', 'CREATE', 'TEMPORARY']) AS p
WHERE has_database_privilege(%(ref)s, current_database(), p)
  AND NOT has_database_privilege(current_database(), p)
UNION ALL
SELECT format('%%s on schema %%I', p, s.nspname)
FROM schemas s CROSS JOIN unnest(ARRAY['USAGE', 'CREATE']) AS p
WHERE has_schema_privilege(%(ref)s, s.oid, p) AND NOT has_schema_privilege(s.oid, p)
UNION ALL
SELECT format('%%s on %%I.%%I', p, r.nspname, r.relname)
FROM relations r
CROSS JOIN unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) AS p
WHERE r.relkind <> 'S'
  AND has_table_privilege(%(ref)s, r.oid, p) AND NOT has_table_privilege(r.oid, p)
UNION ALL
SELECT format('%%s on sequence %%I.%%I', p, r.nspname, r.relname)
FROM relations r CROSS JOIN unnest(ARRAY['USAGE', 'SELECT', 'UPDATE']) AS p
WHERE r.relkind = 'S'
  AND has_sequence_privilege(%(ref)s, r.oid, p) AND NOT has_sequence_privilege(r.oid, p)
LIMIT 20
"""


def missing_privileges(conn, reference_role):
    """Privileges reference_role has in this database that the session user lacks.

    Read-only catalog queries: switching the application to a user that
    cannot do what it does now would break its writes.
    """
    return [row[0] for row in conn.execute(_MISSING_PRIVILEGES_SQL, {"ref": reference_role}).fetchall()]


# -------------------------------------------------------------------- plumbing


def _deadline(context):
    remaining_ms = None
    get_remaining = getattr(context, "get_remaining_time_in_millis", None)
    if callable(get_remaining):
        try:
            remaining_ms = float(get_remaining())
        except Exception:  # a stand-in context; fall back to the default budget
            remaining_ms = None
    budget = remaining_ms / 1000.0 - DEADLINE_MARGIN_S if remaining_ms else DEFAULT_BUDGET_S
    return time.monotonic() + max(budget, 1.0)


def _client(service, arn):
    if service not in _clients:
        region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
        if not region and arn.startswith("arn:"):
            region = arn.split(":")[3]
        _clients[service] = boto3.client(service, region_name=region or None, config=_BOTO_CONFIG)
    return _clients[service]
