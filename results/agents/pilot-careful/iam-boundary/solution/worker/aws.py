"""boto3 clients and error classification."""

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from . import settings


def _config(read_timeout: float, connect_timeout: float) -> Config:
    return Config(
        connect_timeout=connect_timeout,
        read_timeout=read_timeout,
        # No hidden retries: every retry is ours, paced and lease-aware.
        retries={"mode": "standard", "total_max_attempts": 1},
        max_pool_connections=settings.CAPACITY + 8,
        s3={"addressing_style": "path"},
        tcp_keepalive=True,
        # Only send/validate checksums where the API requires them: avoids the
        # default CRC32 / aws-chunked uploads some S3 endpoints do not accept.
        request_checksum_calculation="when_required",
        response_checksum_validation="when_required",
    )


class Clients:
    def __init__(self, env: settings.Env):
        session = boto3.session.Session(region_name=env.region)
        normal = _config(read_timeout=settings.RECEIVE_WAIT + 8, connect_timeout=3)
        quick = _config(read_timeout=1.5, connect_timeout=1)
        kw = {"endpoint_url": env.endpoint_url} if env.endpoint_url else {}
        self.sqs = session.client("sqs", config=normal, **kw)
        self.s3 = session.client("s3", config=normal, **kw)
        # For the shutdown path, which must finish inside the SIGKILL deadline.
        self.sqs_quick = session.client("sqs", config=quick, **kw)


def error_code(exc: BaseException) -> str:
    if isinstance(exc, ClientError):
        return str(exc.response.get("Error", {}).get("Code", ""))
    return type(exc).__name__


def http_status(exc: BaseException) -> int | None:
    if isinstance(exc, ClientError):
        return exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
    return None


# The receipt handle no longer designates a message we hold (deleted already,
# or visibility lapsed and it was received again). Not an access problem.
_STALE_RECEIPT = {
    "ReceiptHandleIsInvalid",
    "InvalidReceiptHandle",
    "AWS.SimpleQueueService.ReceiptHandleIsInvalid",
    "MessageNotInflight",
    "AWS.SimpleQueueService.MessageNotInflight",
}


def is_stale_receipt(exc: BaseException) -> bool:
    code = error_code(exc)
    if code in _STALE_RECEIPT:
        return True
    if code == "InvalidParameterValue":
        text = str(exc).lower()
        return "receipt" in text or "not available" in text or "does not exist" in text
    return False


def is_not_found(exc: BaseException) -> bool:
    return error_code(exc) in ("404", "NoSuchKey", "NotFound") or http_status(exc) == 404


# Errors about the caller's credentials (e.g. a revoked or narrowed session):
# never a reason to change how we write.
CREDENTIAL_ERRORS = {
    "AccessDenied",
    "AccessDeniedException",
    "ExpiredToken",
    "ExpiredTokenException",
    "InvalidToken",
    "InvalidAccessKeyId",
    "InvalidClientTokenId",
    "SignatureDoesNotMatch",
    "TokenRefreshRequired",
    "KMS.AccessDeniedException",
    "KMS.DisabledException",
    "KMS.KMSInvalidStateException",
}
