"""Error replies in the wire format each client expects, so SDKs parse the right error code.

Codes are given in their query-protocol spelling (AccessDenied, InvalidClientTokenId,
SignatureDoesNotMatch, IncompleteSignature, MissingAuthenticationToken) and translated here:
- SQS JSON is "query compatible": botocore takes the code from the `x-amzn-query-error`
  header, so `ClientError.response["Error"]["Code"]` is the query code, as on real SQS.
- Secrets Manager (plain JSON) uses its own names: AccessDeniedException,
  UnrecognizedClientException, InvalidSignatureException, ...
- S3 (REST-XML) calls an unknown key InvalidAccessKeyId; HEAD replies carry no body.
- IAM, STS, RDS and SQS query: an `ErrorResponse` XML document.
"""

from __future__ import annotations

import json
import uuid
from xml.sax.saxutils import escape

Reply = tuple[int, dict[str, str], bytes]

# Query code -> JSON protocol __type (Secrets Manager, and SQS JSON's body).
_JSON_TYPES = {"AccessDenied": "AccessDeniedException",
               "InvalidClientTokenId": "UnrecognizedClientException",
               "SignatureDoesNotMatch": "InvalidSignatureException",
               "IncompleteSignature": "IncompleteSignatureException",
               "MissingAuthenticationToken": "MissingAuthenticationTokenException"}
_S3_CODES = {"InvalidClientTokenId": "InvalidAccessKeyId",
             "MissingAuthenticationToken": "AccessDenied",
             "IncompleteSignature": "AuthorizationHeaderMalformed"}
_STATUS = {"AccessDenied": 403, "InvalidClientTokenId": 403, "SignatureDoesNotMatch": 403,
           "IncompleteSignature": 400, "MissingAuthenticationToken": 403,
           "XAmzContentSHA256Mismatch": 400, "AuthorizationError": 403}


def error(service: str, protocol: str, code: str, message: str, *, head: bool = False,
          status: int | None = None) -> Reply:
    """An error reply for `code` in the protocol of `service` (`status`: its usual one)."""
    status = status or _STATUS.get(code, 400)
    request_id = str(uuid.uuid4())
    if protocol == "json" and service == "sqs":
        body = {"__type": f"com.amazon.coral.service#{_JSON_TYPES.get(code, code)}",
                "message": message}
        return status, {"Content-Type": "application/x-amz-json-1.0",
                        "x-amzn-query-error": f"{code};Sender",
                        "x-amzn-RequestId": request_id}, json.dumps(body).encode()
    if protocol == "json":
        json_type = _JSON_TYPES.get(code, code)
        # Plain-JSON AWS services answer AccessDeniedException with 400.
        status = 400 if json_type == "AccessDeniedException" else status
        return status, {"Content-Type": "application/x-amz-json-1.1",
                        "x-amzn-RequestId": request_id}, json.dumps(
            {"__type": json_type, "Message": message}).encode()
    if protocol == "rest-xml":
        code = _S3_CODES.get(code, code)
        xml = (f'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>{code}</Code>'
               f"<Message>{escape(message)}</Message><RequestId>{request_id}</RequestId>"
               "</Error>")
        return status, {"Content-Type": "application/xml", "x-amz-request-id": request_id}, (
            b"" if head else xml.encode())
    xml = (f"<ErrorResponse><Error><Type>Sender</Type><Code>{code}</Code>"
           f"<Message>{escape(message)}</Message></Error><RequestId>{request_id}</RequestId>"
           "</ErrorResponse>")
    return status, {"Content-Type": "text/xml", "x-amzn-RequestId": request_id}, xml.encode()


def access_denied_message(principal: str, action: str, resource: str, reason: str) -> str:
    """AWS's AccessDenied wording, with the evaluator's reason for the decision."""
    return (f"User: {principal} is not authorized to perform: {action} on resource: "
            f"{resource} because {reason}")
