"""can_assume: sts:AssumeRole against a role trust policy (role trust policies must name the
caller: AWS policy evaluation logic, resource-based policies)."""

from __future__ import annotations

from kit.iam import can_assume

from .builders import ACCOUNT, OTHER_ACCOUNT, ROLE_ARN, SESSION_ARN, USER_ARN, allow, deny, policy


def trust(principal: object, **extra: object) -> dict:
    """A trust policy allowing sts:AssumeRole to the given Principal element."""
    return policy({"Effect": "Allow", "Principal": principal, "Action": "sts:AssumeRole", **extra})


def test_trust_naming_the_callers_role_admits_its_sessions() -> None:
    decision = can_assume(trust({"AWS": ROLE_ARN}), SESSION_ARN, role_arn=ROLE_ARN)
    assert decision.allowed
    assert decision.deciding[0].kind == "resource"


def test_trust_naming_a_service_admits_only_that_service() -> None:
    lambda_trust = trust({"Service": "lambda.amazonaws.com"})
    assert can_assume(lambda_trust, "lambda.amazonaws.com").allowed
    assert not can_assume(lambda_trust, "ec2.amazonaws.com").allowed
    assert not can_assume(lambda_trust, USER_ARN).allowed


def test_trust_naming_another_principal_does_not_admit() -> None:
    decision = can_assume(trust({"AWS": f"arn:aws:iam::{ACCOUNT}:user/maria"}), USER_ARN)
    assert decision.effect == "ImplicitDeny"
    assert "trust policy" in decision.reason


def test_identity_policy_alone_never_suffices() -> None:
    decision = can_assume(
        trust({"AWS": f"arn:aws:iam::{ACCOUNT}:user/maria"}),
        USER_ARN,
        identity_policies=[policy(allow("sts:AssumeRole"))],
    )
    assert decision.effect == "ImplicitDeny"


def test_account_root_trust_needs_the_callers_identity_permission() -> None:
    account_trust = trust({"AWS": f"arn:aws:iam::{ACCOUNT}:root"})
    # Trust alone: the role side admits the account.
    assert can_assume(account_trust, USER_ARN).allowed
    # With the caller's identity policies: they must allow sts:AssumeRole.
    assert not can_assume(account_trust, USER_ARN, identity_policies=[]).allowed
    assert can_assume(
        account_trust, USER_ARN, identity_policies=[policy(allow("sts:AssumeRole"))]
    ).allowed


def test_cross_account_trust_needs_the_identity_side_too() -> None:
    foreign_user = f"arn:aws:iam::{OTHER_ACCOUNT}:user/auditor"
    cross = trust({"AWS": foreign_user})
    target = f"arn:aws:iam::{ACCOUNT}:role/audit"
    assert not can_assume(cross, foreign_user, target_role_arn=target, identity_policies=[]).allowed
    granted = [policy(allow("sts:AssumeRole", target))]
    assert can_assume(
        cross, foreign_user, target_role_arn=target, identity_policies=granted
    ).allowed


def test_trust_condition_on_external_id() -> None:
    with_external_id = trust(
        {"AWS": USER_ARN}, Condition={"StringEquals": {"sts:ExternalId": "s3cr3t"}}
    )
    assert can_assume(with_external_id, USER_ARN, context={"sts:ExternalId": "s3cr3t"}).allowed
    assert not can_assume(with_external_id, USER_ARN, context={"sts:ExternalId": "guess"}).allowed
    assert not can_assume(with_external_id, USER_ARN).allowed


def test_deny_in_trust_policy_is_explicit() -> None:
    document = policy(
        {"Effect": "Allow", "Principal": {"AWS": ACCOUNT}, "Action": "sts:AssumeRole"},
        deny("sts:AssumeRole", Principal={"AWS": USER_ARN}),
    )
    assert can_assume(document, USER_ARN).effect == "ExplicitDeny"
