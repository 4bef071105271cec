"""IAM: the AWS managed policies every account has.

moto internals touched: moto.iam.aws_managed_policies.aws_managed_policies_data,
moto.iam.models.AWSManagedPolicy (its constructor's keywords),
IAMBackend._init_aws_policies, IAMBackend.partition, IAMBackend.account_id,
IAMBackend.region_name, IAMBackend.get_user,
moto.iam.responses.IamResponse.list_service_specific_credentials, IamResponse.backend,
moto.core.responses.ActionResult, BaseResponse._get_param.
"""

from __future__ import annotations

import functools
import json
from datetime import datetime
from typing import Any


@functools.cache
def _policy_specs() -> tuple[tuple[str, dict[str, Any]], ...]:
    """moto's catalogue of AWS managed policies as constructor arguments, parsed once."""
    from moto.iam.aws_managed_policies import aws_managed_policies_data

    return tuple((name, {"default_version_id": data.get("DefaultVersionId"),
                         "path": data.get("Path"), "document": json.dumps(data.get("Document")),
                         "create_date": datetime.fromisoformat(data["CreateDate"]),
                         "update_date": datetime.fromisoformat(data["UpdateDate"])})
                 for name, data in json.loads(aws_managed_policies_data).items())


def aws_managed_policies_exist() -> None:
    """AWS managed policies (arn:aws:iam::aws:policy/...) exist and can be attached.

    AWS (IAM User Guide, "AWS managed policies"): AWS creates and administers them; every
    account can attach them, e.g. ReadOnlyAccess or
    service-role/AmazonRDSEnhancedMonitoringRole. moto loads them only with
    MOTO_IAM_LOAD_MANAGED_POLICIES=true, and then parses its 4.7 MB catalogue again for
    every IAM backend it makes, one per partition (six), on every /moto-api/reset:
    1.6 s per reset instead of 3 ms. Here the catalogue is parsed once per process and
    loaded into the `aws` partition only (the sandbox's), which keeps a reset cheap; the
    setting itself is not needed, as this replaces the one place that reads it.
    """
    from moto.iam.models import AWSManagedPolicy, IAMBackend

    if getattr(IAMBackend._init_aws_policies, "_kit_fix", False):
        return

    def _init_aws_policies(self: Any) -> list[Any]:
        if self.partition != "aws":
            return []
        return [AWSManagedPolicy(name, account_id=self.account_id, region=self.region_name,
                                 **spec) for name, spec in _policy_specs()]

    _init_aws_policies._kit_fix = True  # type: ignore[attr-defined]
    IAMBackend._init_aws_policies = _init_aws_policies  # type: ignore[method-assign]


def service_specific_credentials_are_listed() -> None:
    """ListServiceSpecificCredentials answers, with an empty list for a user without any.

    AWS (IAM API reference, ListServiceSpecificCredentials): "Returns information about the
    service-specific credentials associated with the specified IAM user. If none exists,
    the operation returns an empty list"; a user that does not exist is NoSuchEntity. The
    AWS provider lists them to delete them before an aws_iam_user with force_destroy is
    deleted; moto has no service-specific credentials (none can be made there), and
    answered NotImplemented, so such a user could be made but never destroyed.
    """
    from moto.core.responses import ActionResult
    from moto.iam.responses import IamResponse

    if hasattr(IamResponse, "list_service_specific_credentials"):
        return

    def list_service_specific_credentials(self: Any) -> Any:
        name = self._get_param("UserName")
        if name:
            self.backend.get_user(name)  # NoSuchEntity, as AWS, for a user that is not there
        return ActionResult({"ServiceSpecificCredentials": []})

    IamResponse.list_service_specific_credentials = (  # type: ignore[attr-defined]
        list_service_specific_credentials)
