"""Wildcards, policy variables and ARN-segment matching (IAM JSON policy elements reference)."""

from __future__ import annotations

import pytest

from kit.iam.context import Context
from kit.iam.patterns import arn_pattern, glob


@pytest.mark.parametrize(
    ("pattern", "value", "expected"),
    [
        ("sqs:Send*", "sqs:sendmessage", True),  # actions ignore case
        ("SQS:SENDMESSAGE", "sqs:SendMessage", True),
        ("sqs:?eceiveMessage", "sqs:ReceiveMessage", True),  # ? is one character
        ("sqs:?eceiveMessage", "sqs:ReceiveMessages", False),
        ("iam:*AccessKey*", "iam:CreateAccessKey", True),
        ("iam:*AccessKey*", "iam:CreateUser", False),
    ],
)
def test_action_globs_ignore_case(pattern: str, value: str, expected: bool) -> None:
    assert glob(pattern, ignore_case=True).matches(value) is expected


def test_string_like_is_case_sensitive() -> None:
    assert glob("home/*").matches("home/david/notes")
    assert not glob("home/*").matches("HOME/david")


def test_resource_is_case_sensitive() -> None:
    pattern = arn_pattern("arn:aws:s3:::Bucket/*", pad_short=True)
    assert pattern.matches("arn:aws:s3:::Bucket/a.txt")
    assert not pattern.matches("arn:aws:s3:::bucket/a.txt")


def test_arn_like_keeps_wildcards_inside_segments_but_string_like_does_not() -> None:
    # The example of the Condition operators page: StringLike matches, ArnLike does not.
    pattern = "arn:aws:someservice:*:111122223333:finance/*"
    value = "arn:aws:someservice:us-east-2:999999999999:store/abc:111122223333:finance/document.txt"
    assert glob(pattern).matches(value)
    assert not arn_pattern(pattern).matches(value)


def test_wildcard_in_resource_segment_spans_slashes_and_colons() -> None:
    pattern = arn_pattern("arn:aws:s3:::bucket/*", pad_short=True)
    assert pattern.matches("arn:aws:s3:::bucket/a/b:c.txt")
    assert not pattern.matches("arn:aws:s3:::other/a")


def test_short_arn_pattern_is_padded_only_in_resource_elements() -> None:
    assert arn_pattern("arn:aws:sqs:*", pad_short=True).matches("arn:aws:sqs:us-east-1:1:q")
    assert not arn_pattern("arn:aws:sqs:*").matches("arn:aws:sqs:us-east-1:1:q")
    assert not arn_pattern("arn:aws:sqs", pad_short=True).matches("arn:aws:sqs:us-east-1:1:q")


def test_star_resource_matches_anything() -> None:
    assert arn_pattern("*").matches("not even an arn")


def test_policy_variable_is_substituted_from_the_context() -> None:
    context = Context({"aws:username": "david"})
    pattern = arn_pattern(
        "arn:aws:s3:::bucket/home/${aws:username}/*", variables=True, pad_short=True
    )
    assert pattern.matches("arn:aws:s3:::bucket/home/david/file", context.variable)
    assert not pattern.matches("arn:aws:s3:::bucket/home/maria/file", context.variable)


def test_substituted_value_is_literal_not_a_wildcard() -> None:
    context = Context({"aws:username": "a*"})
    pattern = glob("home/${aws:username}", variables=True)
    assert pattern.matches("home/a*", context.variable)
    assert not pattern.matches("home/abc", context.variable)


@pytest.mark.parametrize(
    ("pattern", "literal", "other"),
    [
        ("file${*}", "file*", "file1"),
        ("what${?}", "what?", "whatx"),
        ("cost${$}", "cost$", "costs"),
    ],
)
def test_special_variables_stand_for_literal_characters(
    pattern: str, literal: str, other: str
) -> None:
    compiled = glob(pattern, variables=True)
    assert compiled.matches(literal)
    assert not compiled.matches(other)


def test_variable_with_default_value() -> None:
    pattern = glob("bucket/${aws:userid, 'anonymous'}", variables=True)
    assert pattern.matches("bucket/anonymous", Context().variable)
    assert pattern.matches("bucket/AIDA1", Context({"aws:userid": "AIDA1"}).variable)


def test_unresolvable_variable_matches_nothing() -> None:
    pattern = glob("team-${aws:PrincipalTag/team}*", variables=True)
    assert not pattern.matches("team-", Context().variable)
    assert not pattern.matches("team-${aws:PrincipalTag/team}", Context().variable)


def test_variables_are_literal_text_before_version_2012() -> None:
    pattern = glob("home/${aws:username}")
    assert pattern.matches("home/${aws:username}", Context({"aws:username": "d"}).variable)
    assert not pattern.matches("home/d", Context({"aws:username": "d"}).variable)


def test_multivalued_key_cannot_be_a_policy_variable() -> None:
    pattern = glob("${aws:TagKeys}", variables=True)
    assert not pattern.matches("a", Context({"aws:TagKeys": ["a", "b"]}).variable)
    assert pattern.matches("a", Context({"aws:TagKeys": ["a"]}).variable)


def test_variable_names_ignore_case() -> None:
    pattern = glob("${AWS:UserName}", variables=True)
    assert pattern.matches("david", Context({"aws:username": "david"}).variable)
