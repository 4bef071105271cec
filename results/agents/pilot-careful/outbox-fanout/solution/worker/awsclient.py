"""SQS and SNS calls, single attempt each, paced by one Gate per service.

botocore's own retries are switched off (total_max_attempts=1): a retry is
always a decision of the caller, made after the gate lets it through, so the
pacing holds for the whole process whichever thread calls.
"""

import logging

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from .pacing import Gate

log = logging.getLogger("worker.aws")

# Answers to a DeleteMessage / ChangeMessageVisibility that mean "this receipt
# handle no longer designates a message you hold" (deleted, or its visibility
# already ran out): the service is up, the request just cannot succeed.
RECEIPT_GONE = frozenset({
    "ReceiptHandleIsInvalid",
    "InvalidReceiptHandle",
    "MessageNotInflight",
    "AWS.SimpleQueueService.MessageNotInflight",
    "InvalidParameterValue",
})


class AwsUnavailable(Exception):
    """Not done now (refused, unreachable, timed out, or held back by the gate)."""


class Rejected(Exception):
    """The service answered that this request can never succeed as sent."""

    def __init__(self, code, message=""):
        super().__init__("%s %s" % (code, message))
        self.code = code


def _config(connect, read):
    return Config(
        connect_timeout=connect,
        read_timeout=read,
        retries={"total_max_attempts": 1, "mode": "standard"},
        max_pool_connections=16,
    )


class Aws:
    def __init__(self):
        normal = _config(2, 6)   # read timeout > receive long-poll wait
        quick = _config(1, 1.5)  # used during shutdown
        self.sqs = boto3.client("sqs", config=normal)
        self.sns = boto3.client("sns", config=normal)
        self.sqs_quick = boto3.client("sqs", config=quick)
        self.sqs_gate = Gate("sqs")
        self.sns_gate = Gate("sns")

    def call(self, gate, fn, gone=frozenset(), ignore_gate=False, **kwargs):
        """One attempt. Raises AwsUnavailable (counted as a failure by the gate,
        which paces the next attempt), or Rejected for an error code in `gone`."""
        if not ignore_gate and not gate.attempt():
            raise AwsUnavailable("%s: backing off" % gate.name)
        try:
            result = fn(**kwargs)
        except ClientError as e:
            err = e.response.get("Error", {}) if hasattr(e, "response") else {}
            code = str(err.get("Code", ""))
            if code in gone:
                gate.success()
                raise Rejected(code, str(err.get("Message", ""))) from e
            gate.failure()
            raise AwsUnavailable("%s: %s %s" % (gate.name, code, err.get("Message", ""))) from e
        except Exception as e:  # connection refused/reset, timeouts, ...
            gate.failure()
            raise AwsUnavailable("%s: %s: %s" % (gate.name, type(e).__name__, e)) from e
        gate.success()
        return result
