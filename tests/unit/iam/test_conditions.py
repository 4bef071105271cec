"""Condition operators, cases taken from AWS's "IAM JSON policy elements: Condition operators",
"Creating a condition with multiple keys or values" and "Multivalued context keys" pages."""

from __future__ import annotations

from typing import Any

import pytest

from kit.iam import parse_policy
from kit.iam.conditions import conditions_hold
from kit.iam.context import Context

from .builders import allow, policy


def holds(
    condition: dict[str, Any], context: dict[str, Any], version: str | None = "2012-10-17"
) -> bool:
    """Evaluate a Condition block against a request context."""
    statement = parse_policy(
        policy(allow("s3:*", Condition=condition), version=version)
    ).statements[0]
    return conditions_hold(statement.conditions, Context(context))


# --- String ---------------------------------------------------------------------------------


def test_string_equals_is_exact_and_case_sensitive() -> None:
    condition = {"StringEquals": {"aws:PrincipalTag/job-category": "iamuser-admin"}}
    assert holds(condition, {"aws:PrincipalTag/job-category": "iamuser-admin"})
    assert not holds(condition, {"aws:PrincipalTag/job-category": "IAMUSER-ADMIN"})


def test_string_equals_with_a_missing_key_is_false() -> None:
    # "If a user without the tag attempts ..., the condition returns false."
    assert not holds({"StringEquals": {"aws:PrincipalTag/job-category": "iamuser-admin"}}, {})


def test_string_equals_does_not_treat_star_as_a_wildcard() -> None:
    assert not holds({"StringEquals": {"s3:prefix": "home/*"}}, {"s3:prefix": "home/david"})
    assert holds({"StringEquals": {"s3:prefix": "home/*"}}, {"s3:prefix": "home/*"})


def test_several_values_for_one_key_are_ored() -> None:
    condition = {"StringEquals": {"aws:PrincipalTag/role": ["audit", "security"]}}
    assert holds(condition, {"aws:PrincipalTag/role": "security"})
    assert not holds(condition, {"aws:PrincipalTag/role": "dev"})


def test_negated_operator_with_several_values_is_nor() -> None:
    # AWS: with several values, a negated operator works like a logical AND of negations.
    condition = {"StringNotEquals": {"aws:PrincipalTag/role": ["audit", "security"]}}
    assert not holds(condition, {"aws:PrincipalTag/role": "audit"})
    assert not holds(condition, {"aws:PrincipalTag/role": "security"})
    assert holds(condition, {"aws:PrincipalTag/role": "dev"})


def test_string_equals_ignore_case() -> None:
    assert holds({"StringEqualsIgnoreCase": {"aws:username": "DAVID"}}, {"aws:username": "david"})
    assert not holds(
        {"StringEqualsIgnoreCase": {"aws:username": "DAVID"}}, {"aws:username": "maria"}
    )


def test_string_not_equals_ignore_case() -> None:
    assert not holds(
        {"StringNotEqualsIgnoreCase": {"aws:username": "DAVID"}}, {"aws:username": "david"}
    )
    assert holds(
        {"StringNotEqualsIgnoreCase": {"aws:username": "DAVID"}}, {"aws:username": "maria"}
    )


def test_string_like_home_directory_example_with_policy_variable() -> None:
    # The S3 home-directory example: s3:prefix must match "", "home/" or "home/${aws:username}/".
    condition = {"StringLike": {"s3:prefix": ["", "home/", "home/${aws:username}/"]}}
    assert holds(condition, {"s3:prefix": "home/david/", "aws:username": "david"})
    assert holds(condition, {"s3:prefix": "", "aws:username": "david"})
    assert not holds(condition, {"s3:prefix": "home/maria/", "aws:username": "david"})


def test_string_not_like() -> None:
    assert holds({"StringNotLike": {"ec2:InstanceType": "t2.*"}}, {"ec2:InstanceType": "m5.large"})
    assert not holds(
        {"StringNotLike": {"ec2:InstanceType": "t2.*"}}, {"ec2:InstanceType": "t2.micro"}
    )


@pytest.mark.parametrize(
    "operator", ["StringNotEquals", "StringNotLike", "ArnNotLike", "NotIpAddress"]
)
def test_negated_operator_with_a_missing_key_is_true(operator: str) -> None:
    # "If the policy condition requires that the key is not matched ... and the right key is
    # not present, the condition is true."
    assert holds({operator: {"aws:SourceArn": "arn:aws:sns:*:*:t"}}, {})


@pytest.mark.parametrize(
    "operator", ["StringEquals", "NumericEquals", "DateEquals", "Bool", "ArnLike"]
)
def test_positive_operator_with_a_missing_key_is_false(operator: str) -> None:
    assert not holds({operator: {"aws:SomeKey": "1"}}, {})


# --- IfExists ---------------------------------------------------------------------------------


def test_if_exists_is_true_when_the_key_is_missing() -> None:
    # The RunInstances example: resources without ec2:InstanceType pass StringLikeIfExists.
    condition = {"StringLikeIfExists": {"ec2:InstanceType": ["t1.*", "t2.*", "m3.*"]}}
    assert holds(condition, {})
    assert holds(condition, {"ec2:InstanceType": "t2.micro"})
    assert not holds(condition, {"ec2:InstanceType": "m5.large"})


def test_negated_if_exists_still_applies_when_the_key_is_missing() -> None:
    # "If you are using an "Effect": "Deny" element with a negated condition operator like
    # StringNotEqualsIfExists, the request is still denied even if the tag is missing."
    assert holds({"StringNotEqualsIfExists": {"aws:ResourceTag/team": "blue"}}, {})


# --- Numeric ----------------------------------------------------------------------------------


def test_numeric_less_than_equals_max_keys_example() -> None:
    condition = {"NumericLessThanEquals": {"s3:max-keys": "10"}}
    assert holds(condition, {"s3:max-keys": "10"})
    assert not holds(condition, {"s3:max-keys": "11"})


@pytest.mark.parametrize(
    ("operator", "request_value", "expected"),
    [
        ("NumericEquals", "5", True),
        ("NumericEquals", "5.0", True),
        ("NumericEquals", "6", False),
        ("NumericNotEquals", "6", True),
        ("NumericNotEquals", "5", False),
        ("NumericLessThan", "4", True),
        ("NumericLessThan", "5", False),
        ("NumericLessThanEquals", "5", True),
        ("NumericGreaterThan", "6", True),
        ("NumericGreaterThan", "5", False),
        ("NumericGreaterThanEquals", "5", True),
        ("NumericGreaterThanEquals", "4.5", False),
        ("NumericEquals", "five", False),
    ],
)
def test_numeric_operators(operator: str, request_value: str, expected: bool) -> None:
    assert holds({operator: {"s3:max-keys": "5"}}, {"s3:max-keys": request_value}) is expected


def test_numeric_values_take_no_policy_variables() -> None:
    condition = {"NumericEquals": {"s3:max-keys": "${aws:username}"}}
    assert not holds(condition, {"s3:max-keys": "5", "aws:username": "5"})


# --- Date -------------------------------------------------------------------------------------


def test_date_greater_than_token_issue_time_example() -> None:
    condition = {"DateGreaterThan": {"aws:TokenIssueTime": "2020-01-01T00:00:01Z"}}
    assert holds(condition, {"aws:TokenIssueTime": "2020-06-01T00:00:00Z"})
    assert not holds(condition, {"aws:TokenIssueTime": "2019-12-31T23:59:59Z"})
    # "The key is not present in ... requests that are made using access keys."
    assert not holds(condition, {})


def test_dates_compare_across_iso_8601_and_epoch_forms() -> None:
    assert holds(
        {"DateEquals": {"aws:CurrentTime": "2020-01-01T00:00:00Z"}},
        {"aws:CurrentTime": "1577836800"},
    )
    assert holds(
        {"DateEquals": {"aws:EpochTime": "1577836800"}},
        {"aws:EpochTime": "2020-01-01T01:00:00+01:00"},
    )


@pytest.mark.parametrize(
    ("operator", "expected"),
    [
        ("DateLessThan", True),
        ("DateLessThanEquals", True),
        ("DateGreaterThan", False),
        ("DateGreaterThanEquals", False),
        ("DateNotEquals", True),
        ("DateEquals", False),
    ],
)
def test_date_operators(operator: str, expected: bool) -> None:
    assert (
        holds(
            {operator: {"aws:CurrentTime": "2030-01-01"}},
            {"aws:CurrentTime": "2026-05-01T12:00:00Z"},
        )
        is expected
    )


# --- Bool, Binary, IP -------------------------------------------------------------------------


def test_bool_secure_transport_example() -> None:
    condition = {"Bool": {"aws:SecureTransport": "false"}}
    assert holds(condition, {"aws:SecureTransport": "false"})
    assert not holds(condition, {"aws:SecureTransport": "true"})
    assert holds({"Bool": {"aws:SecureTransport": True}}, {"aws:SecureTransport": True})


def test_bool_with_a_non_boolean_request_value_is_false() -> None:
    assert not holds({"Bool": {"aws:SecureTransport": "true"}}, {"aws:SecureTransport": "yes"})


def test_binary_equals_compares_base64_bytes() -> None:
    condition = {"BinaryEquals": {"key": "QmluYXJ5VmFsdWVJbkJhc2U2NA=="}}
    assert holds(condition, {"key": "QmluYXJ5VmFsdWVJbkJhc2U2NA=="})
    assert not holds(condition, {"key": "T3RoZXI="})


def test_ip_address_cidr_example() -> None:
    condition = {"IpAddress": {"aws:SourceIp": "203.0.113.0/24"}}
    assert holds(condition, {"aws:SourceIp": "203.0.113.254"})
    assert not holds(condition, {"aws:SourceIp": "203.0.114.1"})
    # Through a VPC endpoint aws:SourceIp is absent: "the condition returns false".
    assert not holds(condition, {})


def test_ip_address_without_prefix_means_a_single_host() -> None:
    assert holds({"IpAddress": {"aws:SourceIp": "198.51.100.7"}}, {"aws:SourceIp": "198.51.100.7"})
    assert not holds(
        {"IpAddress": {"aws:SourceIp": "198.51.100.7"}}, {"aws:SourceIp": "198.51.100.8"}
    )


def test_ip_address_mixes_ipv4_and_ipv6_ranges() -> None:
    condition = {"IpAddress": {"aws:SourceIp": ["203.0.113.0/24", "2001:DB8:1234:5678::/64"]}}
    assert holds(condition, {"aws:SourceIp": "2001:db8:1234:5678::1"})
    assert holds(condition, {"aws:SourceIp": "203.0.113.9"})
    assert not holds(condition, {"aws:SourceIp": "2001:db8:1234:9999::1"})


def test_not_ip_address() -> None:
    condition = {"NotIpAddress": {"aws:SourceIp": ["10.0.0.0/8", "192.0.2.0/24"]}}
    assert holds(condition, {"aws:SourceIp": "203.0.113.1"})
    assert not holds(condition, {"aws:SourceIp": "10.1.2.3"})


# --- ARN --------------------------------------------------------------------------------------


@pytest.mark.parametrize("operator", ["ArnEquals", "ArnLike"])
def test_arn_equals_and_arn_like_behave_identically(operator: str) -> None:
    condition = {operator: {"aws:SourceArn": "arn:aws:sns:*:123456789012:topic-*"}}
    assert holds(condition, {"aws:SourceArn": "arn:aws:sns:us-east-2:123456789012:topic-a"})
    assert not holds(condition, {"aws:SourceArn": "arn:aws:sns:us-east-2:999999999999:topic-a"})


@pytest.mark.parametrize("operator", ["ArnNotEquals", "ArnNotLike"])
def test_negated_arn_operators(operator: str) -> None:
    condition = {operator: {"aws:PrincipalArn": "arn:aws:iam::*:role/admin"}}
    assert holds(condition, {"aws:PrincipalArn": "arn:aws:iam::111122223333:role/app"})
    assert not holds(condition, {"aws:PrincipalArn": "arn:aws:iam::111122223333:role/admin"})


def test_arn_operator_with_a_policy_variable() -> None:
    condition = {"ArnLike": {"aws:SourceArn": "arn:aws:sns:*:*:${aws:PrincipalTag/team}-*"}}
    assert holds(
        condition,
        {"aws:SourceArn": "arn:aws:sns:eu-west-1:1:blue-x", "aws:PrincipalTag/team": "blue"},
    )
    assert not holds(
        condition,
        {"aws:SourceArn": "arn:aws:sns:eu-west-1:1:red-x", "aws:PrincipalTag/team": "blue"},
    )


# --- Null ------------------------------------------------------------------------------------


def test_null_checks_presence() -> None:
    # The temporary-credentials example: Null aws:TokenIssueTime true = no temporary credentials.
    assert holds({"Null": {"aws:TokenIssueTime": "true"}}, {})
    assert not holds(
        {"Null": {"aws:TokenIssueTime": "true"}}, {"aws:TokenIssueTime": "2020-01-01T00:00:00Z"}
    )
    assert holds(
        {"Null": {"aws:TokenIssueTime": "false"}}, {"aws:TokenIssueTime": "2020-01-01T00:00:00Z"}
    )
    assert not holds({"Null": {"aws:TokenIssueTime": "false"}}, {})


# --- set operators ----------------------------------------------------------------------------

ALLOWED_ATTRIBUTES = {
    "ForAllValues:StringLike": {"dynamodb:requestedAttributes": ["PostDateTime", "Message", "Tags"]}
}
FORBIDDEN_ATTRIBUTES = {
    "ForAnyValue:StringLike": {"dynamodb:requestedAttributes": ["ID", "PostDateTime"]}
}


def test_for_all_values_every_request_value_must_match() -> None:
    assert holds(ALLOWED_ATTRIBUTES, {"dynamodb:requestedAttributes": ["PostDateTime", "Message"]})
    # "There's no match for UserName, so the condition operator returns false."
    assert not holds(
        ALLOWED_ATTRIBUTES, {"dynamodb:requestedAttributes": ["PostDateTime", "UserName"]}
    )


def test_for_all_values_is_true_for_a_missing_or_empty_key() -> None:
    assert holds(ALLOWED_ATTRIBUTES, {})
    assert holds(ALLOWED_ATTRIBUTES, {"dynamodb:requestedAttributes": []})


def test_for_any_value_one_match_suffices() -> None:
    assert holds(
        FORBIDDEN_ATTRIBUTES,
        {"dynamodb:requestedAttributes": ["UserName", "Message", "PostDateTime"]},
    )
    assert not holds(FORBIDDEN_ATTRIBUTES, {"dynamodb:requestedAttributes": ["UserName"]})


def test_for_any_value_is_false_for_a_missing_or_empty_key() -> None:
    assert not holds(FORBIDDEN_ATTRIBUTES, {})
    assert not holds(FORBIDDEN_ATTRIBUTES, {"dynamodb:requestedAttributes": []})


def test_for_any_value_if_exists_is_true_for_a_missing_key() -> None:
    assert holds({"ForAnyValue:StringEqualsIfExists": {"aws:TagKeys": ["a"]}}, {})


def test_for_all_values_with_a_negated_operator() -> None:
    # Every requested tag key must be outside the forbidden set.
    condition = {"ForAllValues:StringNotEquals": {"aws:TagKeys": ["owner", "cost"]}}
    assert holds(condition, {"aws:TagKeys": ["team", "env"]})
    assert not holds(condition, {"aws:TagKeys": ["team", "owner"]})


def test_for_any_value_with_a_negated_operator() -> None:
    # At least one requested tag key is outside the allowed set.
    condition = {"ForAnyValue:StringNotEquals": {"aws:TagKeys": ["team", "env"]}}
    assert holds(condition, {"aws:TagKeys": ["team", "owner"]})
    assert not holds(condition, {"aws:TagKeys": ["team", "env"]})


def test_tag_keys_prefix_example_with_for_all_values() -> None:
    condition = {"ForAllValues:StringLike": {"aws:TagKeys": "key1*"}}
    assert holds(condition, {"aws:TagKeys": ["key1a", "key1b"]})
    assert not holds(condition, {"aws:TagKeys": ["key1a", "key2"]})


# --- combining --------------------------------------------------------------------------------


def test_several_keys_under_one_operator_are_anded() -> None:
    condition = {
        "StringEquals": {"aws:PrincipalTag/team": "blue", "aws:RequestedRegion": "eu-west-1"}
    }
    assert holds(condition, {"aws:PrincipalTag/team": "blue", "aws:RequestedRegion": "eu-west-1"})
    assert not holds(
        condition, {"aws:PrincipalTag/team": "blue", "aws:RequestedRegion": "us-east-1"}
    )


def test_several_operators_are_anded() -> None:
    condition = {
        "StringEquals": {"aws:PrincipalTag/team": "blue"},
        "Bool": {"aws:SecureTransport": "true"},
        "IpAddress": {"aws:SourceIp": "10.0.0.0/8"},
    }
    context = {
        "aws:PrincipalTag/team": "blue",
        "aws:SecureTransport": "true",
        "aws:SourceIp": "10.2.3.4",
    }
    assert holds(condition, context)
    assert not holds(condition, {**context, "aws:SourceIp": "11.0.0.1"})


def test_condition_key_names_ignore_case() -> None:
    assert holds(
        {"StringEquals": {"AWS:PrincipalTag/Team": "blue"}}, {"aws:principaltag/team": "blue"}
    )


def test_unresolvable_variable_fails_positive_and_negated_operators() -> None:
    assert not holds({"StringEquals": {"s3:prefix": "${aws:username}"}}, {"s3:prefix": "x"})
    assert not holds({"StringNotEquals": {"s3:prefix": "${aws:username}"}}, {"s3:prefix": "x"})


def test_policy_variables_are_literal_without_version_2012() -> None:
    condition = {"StringEquals": {"s3:prefix": "${aws:username}"}}
    assert not holds(condition, {"s3:prefix": "david", "aws:username": "david"}, version=None)
    assert holds(condition, {"s3:prefix": "${aws:username}", "aws:username": "david"}, version=None)
