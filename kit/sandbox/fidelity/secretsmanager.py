"""Secrets Manager: rotation on a schedule, and managed rotation, as AWS runs them.

moto internals touched:
moto.secretsmanager.models.SecretsManagerBackend.cancel_rotate_secret,
SecretsManagerBackend.rotate_secret, SecretsManagerBackend.update_secret_version_stage,
SecretsManagerBackend.secrets, SecretsManagerBackend._is_valid_identifier,
SecretsManagerBackend.account_id, SecretsManagerBackend.region_name,
moto.secretsmanager.models.FakeSecret.to_dict, FakeSecret.to_short_dict,
FakeSecret.is_deleted, FakeSecret.rotation_enabled, FakeSecret.rotation_lambda_arn,
FakeSecret.rotation_requested, FakeSecret.auto_rotate_after_days, FakeSecret.versions,
FakeSecret.remove_version_stages_from_old_versions, FakeSecret.set_default_version_id,
FakeSecret.kit_rotation_rules, moto.moto_api._internal.mock_random.uuid4,
moto.awslambda.utils.get_backend, LambdaBackend.get_function,
moto.secretsmanager.exceptions.ResourceNotFoundException.
"""

from __future__ import annotations

import time
from typing import Any


def managed_rotation_can_be_cancelled() -> None:
    """CancelRotateSecret turns off rotation that runs without a Lambda function.

    AWS (Secrets Manager User Guide, "Managed rotation"): a secret managed by another
    service (the RDS master user secret, `rds!db-...`) rotates without a Lambda function;
    terraform-aws-modules/rds schedules it with aws_secretsmanager_secret_rotation, whose
    destroy calls CancelRotateSecret, and the module's examples destroy on AWS. moto 5.2
    accepts rotation without a Lambda function but refuses to cancel it ("doesn't already
    have a Lambda function ARN configured"), so such a stack cannot be destroyed.
    """
    from moto.secretsmanager.models import SecretsManagerBackend

    original = SecretsManagerBackend.cancel_rotate_secret
    if getattr(original, "_kit_fix", False):
        return

    def cancel_rotate_secret(self: Any, secret_id: str) -> str:
        secret = self.secrets.get(secret_id) if self._is_valid_identifier(secret_id) else None
        managed = secret is not None and not getattr(secret, "rotation_lambda_arn", None) \
            and secret.rotation_enabled and not secret.is_deleted()
        if not managed:
            return original(self, secret_id)  # moto's answers (AWS's too) stand
        secret.rotation_enabled = False
        return secret.to_short_dict()

    cancel_rotate_secret._kit_fix = True  # type: ignore[attr-defined]
    SecretsManagerBackend.cancel_rotate_secret = cancel_rotate_secret  # type: ignore[method-assign]


def rotation_schedules_are_kept() -> None:
    """RotateSecret with RotationRules.ScheduleExpression (and Duration) turns rotation
    on, and DescribeSecret returns the rules as given.

    AWS (Secrets Manager API reference, RotateSecret and RotationRulesType): a rotation
    schedule is AutomaticallyAfterDays or a ScheduleExpression (`rate(15 days)`, a cron
    expression), with an optional Duration; DescribeSecret reports RotationEnabled and
    the RotationRules. moto 5.2 keeps only AutomaticallyAfterDays and leaves a scheduled
    secret's rotation off, so `aws_secretsmanager_secret_rotation` reads back as gone.
    """
    from moto.secretsmanager.models import FakeSecret, SecretsManagerBackend

    rotate = SecretsManagerBackend.rotate_secret
    if getattr(rotate, "_kit_fix", False):
        return
    describe = FakeSecret.to_dict

    def rotate_secret(self: Any, secret_id: str, client_request_token: str | None = None,
                      rotation_lambda_arn: str | None = None,
                      rotation_rules: dict[str, Any] | None = None,
                      rotate_immediately: bool = True) -> str:
        result = rotate(self, secret_id, client_request_token, rotation_lambda_arn,
                        rotation_rules, rotate_immediately)
        secret = self.secrets[secret_id]
        rules = {k: v for k, v in (rotation_rules or {}).items()
                 if k in ("ScheduleExpression", "Duration")}
        if rules:
            secret.kit_rotation_rules = rules
            secret.rotation_enabled = True
        return result

    def to_dict(self: Any) -> dict[str, Any]:
        document = describe(self)
        if self.rotation_requested and getattr(self, "kit_rotation_rules", None):
            rules = document.setdefault("RotationRules", {})
            rules.update(self.kit_rotation_rules)
            if not rules.get("AutomaticallyAfterDays"):
                rules.pop("AutomaticallyAfterDays", None)
        return document

    rotate_secret._kit_fix = True  # type: ignore[attr-defined]
    SecretsManagerBackend.rotate_secret = rotate_secret  # type: ignore[method-assign]
    FakeSecret.to_dict = to_dict  # type: ignore[method-assign]


def rotation_functions_are_left_to_the_kit() -> None:
    """RotateSecret with a rotation function configures it and starts a rotation: a new
    version with the ClientRequestToken, labelled AWSPENDING and empty; the function's steps
    are left to the kit (kit/faults/rotation.py runs them, as Secrets Manager invokes them).

    AWS (API reference, RotateSecret: "When rotation is unsuccessful, the AWSPENDING staging
    label might be attached to an empty secret version"; User Guide, "Lambda rotation
    functions": Secrets Manager invokes createSecret, setSecret, testSecret, finishSecret
    with the token, createSecret puts the new value into that version, finishSecret moves
    AWSCURRENT). moto 5.2 invokes the function in Docker (absent here: the call fails) and
    then moves AWSCURRENT to the version itself, whatever the function did. Named
    difference: the steps of a rotation RotateSecret starts are not run by the call; the
    drill's rotation fault runs its own rotations (each a RotateSecret, then the steps).
    """
    from moto.moto_api._internal import mock_random
    from moto.secretsmanager.exceptions import ResourceNotFoundException
    from moto.secretsmanager.models import SecretsManagerBackend

    rotate = SecretsManagerBackend.rotate_secret
    if getattr(rotate, "_kit_function", False):
        return

    def rotate_secret(self: Any, secret_id: str, client_request_token: str | None = None,
                      rotation_lambda_arn: str | None = None,
                      rotation_rules: dict[str, Any] | None = None,
                      rotate_immediately: bool = True) -> str:
        secret = self.secrets[secret_id] if self._is_valid_identifier(secret_id) else None
        function = rotation_lambda_arn or (secret and secret.rotation_lambda_arn)
        if secret is None or not function or secret.is_deleted():
            return rotate(self, secret_id, client_request_token, rotation_lambda_arn,
                          rotation_rules, rotate_immediately)
        from moto.awslambda.utils import get_backend

        try:
            get_backend(self.account_id, self.region_name).get_function(function)
        except Exception as exc:  # noqa: BLE001 - moto's own message for a missing function
            raise ResourceNotFoundException(
                f"Resource not found for ARN '{function}'.") from exc
        secret.rotation_requested = True
        secret.rotation_lambda_arn = function
        days = (rotation_rules or {}).get("AutomaticallyAfterDays")
        if days:
            secret.auto_rotate_after_days = int(days)
        secret.rotation_enabled = True
        if rotate_immediately and secret.versions:
            version = client_request_token or str(mock_random.uuid4())
            secret.remove_version_stages_from_old_versions(["AWSPENDING"])
            secret.versions[version] = {"createdate": int(time.time()), "version_id": version,
                                        "version_stages": ["AWSPENDING"]}
        return secret.to_short_dict()

    rotate_secret._kit_function = True  # type: ignore[attr-defined]
    SecretsManagerBackend.rotate_secret = rotate_secret  # type: ignore[method-assign]


def moving_awscurrent_moves_the_current_value() -> None:
    """After UpdateSecretVersionStage moves AWSCURRENT, GetSecretValue without a version
    returns the version it moved to.

    AWS (API reference, GetSecretValue: "If you don't specify either a VersionStage or
    VersionId, then Secrets Manager defaults to AWSCURRENT"; UpdateSecretVersionStage moves
    a label, and AWSCURRENT is the secret's current value). moto 5.2 moves the label but
    keeps answering the old version's value (its default version does not follow), so an
    application reading its rotated credentials would get the old ones.
    """
    from moto.secretsmanager.models import SecretsManagerBackend

    update = SecretsManagerBackend.update_secret_version_stage
    if getattr(update, "_kit_fix", False):
        return

    def update_secret_version_stage(self: Any, secret_id: str, version_stage: str,
                                    remove_from_version_id: str,
                                    move_to_version_id: str) -> tuple[str, str]:
        result = update(self, secret_id, version_stage, remove_from_version_id,
                        move_to_version_id)
        if version_stage == "AWSCURRENT" and move_to_version_id:
            self.secrets[secret_id].set_default_version_id(move_to_version_id)
        return result

    update_secret_version_stage._kit_fix = True  # type: ignore[attr-defined]
    SecretsManagerBackend.update_secret_version_stage = (  # type: ignore[method-assign]
        update_secret_version_stage)
