"""Policy evaluation logic, cases taken from AWS's "Policy evaluation logic" pages, the
permissions-boundaries page and the NotPrincipal page."""

from __future__ import annotations

import time

import pytest

from kit.iam import Request, RequestError, evaluate, parse_policy

from .builders import (
    ACCOUNT,
    OTHER_ACCOUNT,
    QUEUE_ARN,
    ROLE_ARN,
    SESSION_ARN,
    USER_ARN,
    allow,
    deny,
    policy,
)

SEND = Request(SESSION_ARN, "sqs:SendMessage", QUEUE_ARN, role_arn=ROLE_ARN)


def send_as(principal: str, **kwargs: object) -> Request:
    """A SendMessage request to the orders queue by the given principal."""
    return Request(principal, "sqs:SendMessage", QUEUE_ARN, **kwargs)  # type: ignore[arg-type]


# --- defaults, allow, explicit deny -----------------------------------------------------------


def test_everything_is_implicitly_denied_by_default() -> None:
    decision = evaluate(SEND, [])
    assert decision.effect == "ImplicitDeny"
    assert not decision.allowed
    assert decision.deciding == ()


def test_identity_policy_allows() -> None:
    decision = evaluate(SEND, {"send": policy(allow("sqs:SendMessage", QUEUE_ARN, Sid="Send"))})
    assert decision.effect == "Allow"
    assert [(r.policy, r.kind, r.index, r.sid) for r in decision.deciding] == [
        ("send", "identity", 0, "Send")
    ]


def test_explicit_deny_overrides_allow_and_lists_every_deny() -> None:
    identity = policy(allow("sqs:*"), deny("sqs:SendMessage", Sid="NoSend"))
    other = policy(deny("sqs:Send*", Sid="NoSendEither"))
    decision = evaluate(SEND, {"a": identity, "b": other})
    assert decision.effect == "ExplicitDeny"
    assert {(r.policy, r.sid, r.effect) for r in decision.deciding} == {
        ("a", "NoSend", "Deny"),
        ("b", "NoSendEither", "Deny"),
    }


CARLOS_POLICY = policy(
    allow(
        [
            "s3:GetBucketLocation",
            "s3:GetAccountPublicAccessBlock",
            "s3:ListAccessPoints",
            "s3:ListAllMyBuckets",
        ],
        "arn:aws:s3:::*",
        Sid="AllowS3ListRead",
    ),
    allow(
        "s3:*", ["arn:aws:s3:::carlossalazar/*", "arn:aws:s3:::carlossalazar"], Sid="AllowS3Self"
    ),
    deny("s3:*", "arn:aws:s3:::*log*", Sid="DenyS3Logs"),
)
CARLOS_BUCKET_POLICY = policy(
    allow(
        "s3:*",
        ["arn:aws:s3:::carlossalazar/*", "arn:aws:s3:::carlossalazar"],
        Principal={"AWS": USER_ARN},
    )
)


def test_carlos_cannot_write_to_a_logs_bucket() -> None:
    # "Example identity-based and resource-based policy evaluation": DenyS3Logs decides.
    request = Request(USER_ARN, "s3:PutObject", "arn:aws:s3:::carlossalazar-logs/file.txt")
    decision = evaluate(request, [CARLOS_POLICY], resource_policy=CARLOS_BUCKET_POLICY)
    assert decision.effect == "ExplicitDeny"
    assert [r.sid for r in decision.deciding] == ["DenyS3Logs"]


def test_carlos_can_write_to_his_bucket() -> None:
    request = Request(USER_ARN, "s3:PutObject", "arn:aws:s3:::carlossalazar/file.txt")
    decision = evaluate(request, [CARLOS_POLICY], resource_policy=CARLOS_BUCKET_POLICY)
    assert decision.effect == "Allow"


def test_same_account_resource_policy_alone_allows_a_named_user() -> None:
    # "If either the identity-based policy or the resource-based policy within the same
    # account allows the request and the other doesn't, the request is still allowed."
    request = Request(USER_ARN, "s3:GetObject", "arn:aws:s3:::carlossalazar/file.txt")
    decision = evaluate(request, [], resource_policy=CARLOS_BUCKET_POLICY)
    assert decision.effect == "Allow"
    assert decision.deciding[0].kind == "resource"


REPORT_POLICY = policy(
    allow(["iam:Get*", "iam:List*"], Sid="AllowGetList"),
    deny("iam:*Report", Sid="DenyReports"),
)


@pytest.mark.parametrize(
    ("action", "effect"),
    [
        ("iam:GetUser", "Allow"),
        ("iam:ListRoles", "Allow"),
        ("iam:GetOrganizationsAccessReport", "ExplicitDeny"),
        ("iam:GenerateCredentialReport", "ExplicitDeny"),
        ("iam:CreatePolicy", "ImplicitDeny"),
    ],
)
def test_explicit_and_implicit_denies_example(action: str, effect: str) -> None:
    # "The difference between explicit and implicit denies" example policy.
    assert evaluate(Request(USER_ARN, action, "*"), [REPORT_POLICY]).effect == effect


def test_actions_ignore_case_in_policies_and_requests() -> None:
    request = Request(SESSION_ARN, "SQS:sendmessage", QUEUE_ARN)
    assert evaluate(request, [policy(allow("sqs:SENDMESSAGE", QUEUE_ARN))]).allowed


def test_resources_are_case_sensitive() -> None:
    assert not evaluate(SEND, [policy(allow("sqs:SendMessage", QUEUE_ARN.upper()))]).allowed


def test_resource_wildcards() -> None:
    assert evaluate(SEND, [policy(allow("sqs:SendMessage", "arn:aws:sqs:*:*:ord?rs"))]).allowed
    assert not evaluate(
        SEND, [policy(allow("sqs:SendMessage", "arn:aws:sqs:*:*:orders-*"))]
    ).allowed


def test_action_without_service_prefix_is_a_request_error() -> None:
    with pytest.raises(RequestError, match="service prefix"):
        Request(SESSION_ARN, "SendMessage", QUEUE_ARN)


# --- NotAction / NotResource ----------------------------------------------------------------


def test_not_action_allow_grants_everything_else() -> None:
    everything_but_iam = policy({"Effect": "Allow", "NotAction": "iam:*", "Resource": "*"})
    assert evaluate(SEND, [everything_but_iam]).allowed
    create_user = Request(SESSION_ARN, "iam:CreateUser", "*")
    assert evaluate(create_user, [everything_but_iam]).effect == "ImplicitDeny"


def test_not_action_deny_denies_everything_else() -> None:
    only_sqs = policy(allow("*"), {"Effect": "Deny", "NotAction": "sqs:*", "Resource": "*"})
    assert evaluate(SEND, [only_sqs]).allowed
    assert (
        evaluate(Request(SESSION_ARN, "s3:GetObject", "arn:aws:s3:::b/k"), [only_sqs]).effect
        == "ExplicitDeny"
    )


def test_not_resource_deny() -> None:
    only_orders = policy(
        allow("sqs:*"), {"Effect": "Deny", "Action": "sqs:*", "NotResource": QUEUE_ARN}
    )
    assert evaluate(SEND, [only_orders]).allowed
    other = Request(SESSION_ARN, "sqs:SendMessage", f"arn:aws:sqs:us-east-1:{ACCOUNT}:other")
    assert evaluate(other, [only_orders]).effect == "ExplicitDeny"


def test_not_resource_allow() -> None:
    all_but_dlq = policy(
        {"Effect": "Allow", "Action": "sqs:*", "NotResource": "arn:aws:sqs:*:*:*-dlq"}
    )
    assert evaluate(SEND, [all_but_dlq]).allowed
    dlq = Request(SESSION_ARN, "sqs:SendMessage", f"arn:aws:sqs:us-east-1:{ACCOUNT}:orders-dlq")
    assert not evaluate(dlq, [all_but_dlq]).allowed


# --- policy variables in Resource -------------------------------------------------------------


def test_username_variable_in_resource_for_an_iam_user() -> None:
    home = policy(
        allow(["s3:GetObject", "s3:PutObject"], "arn:aws:s3:::mybucket/${aws:username}/*")
    )
    mine = Request(USER_ARN, "s3:GetObject", "arn:aws:s3:::mybucket/carlossalazar/notes.txt")
    theirs = Request(USER_ARN, "s3:GetObject", "arn:aws:s3:::mybucket/maria/notes.txt")
    assert evaluate(mine, [home]).allowed
    assert not evaluate(theirs, [home]).allowed


def test_principal_tag_variable_in_resource() -> None:
    by_team = policy(allow("sqs:*", "arn:aws:sqs:*:*:${aws:PrincipalTag/team}-*"))
    blue = Request(
        SESSION_ARN,
        "sqs:SendMessage",
        f"arn:aws:sqs:us-east-1:{ACCOUNT}:blue-orders",
        {"aws:PrincipalTag/team": "blue"},
    )
    red = Request(
        SESSION_ARN,
        "sqs:SendMessage",
        f"arn:aws:sqs:us-east-1:{ACCOUNT}:blue-orders",
        {"aws:PrincipalTag/team": "red"},
    )
    untagged = Request(
        SESSION_ARN, "sqs:SendMessage", f"arn:aws:sqs:us-east-1:{ACCOUNT}:blue-orders"
    )
    assert evaluate(blue, [by_team]).allowed
    assert not evaluate(red, [by_team]).allowed
    assert not evaluate(untagged, [by_team]).allowed  # unresolvable variable: no match


def test_principal_keys_are_derived_from_the_principal() -> None:
    only_this_role = policy(allow("sqs:*", Condition={"ArnEquals": {"aws:PrincipalArn": ROLE_ARN}}))
    assert evaluate(SEND, [only_this_role]).allowed
    other_role = Request(
        f"arn:aws:sts::{ACCOUNT}:assumed-role/other/s", "sqs:SendMessage", QUEUE_ARN
    )
    assert not evaluate(other_role, [only_this_role]).allowed


# --- permissions boundaries -------------------------------------------------------------------

SHIRLEY_BOUNDARY = policy(allow(["s3:*", "cloudwatch:*", "ec2:*"]))


def test_boundary_blocks_what_it_does_not_allow() -> None:
    # ShirleyRodriguez: iam:CreateUser is granted by her policy but not by her boundary.
    create_user = Request(USER_ARN, "iam:CreateUser", "*")
    decision = evaluate(create_user, [policy(allow("iam:CreateUser"))], boundary=SHIRLEY_BOUNDARY)
    assert decision.effect == "ImplicitDeny"
    assert "boundary" in decision.reason


def test_boundary_and_identity_policy_both_allow() -> None:
    get = Request(USER_ARN, "s3:GetObject", "arn:aws:s3:::b/k")
    decision = evaluate(get, {"s3": policy(allow("s3:GetObject"))}, boundary=SHIRLEY_BOUNDARY)
    assert decision.effect == "Allow"
    assert {r.kind for r in decision.deciding} == {"identity", "boundary"}


def test_boundary_does_not_grant_on_its_own() -> None:
    get = Request(USER_ARN, "s3:GetObject", "arn:aws:s3:::b/k")
    assert evaluate(get, [], boundary=SHIRLEY_BOUNDARY).effect == "ImplicitDeny"


def test_deny_in_boundary_is_explicit() -> None:
    boundary = policy(
        allow("*"), deny("s3:*", ["arn:aws:s3:::logs", "arn:aws:s3:::logs/*"], Sid="DenyS3Logs")
    )
    get = Request(USER_ARN, "s3:GetObject", "arn:aws:s3:::logs/k")
    decision = evaluate(get, [policy(allow("s3:*"))], boundary=boundary)
    assert decision.effect == "ExplicitDeny"
    assert decision.deciding[0].kind == "boundary"


# --- session policies -------------------------------------------------------------------------


def test_session_policy_limits_the_role_session() -> None:
    decision = evaluate(
        SEND, [policy(allow("sqs:*"))], session_policies=[policy(allow("sqs:ReceiveMessage"))]
    )
    assert decision.effect == "ImplicitDeny"
    assert "session" in decision.reason


def test_session_policy_and_identity_policy_both_allow() -> None:
    decision = evaluate(
        SEND, [policy(allow("sqs:*"))], session_policies=[policy(allow("sqs:Send*"))]
    )
    assert decision.effect == "Allow"
    assert {r.kind for r in decision.deciding} == {"identity", "session"}


def test_session_policy_does_not_grant_on_its_own() -> None:
    assert evaluate(SEND, [], session_policies=[policy(allow("sqs:*"))]).effect == "ImplicitDeny"


def test_deny_in_session_policy_is_explicit() -> None:
    decision = evaluate(
        SEND,
        [policy(allow("sqs:*"))],
        session_policies=[policy(allow("*"), deny("sqs:SendMessage"))],
    )
    assert decision.effect == "ExplicitDeny"


# --- SCPs -------------------------------------------------------------------------------------

FULL_ACCESS = policy(allow("*"))


def test_scp_must_allow() -> None:
    decision = evaluate(SEND, [policy(allow("sqs:*"))], scps=[policy(allow("s3:*"))])
    assert decision.effect == "ImplicitDeny"
    assert "SCP" in decision.reason


def test_scp_does_not_grant_on_its_own() -> None:
    assert evaluate(SEND, [], scps=[FULL_ACCESS]).effect == "ImplicitDeny"


def test_scp_deny_is_explicit() -> None:
    decision = evaluate(SEND, [policy(allow("sqs:*"))], scps=[[FULL_ACCESS, policy(deny("sqs:*"))]])
    assert decision.effect == "ExplicitDeny"
    assert decision.deciding[0].kind == "scp"


def test_every_scp_level_must_allow() -> None:
    identity = [policy(allow("sqs:*"))]
    assert evaluate(SEND, identity, scps=[FULL_ACCESS, policy(allow("sqs:*"))]).allowed
    # The OU level allows only s3: a FullAWSAccess at the root does not help.
    assert not evaluate(SEND, identity, scps=[FULL_ACCESS, policy(allow("s3:*"))]).allowed


def test_scp_limits_resource_policy_grants() -> None:
    queue_policy = policy(allow("sqs:*", QUEUE_ARN, Principal={"AWS": SESSION_ARN}))
    assert evaluate(SEND, [], resource_policy=queue_policy).allowed
    assert not evaluate(
        SEND, [], resource_policy=queue_policy, scps=[policy(allow("s3:*"))]
    ).allowed


def test_scp_explicit_deny_beats_a_resource_policy_grant() -> None:
    queue_policy = policy(allow("sqs:*", QUEUE_ARN, Principal="*"))
    scp = [[FULL_ACCESS, policy(deny("sqs:SendMessage"))]]
    assert evaluate(SEND, [], resource_policy=queue_policy, scps=scp).effect == "ExplicitDeny"


# --- resource-based policies in the same account (role-session vs role ARN nuances) -------------

NARROW_BOUNDARY = policy(allow("s3:*"))
NARROW_SESSION = policy(allow("s3:*"))


def queue_policy_for(principal: object) -> dict:
    """A queue policy granting SendMessage to the given Principal element."""
    return policy(allow("sqs:SendMessage", QUEUE_ARN, Principal=principal))


def test_grant_to_role_session_arn_is_not_limited_by_boundary_or_session_policy() -> None:
    # "Permissions granted directly to a session are not limited by an implicit deny in an
    # identity-based policy, a permissions boundary, or session policy."
    decision = evaluate(
        SEND,
        [],
        boundary=NARROW_BOUNDARY,
        session_policies=[NARROW_SESSION],
        resource_policy=queue_policy_for({"AWS": SESSION_ARN}),
    )
    assert decision.effect == "Allow"
    assert [r.kind for r in decision.deciding] == ["resource"]


def test_grant_to_role_arn_allows_without_identity_policy() -> None:
    assert evaluate(SEND, [], resource_policy=queue_policy_for({"AWS": ROLE_ARN})).allowed


def test_grant_to_role_arn_is_limited_by_the_boundary() -> None:
    # "Resource-based policies that grant permissions to an IAM role ARN are limited by an
    # implicit deny in a permissions boundary or session policy."
    decision = evaluate(
        SEND, [], boundary=NARROW_BOUNDARY, resource_policy=queue_policy_for({"AWS": ROLE_ARN})
    )
    assert decision.effect == "ImplicitDeny"
    assert "permissions boundary" in decision.reason


def test_grant_to_role_arn_is_limited_by_the_session_policy() -> None:
    decision = evaluate(
        SEND,
        [],
        session_policies=[NARROW_SESSION],
        resource_policy=queue_policy_for({"AWS": ROLE_ARN}),
    )
    assert decision.effect == "ImplicitDeny"


def test_grant_to_role_arn_passes_when_boundary_allows() -> None:
    boundary = policy(allow("sqs:*"))
    assert evaluate(
        SEND, [], boundary=boundary, resource_policy=queue_policy_for({"AWS": ROLE_ARN})
    ).allowed


def test_role_arn_in_principal_matches_sessions_whatever_the_path() -> None:
    # Role names are unique in an account, so the role path does not change who is named.
    no_path = f"arn:aws:iam::{ACCOUNT}:role/worker"
    assert evaluate(SEND, [], resource_policy=queue_policy_for({"AWS": no_path})).allowed


def test_grant_to_iam_user_arn_is_not_limited_by_the_boundary() -> None:
    # "Resource-based policies that grant permissions to an IAM user ARN ... are not limited
    # by an implicit deny in an identity-based policy or permissions boundary."
    decision = evaluate(
        send_as(USER_ARN),
        [],
        boundary=NARROW_BOUNDARY,
        resource_policy=queue_policy_for({"AWS": USER_ARN}),
    )
    assert decision.allowed


def test_federated_user_session_grants() -> None:
    federated = f"arn:aws:sts::{ACCOUNT}:federated-user/carlossalazar"
    # Granted to the federated-user session: not limited by the boundary.
    assert evaluate(
        send_as(federated),
        [],
        boundary=NARROW_BOUNDARY,
        resource_policy=queue_policy_for({"AWS": federated}),
    ).allowed
    # Granted to the IAM user who federated: limited by the boundary.
    assert not evaluate(
        send_as(federated),
        [],
        boundary=NARROW_BOUNDARY,
        resource_policy=queue_policy_for({"AWS": USER_ARN}),
    ).allowed
    assert evaluate(
        send_as(federated), [], resource_policy=queue_policy_for({"AWS": USER_ARN})
    ).allowed


@pytest.mark.parametrize("principal", [{"AWS": f"arn:aws:iam::{ACCOUNT}:root"}, {"AWS": ACCOUNT}])
def test_grant_to_the_same_account_delegates_to_identity_policies(principal: dict) -> None:
    resource_policy = queue_policy_for(principal)
    assert evaluate(SEND, [], resource_policy=resource_policy).effect == "ImplicitDeny"
    assert evaluate(
        SEND, [policy(allow("sqs:SendMessage"))], resource_policy=resource_policy
    ).allowed


def test_wildcard_principal_grants_directly() -> None:
    assert evaluate(
        SEND, [], boundary=NARROW_BOUNDARY, resource_policy=queue_policy_for("*")
    ).allowed


def test_resource_policy_naming_someone_else_does_not_grant() -> None:
    other_user = f"arn:aws:iam::{ACCOUNT}:user/maria"
    assert (
        evaluate(SEND, [], resource_policy=queue_policy_for({"AWS": other_user})).effect
        == "ImplicitDeny"
    )


def test_resource_policy_deny_overrides_identity_allow() -> None:
    queue_policy = policy(deny("sqs:*", QUEUE_ARN, Principal={"AWS": ROLE_ARN}))
    assert (
        evaluate(SEND, [policy(allow("sqs:*"))], resource_policy=queue_policy).effect
        == "ExplicitDeny"
    )


def test_resource_policy_deny_to_the_account_covers_its_principals() -> None:
    queue_policy = policy(deny("sqs:*", QUEUE_ARN, Principal={"AWS": ACCOUNT}))
    assert (
        evaluate(SEND, [policy(allow("sqs:*"))], resource_policy=queue_policy).effect
        == "ExplicitDeny"
    )


def test_resource_policy_condition_from_aws_docs() -> None:
    # The ArnEquals example: SNS may send to the queue only for a given topic.
    queue_policy = policy(
        {
            "Effect": "Allow",
            "Principal": {"Service": "sns.amazonaws.com"},
            "Action": "SQS:SendMessage",
            "Resource": QUEUE_ARN,
            "Condition": {
                "ArnEquals": {"aws:SourceArn": f"arn:aws:sns:us-east-1:{ACCOUNT}:orders"}
            },
        }
    )
    from_topic = send_as(
        "sns.amazonaws.com", context={"aws:SourceArn": f"arn:aws:sns:us-east-1:{ACCOUNT}:orders"}
    )
    from_other = send_as(
        "sns.amazonaws.com", context={"aws:SourceArn": f"arn:aws:sns:us-east-1:{ACCOUNT}:spam"}
    )
    assert evaluate(from_topic, [], resource_policy=queue_policy).allowed
    assert not evaluate(from_other, [], resource_policy=queue_policy).allowed


# --- cross-account ------------------------------------------------------------------------------

FOREIGN_SESSION = f"arn:aws:sts::{OTHER_ACCOUNT}:assumed-role/auditor/s"


def test_cross_account_needs_both_sides() -> None:
    identity = [policy(allow("sqs:SendMessage"))]
    queue_policy = queue_policy_for({"AWS": f"arn:aws:iam::{OTHER_ACCOUNT}:role/auditor"})
    request = send_as(FOREIGN_SESSION)
    assert evaluate(request, identity).effect == "ImplicitDeny"
    assert evaluate(request, [], resource_policy=queue_policy).effect == "ImplicitDeny"
    assert evaluate(request, identity, resource_policy=queue_policy).allowed


def test_cross_account_grant_to_the_account_with_identity_allow() -> None:
    queue_policy = queue_policy_for({"AWS": f"arn:aws:iam::{OTHER_ACCOUNT}:root"})
    assert evaluate(
        send_as(FOREIGN_SESSION), [policy(allow("sqs:*"))], resource_policy=queue_policy
    ).allowed


def test_cross_account_boundary_still_limits() -> None:
    queue_policy = queue_policy_for({"AWS": FOREIGN_SESSION})
    decision = evaluate(
        send_as(FOREIGN_SESSION),
        [policy(allow("sqs:*"))],
        boundary=NARROW_BOUNDARY,
        resource_policy=queue_policy,
    )
    assert decision.effect == "ImplicitDeny"


def test_principal_account_override_makes_a_request_cross_account() -> None:
    queue_policy = queue_policy_for("*")
    assert evaluate(SEND, [], resource_policy=queue_policy).allowed
    assert not evaluate(
        SEND, [], resource_policy=queue_policy, principal_account=OTHER_ACCOUNT
    ).allowed


def test_s3_arns_without_account_count_as_same_account_unless_told() -> None:
    bucket_policy = policy(
        allow("s3:GetObject", "arn:aws:s3:::b/*", Principal={"AWS": SESSION_ARN})
    )
    request = Request(SESSION_ARN, "s3:GetObject", "arn:aws:s3:::b/k")
    assert evaluate(request, [], resource_policy=bucket_policy).allowed
    foreign = Request(
        SESSION_ARN, "s3:GetObject", "arn:aws:s3:::b/k", resource_account=OTHER_ACCOUNT
    )
    assert not evaluate(foreign, [], resource_policy=bucket_policy).allowed


# --- KMS key policies ---------------------------------------------------------------------------
# AWS KMS, "Default key policy" (https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-default.html):
# IAM policies alone do not give access to a KMS key; the key policy's statement that allows
# the account ("Allows access to the AWS account and enables IAM policies") makes them count.

KEY_ARN = f"arn:aws:kms:us-east-1:{ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab"
DECRYPT = Request(SESSION_ARN, "kms:Decrypt", KEY_ARN, role_arn=ROLE_ARN)
DEFAULT_KEY_POLICY = policy(
    allow("kms:*", "*", Principal={"AWS": f"arn:aws:iam::{ACCOUNT}:root"}, Sid="EnableIAM")
)


def test_identity_policies_count_on_a_key_whose_policy_enables_them() -> None:
    decision = evaluate(DECRYPT, [policy(allow("kms:Decrypt", KEY_ARN))],
                        resource_policy=DEFAULT_KEY_POLICY)
    assert decision.allowed
    assert {ref.kind for ref in decision.deciding} == {"resource", "identity"}


def test_identity_policies_do_not_count_without_an_account_statement() -> None:
    admin = f"arn:aws:iam::{ACCOUNT}:role/admin"
    key_policy = policy(allow("kms:*", "*", Principal={"AWS": admin}))
    for resource_policy in (key_policy, None):
        decision = evaluate(DECRYPT, [policy(allow("kms:*"))], resource_policy=resource_policy)
        assert decision.effect == "ImplicitDeny"
        assert "KMS key policy" in decision.reason


def test_account_statement_enables_only_the_actions_it_lists() -> None:
    key_policy = policy(allow("kms:Decrypt", "*", Principal={"AWS": ACCOUNT}))
    identity = [policy(allow("kms:*", KEY_ARN))]
    assert evaluate(DECRYPT, identity, resource_policy=key_policy).allowed
    encrypt = Request(SESSION_ARN, "kms:Encrypt", KEY_ARN, role_arn=ROLE_ARN)
    assert not evaluate(encrypt, identity, resource_policy=key_policy).allowed


def test_key_policy_naming_the_role_grants_within_the_boundary() -> None:
    key_policy = policy(allow("kms:Decrypt", "*", Principal={"AWS": ROLE_ARN}))
    assert evaluate(DECRYPT, [], resource_policy=key_policy).allowed
    boundary = policy(allow("sqs:*"))
    decision = evaluate(DECRYPT, [], boundary=boundary, resource_policy=key_policy)
    assert decision.effect == "ImplicitDeny"


def test_a_key_alias_is_not_gated_by_a_key_policy() -> None:
    alias = Request(SESSION_ARN, "kms:CreateAlias", f"arn:aws:kms:us-east-1:{ACCOUNT}:alias/app",
                    role_arn=ROLE_ARN)
    assert evaluate(alias, [policy(allow("kms:CreateAlias"))]).allowed


# --- NotPrincipal -------------------------------------------------------------------------------


def not_principal_deny(*names: str) -> dict:
    """A queue policy denying SendMessage to everyone except the listed principals."""
    return policy(
        allow("sqs:SendMessage", QUEUE_ARN, Principal="*"),
        {
            "Effect": "Deny",
            "NotPrincipal": {"AWS": list(names)},
            "Action": "sqs:*",
            "Resource": QUEUE_ARN,
        },
    )


def test_not_principal_listing_session_role_and_account_exempts_the_session() -> None:
    # The NotPrincipal page's role example lists all three ARNs.
    resource_policy = not_principal_deny(SESSION_ARN, ROLE_ARN, f"arn:aws:iam::{ACCOUNT}:root")
    assert evaluate(SEND, [], resource_policy=resource_policy).allowed


def test_not_principal_listing_only_the_role_still_denies_its_sessions() -> None:
    # "If the NotPrincipal element was missing the ARN of the role [or session], the effect of
    # the policy might be to explicitly deny access."
    resource_policy = not_principal_deny(ROLE_ARN, f"arn:aws:iam::{ACCOUNT}:root")
    assert evaluate(SEND, [], resource_policy=resource_policy).effect == "ExplicitDeny"


def test_not_principal_missing_the_role_or_account_arn_still_denies() -> None:
    # "If the NotPrincipal element was missing the ARN of the role, the effect of the policy
    # might be to explicitly deny access to the role"; likewise for the account.
    without_role = not_principal_deny(SESSION_ARN, f"arn:aws:iam::{ACCOUNT}:root")
    without_account = not_principal_deny(SESSION_ARN, ROLE_ARN)
    assert evaluate(SEND, [], resource_policy=without_role).effect == "ExplicitDeny"
    assert evaluate(SEND, [], resource_policy=without_account).effect == "ExplicitDeny"


def test_not_principal_deny_applies_to_everyone_else() -> None:
    resource_policy = not_principal_deny(USER_ARN, f"arn:aws:iam::{ACCOUNT}:root")
    assert evaluate(send_as(USER_ARN), [], resource_policy=resource_policy).allowed
    assert evaluate(SEND, [], resource_policy=resource_policy).effect == "ExplicitDeny"


def test_not_principal_deny_always_denies_a_principal_with_a_boundary() -> None:
    # Permissions boundaries page: "The NotPrincipal element with a Deny effect will always
    # deny any IAM principal that has a permissions boundary policy attached."
    resource_policy = not_principal_deny(USER_ARN, f"arn:aws:iam::{ACCOUNT}:root")
    decision = evaluate(
        send_as(USER_ARN), [], boundary=policy(allow("*")), resource_policy=resource_policy
    )
    assert decision.effect == "ExplicitDeny"


# --- root user, decisions, inputs, speed --------------------------------------------------------


def test_root_user_needs_no_identity_policy_but_scps_apply() -> None:
    root = send_as(f"arn:aws:iam::{ACCOUNT}:root")
    assert evaluate(root, []).allowed
    assert not evaluate(root, [], scps=[policy(allow("s3:*"))]).allowed


def test_decision_names_policies_statements_and_sids() -> None:
    identity = parse_policy(policy(allow("sqs:*", Sid="Queues")), name="worker-inline")
    decision = evaluate(SEND, [identity], scps=[FULL_ACCESS])
    assert decision.allowed
    refs = {(r.kind, r.policy, r.index, r.sid) for r in decision.deciding}
    assert refs == {("identity", "worker-inline", 0, "Queues"), ("scp", "scp[0][0]", 0, None)}
    assert "worker-inline" in decision.reason


def test_policies_may_be_json_text_dicts_or_parsed() -> None:
    import json

    document = policy(allow("sqs:SendMessage"))
    for form in (json.dumps(document), document, parse_policy(document)):
        assert evaluate(SEND, [form]).allowed
    assert evaluate(SEND, document).allowed  # a single document instead of a list


@pytest.mark.serial  # a timing bound: other tests on the cores would stretch it
def test_evaluation_is_fast_enough_for_a_gateway() -> None:
    identity = [
        parse_policy(
            policy(
                allow(["sqs:SendMessage", "sqs:ReceiveMessage", "sqs:DeleteMessage"], QUEUE_ARN),
                allow(
                    "sqs:GetQueue*",
                    "arn:aws:sqs:*:*:*",
                    Condition={"Bool": {"aws:SecureTransport": "true"}},
                ),
                deny("sqs:*", "*", Condition={"NotIpAddress": {"aws:SourceIp": "10.0.0.0/8"}}),
            )
        )
    ]
    boundary = parse_policy(policy(allow("sqs:*")))
    request = Request(SESSION_ARN, "sqs:SendMessage", QUEUE_ARN, {"aws:SourceIp": "10.1.1.1"})
    assert evaluate(request, identity, boundary=boundary).allowed
    runs = 2000
    start = time.perf_counter()
    for _ in range(runs):
        evaluate(request, identity, boundary=boundary)
    per_call = (time.perf_counter() - start) / runs
    assert per_call < 0.001, f"{per_call * 1e6:.0f} us per evaluation"


def test_not_resource_with_an_unresolvable_variable_does_not_apply() -> None:
    # "If AWS cannot resolve a variable, this might cause the entire statement to be invalid."
    by_team = policy(
        {
            "Effect": "Allow",
            "Action": "sqs:*",
            "NotResource": "arn:aws:sqs:*:*:${aws:PrincipalTag/team}-*",
        }
    )
    assert not evaluate(SEND, [by_team]).allowed
    tagged = Request(SESSION_ARN, "sqs:SendMessage", QUEUE_ARN, {"aws:PrincipalTag/team": "blue"})
    assert evaluate(tagged, [by_team]).allowed
