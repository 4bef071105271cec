"""SQS clients and error classification."""

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from . import config

# The receipt handle no longer designates a message we hold: it was deleted, or its lease
# ran out (and it may have been received by someone else). Retrying cannot help.
_HANDLE_GONE = (
    "ReceiptHandleIsInvalid",
    "MessageNotInflight",
    "InvalidParameterValue",  # what SQS answers for an expired handle on a visibility change
)


def make_clients():
    """Separate clients (one per thread of use, one for the last calls at shutdown).

    botocore's own retries are disabled: every retry is paced by our back-off, so a
    refusal never turns into a burst of calls.
    """
    session = boto3.session.Session()

    def client(connect, read):
        return session.client(
            "sqs",
            endpoint_url=config.AWS_ENDPOINT_URL,
            config=Config(
                connect_timeout=connect,
                read_timeout=read,
                retries={"total_max_attempts": 1, "mode": "standard"},
                max_pool_connections=2,
            ),
        )

    return {
        "receive": client(config.AWS_CONNECT_TIMEOUT, config.RECEIVE_WAIT + config.AWS_READ_TIMEOUT),
        "main": client(config.AWS_CONNECT_TIMEOUT, config.AWS_READ_TIMEOUT),
        "keeper": client(config.AWS_CONNECT_TIMEOUT, config.AWS_READ_TIMEOUT),
        "shutdown": client(config.AWS_SHUTDOWN_CONNECT_TIMEOUT, config.AWS_SHUTDOWN_READ_TIMEOUT),
    }


def error_code(exc):
    if isinstance(exc, ClientError):
        return str(exc.response.get("Error", {}).get("Code", ""))
    return ""


def handle_gone(exc):
    code = error_code(exc)
    return any(marker in code for marker in _HANDLE_GONE)


def describe(exc):
    code = error_code(exc)
    if code:
        return f"{code}: {exc.response.get('Error', {}).get('Message', '')}"
    return f"{type(exc).__name__}: {exc}"
