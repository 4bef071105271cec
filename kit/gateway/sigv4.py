"""SigV4 verification: recompute a received request's signature with botocore's own signer.

The canonical request, string to sign and signing key come from botocore's `SigV4Auth`
(`S3SigV4Auth` for S3, which signs the path as sent and the `X-Amz-Content-SHA256` value),
fed with what arrived on the wire: the same method, path and query, the headers the client
listed in `SignedHeaders` with their received values, the body, and the client's
`X-Amz-Date`. Only header selection is ours: the signature covers exactly the headers the
client named (botocore's signer would otherwise drop some names, e.g. `user-agent`, that
another SDK may sign).
"""

from __future__ import annotations

import hmac
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from hashlib import sha256

from botocore.auth import S3SigV4Auth, SigV4Auth
from botocore.awsrequest import AWSRequest, HTTPHeaders
from botocore.credentials import Credentials

ALGORITHM = "AWS4-HMAC-SHA256"
# SQS, SNS, STS and IAM refuse a request whose X-Amz-Date is more than 15 minutes from their
# clock, with SignatureDoesNotMatch "Signature expired: <date> is now earlier than <limit>
# (<now> - 15 min.)" (AWS General Reference, "Signature Version 4 signing process": the
# request must reach AWS within the allowed window of its time stamp, to guard against
# replay). botocore does not correct for a skewed clock (boto/boto3#1252).
MAX_SKEW = timedelta(minutes=15)
# Payload markers that stand in for the body hash (S3 streaming and unsigned uploads).
_UNHASHED = ("UNSIGNED-PAYLOAD", "STREAMING-")
_AUTH = re.compile(
    r"^AWS4-HMAC-SHA256\s+Credential=(?P<cred>[^,\s]+)\s*,\s*"
    r"SignedHeaders=(?P<signed>[^,\s]+)\s*,\s*Signature=(?P<sig>[0-9a-fA-F]+)\s*$")
_DATE_FORMAT = "%Y%m%dT%H%M%SZ"


class Clock:
    """AWS's clock as each caller's signatures are judged against: the real one, or one
    `offset` behind for the processes a clock_skew fault targets (their clock is `offset`
    ahead of AWS's, which is what AWS sees of a host whose clock is wrong)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._offset = timedelta(0)
        self._applies: Callable[[str], bool] = lambda process: False

    def skew(self, offset: timedelta, applies: Callable[[str], bool]) -> None:
        """From now on, callers for whom `applies(process)` holds are `offset` ahead of AWS."""
        with self._lock:
            self._offset, self._applies = offset, applies

    def reset(self) -> None:
        """Every caller agrees with AWS again (idempotent)."""
        self.skew(timedelta(0), lambda process: False)

    def now(self, process: str) -> datetime:
        """AWS's time as a request of `process` is judged."""
        with self._lock:
            offset, applies = self._offset, self._applies
        return datetime.now(UTC) - (offset if applies(process) else timedelta(0))


class AuthFailure(Exception):
    """The request is not authenticated; `code` is the AWS (query protocol) error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Authorization:
    """The parts of a SigV4 Authorization header."""

    access_key_id: str
    date: str  # YYYYMMDD of the credential scope
    region: str
    service: str
    signed_headers: tuple[str, ...]
    signature: str


def parse_authorization(header: str | None) -> Authorization | None:
    """The parsed Authorization header; None when it is absent."""
    if not header:
        return None
    found = _AUTH.match(header.strip())
    if found is None:
        raise AuthFailure("IncompleteSignature",
                          f"Authorization header requires {ALGORITHM} with Credential, "
                          "SignedHeaders and Signature")
    scope = found.group("cred").split("/")
    if len(scope) != 5 or scope[4] != "aws4_request":
        raise AuthFailure("IncompleteSignature",
                          "Credential must be <key>/<date>/<region>/<service>/aws4_request, "
                          f"got {found.group('cred')!r}")
    signed = tuple(found.group("signed").lower().split(";"))
    return Authorization(scope[0], scope[1], scope[2], scope[3], signed,
                         found.group("sig").lower())


class _Signer(SigV4Auth):
    """botocore's SigV4 signer, signing exactly the headers the client listed."""

    def __init__(self, credentials: Credentials, service: str, region: str,
                 signed: tuple[str, ...]) -> None:
        super().__init__(credentials, service, region)
        self._signed = signed

    def headers_to_sign(self, request: AWSRequest) -> HTTPHeaders:
        out = HTTPHeaders()
        for name in self._signed:
            for value in request.headers.get_all(name) or ():
                out[name] = value
        return out


class _S3Signer(_Signer, S3SigV4Auth):
    """The S3 variant: the path is signed as sent, the payload hash comes from a header."""


def verify(auth: Authorization, secret_access_key: str, method: str, path: str,
           headers: dict[str, str], body: bytes, *, now: datetime | None = None) -> None:
    """Raise AuthFailure unless `auth` signs this request with `secret_access_key`."""
    amz_date = headers.get("x-amz-date", "")
    try:
        signed_at = datetime.strptime(amz_date, _DATE_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        raise AuthFailure("IncompleteSignature",
                          f"X-Amz-Date must be YYYYMMDDTHHMMSSZ, got {amz_date!r}") from None
    if amz_date[:8] != auth.date:
        raise AuthFailure("SignatureDoesNotMatch",
                          f"Date in Credential scope does not match YYYYMMDD from ISO-8601 "
                          f"version of date from HTTP: {auth.date!r} != {amz_date[:8]!r}")
    now = now or datetime.now(UTC)
    stamp, minutes = now.strftime(_DATE_FORMAT), int(MAX_SKEW.total_seconds() // 60)
    if signed_at < now - MAX_SKEW:
        raise AuthFailure("SignatureDoesNotMatch", f"Signature expired: {amz_date} is now "
                          f"earlier than {(now - MAX_SKEW).strftime(_DATE_FORMAT)} "
                          f"({stamp} - {minutes} min.)")
    if signed_at > now + MAX_SKEW:
        raise AuthFailure("SignatureDoesNotMatch", f"Signature not yet current: {amz_date} is "
                          f"still later than {(now + MAX_SKEW).strftime(_DATE_FORMAT)} "
                          f"({stamp} + {minutes} min.)")
    if "host" not in auth.signed_headers:
        raise AuthFailure("SignatureDoesNotMatch", "the host header must be signed")
    missing = [name for name in auth.signed_headers if name not in headers]
    if missing:
        raise AuthFailure("SignatureDoesNotMatch",
                          f"signed header(s) {', '.join(missing)} are not in the request")
    declared = headers.get("x-amz-content-sha256")
    # The signature covers the declared hash, so the body must match it (S3 signs this way).
    if declared and not declared.startswith(_UNHASHED) \
            and declared != sha256(body).hexdigest():
        raise AuthFailure("XAmzContentSHA256Mismatch" if auth.service == "s3"
                          else "SignatureDoesNotMatch",
                          "the x-amz-content-sha256 header does not match the body")
    request = AWSRequest(method=method, url=f"http://{headers['host']}{path}",
                         headers={name: headers[name] for name in auth.signed_headers},
                         data=body)
    request.context["timestamp"] = amz_date
    kind = _S3Signer if auth.service == "s3" else _Signer
    signer = kind(Credentials(auth.access_key_id, secret_access_key), auth.service,
                  auth.region, auth.signed_headers)
    canonical = signer.canonical_request(request)
    expected = signer.signature(signer.string_to_sign(request, canonical), request)
    if not hmac.compare_digest(expected, auth.signature):
        raise AuthFailure("SignatureDoesNotMatch",
                          "The request signature we calculated does not match the signature "
                          "you provided. Check your AWS Secret Access Key and signing method.")
