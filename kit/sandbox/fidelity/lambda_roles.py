"""Lambda: a function's execution role must be one Lambda may assume.

moto internals touched: moto.awslambda.models.LambdaStorage.put_function,
LambdaFunction.update_configuration, LambdaFunction.account_id, LambdaFunction.partition,
LambdaFunction.role, moto.awslambda.exceptions.InvalidParameterValueException,
moto.iam.models.iam_backends, IAMBackend.get_role_by_arn, Role.assume_role_policy_document.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import unquote


def execution_roles_must_trust_lambda() -> None:
    """CreateFunction and UpdateFunctionConfiguration refuse an execution role whose trust
    policy does not let lambda.amazonaws.com assume it (InvalidParameterValueException).

    AWS: the execution role's trust policy names `lambda.amazonaws.com` ("Defining Lambda
    function permissions with an execution role", Lambda developer guide); CreateFunction
    answers InvalidParameterValueException when "you provided an IAM role for Lambda to
    assume ... that Lambda is unable to assume" (Lambda API reference, CreateFunction,
    Errors). moto only checks that the role exists, so a function whose role trusts only
    the harness deployed and ran here, as it never would on AWS.

    The code is AWS's; the message is not, on purpose: the AWS provider retries AWS's
    message ("The role defined for the function cannot be assumed by Lambda.") for 5
    minutes, the time IAM takes to propagate a new role, and then fails; worded otherwise,
    the apply fails at once, as it ends on AWS. Whether the trust admits Lambda is decided
    by the kit's IAM evaluation (kit/iam/service.py), conditions included.
    """
    from moto.awslambda.exceptions import InvalidParameterValueException
    from moto.awslambda.models import LambdaFunction, LambdaStorage

    put = LambdaStorage.put_function
    if getattr(put, "_kit_trust_checked", False):
        return

    def refuse_untrusted(account: str, partition: str, role_arn: str) -> None:
        problem = _refusal(account, partition, role_arn)
        if problem:
            raise InvalidParameterValueException(problem)

    def put_function(self: Any, fn: Any) -> None:
        # A role that is malformed, of another account or missing: moto's answer.
        refuse_untrusted(fn.account_id, fn.partition, fn.role)
        put(self, fn)

    update = LambdaFunction.update_configuration

    def update_configuration(self: Any, config_updates: dict[str, Any]) -> Any:
        if "Role" in config_updates:
            refuse_untrusted(self.account_id, self.partition, config_updates["Role"])
        return update(self, config_updates)

    put_function._kit_trust_checked = True  # type: ignore[attr-defined]
    LambdaStorage.put_function = put_function  # type: ignore[method-assign]
    LambdaFunction.update_configuration = update_configuration  # type: ignore[method-assign]


def _refusal(account: str, partition: str, role_arn: str) -> str:
    """Why Lambda may not assume the role ("" when it may, or moto already answered)."""
    from moto.iam.models import iam_backends

    from kit.iam.service import LAMBDA, service_admits

    try:
        role = iam_backends[account][partition].get_role_by_arn(role_arn)
    except Exception:  # noqa: BLE001 - moto's put_function refuses a missing role
        return ""
    trust = role.assume_role_policy_document
    try:
        document = json.loads(unquote(trust)) if isinstance(trust, str) else trust
    except ValueError:
        document = {}
    now = time.time()
    decision = service_admits(document, LAMBDA, role_arn, account, (now, now))
    if decision.allowed:
        return ""
    return (f"Lambda cannot assume the execution role {role_arn}: its trust policy does not "
            f"let {LAMBDA} call sts:AssumeRole ({decision.reason or decision.effect}). AWS "
            "refuses such a function (the AWS provider retries for 5 minutes first).")
