"""Parsing: the IAM policy grammar, typed frozen structures, and errors that name the spot."""

from __future__ import annotations

import dataclasses
import json

import pytest

from kit.errors import KitError
from kit.iam import PolicyError, parse_policy

from .builders import allow, policy


def test_json_text_and_dict_parse_to_the_same_statements() -> None:
    document = policy(allow("sqs:SendMessage", "arn:aws:sqs:*:*:q"))
    from_text = parse_policy(json.dumps(document))
    from_dict = parse_policy(document)
    assert from_text.statements == from_dict.statements
    assert from_dict.version == "2012-10-17"


def test_single_statement_object_is_accepted() -> None:
    parsed = parse_policy({"Version": "2012-10-17", "Statement": allow("s3:GetObject")})
    assert len(parsed.statements) == 1
    assert parsed.statements[0].actions is not None
    assert parsed.statements[0].actions.patterns == ("s3:GetObject",)


def test_elements_are_typed() -> None:
    parsed = parse_policy(
        policy(
            {
                "Sid": "Queue",
                "Effect": "Allow",
                "Principal": {
                    "AWS": ["arn:aws:iam::111122223333:root"],
                    "Service": "sns.amazonaws.com",
                },
                "NotAction": "sqs:Delete*",
                "NotResource": ["arn:aws:sqs:*:*:dlq"],
                "Condition": {"Bool": {"aws:SecureTransport": True}},
            }
        )
    )
    statement = parsed.statements[0]
    assert statement.sid == "Queue"
    assert statement.effect == "Allow"
    assert statement.actions is None and statement.not_actions is not None
    assert statement.not_resources is not None and statement.not_resources.patterns == (
        "arn:aws:sqs:*:*:dlq",
    )
    assert statement.principal is not None
    assert statement.principal.aws == ("arn:aws:iam::111122223333:root",)
    assert statement.principal.service == ("sns.amazonaws.com",)
    # A JSON boolean condition value is read as the string "true".
    assert statement.conditions[0].values == ("true",)
    assert statement.conditions[0].operator.name == "Bool"


def test_wildcard_principal_forms() -> None:
    star = parse_policy(policy(allow("s3:*", Principal="*"))).statements[0]
    aws_star = parse_policy(policy(allow("s3:*", Principal={"AWS": "*"}))).statements[0]
    named = parse_policy(policy(allow("s3:*", Principal={"AWS": "123456789012"}))).statements[0]
    assert star.principal is not None and star.principal.wildcard
    assert aws_star.principal is not None and aws_star.principal.wildcard
    assert named.principal is not None and not named.principal.wildcard


def test_structures_are_frozen() -> None:
    parsed = parse_policy(policy(allow("s3:GetObject")))
    with pytest.raises(dataclasses.FrozenInstanceError):
        parsed.statements[0].effect = "Deny"  # type: ignore[misc]


def test_missing_version_disables_policy_variables() -> None:
    # AWS: without Version 2012-10-17, ${aws:username} is a literal string.
    assert not parse_policy(policy(allow("s3:*"), version=None)).variables
    assert parse_policy(policy(allow("s3:*"))).variables


@pytest.mark.parametrize(
    ("document", "field", "words"),
    [
        (policy({"Effect": "allow", "Action": "s3:*", "Resource": "*"}), "Effect", "Allow"),
        (policy({"Effect": "Allow", "Resource": "*"}), "Action", "Action or NotAction"),
        (
            policy({"Effect": "Allow", "Action": "s3:*", "NotAction": "s3:Get*", "Resource": "*"}),
            "NotAction",
            "not both",
        ),
        (
            policy({"Effect": "Allow", "Action": "s3:*", "Resource": "*", "NotResource": "*"}),
            "NotResource",
            "not both",
        ),
        (
            policy({"Effect": "Allow", "Action": "s3:*", "Resources": "*"}),
            "Resources",
            "valid elements",
        ),
        (policy(allow("GetObject")), "Action", "service prefix"),
        (
            policy(allow("s3:*", Condition={"StringEqual": {"k": "v"}})),
            "Condition.StringEqual",
            "StringEquals",
        ),
        (
            policy(allow("s3:*", Condition={"NullIfExists": {"k": "true"}})),
            "Condition.NullIfExists",
            "Null",
        ),
        (
            policy(allow("s3:*", Condition={"ForSomeValues:StringLike": {"k": "v"}})),
            None,
            "ForAllValues",
        ),
        (
            policy(allow("s3:*", Condition={"StringEquals": {"k": {"nested": 1}}})),
            None,
            "values must be",
        ),
        (policy(allow("s3:*", Principal={"Aws": "*"})), "Principal.Aws", "AWS"),
        (policy(allow([], "*")), "Action", "non-empty list"),
    ],
)
def test_invalid_statements_name_the_statement_and_field(
    document: dict, field: str | None, words: str
) -> None:
    with pytest.raises(PolicyError) as caught:
        parse_policy(document, name="app-policy")
    message = str(caught.value)
    assert "Statement[0]" in message
    assert "app-policy" in message
    assert words in message
    if field:
        assert caught.value.field == field
    assert caught.value.statement == 0


def test_error_points_at_the_second_statement_and_its_sid() -> None:
    document = policy(allow("s3:*"), {"Sid": "Broken", "Effect": "Permit", "Action": "s3:*"})
    with pytest.raises(PolicyError, match=r"Statement\[1\] \(Sid 'Broken'\)"):
        parse_policy(document)


@pytest.mark.parametrize(
    ("document", "words"),
    [
        ('{"Version": "2012-10-17", "Statement": [}', "not valid JSON"),
        ({"Version": "2012-10-18", "Statement": []}, "version"),
        ({"Version": "2012-10-17"}, "needs a Statement"),
        ({"Version": "2012-10-17", "Statement": [], "Extra": 1}, "top-level"),
        ([], "JSON object"),
    ],
)
def test_invalid_documents(document: object, words: str) -> None:
    with pytest.raises(PolicyError, match=words):
        parse_policy(document)  # type: ignore[arg-type]


def test_policy_error_belongs_to_the_kit_error_tree() -> None:
    with pytest.raises(KitError):
        parse_policy({"Statement": {"Effect": "Maybe", "Action": "s3:*"}})
    assert issubclass(PolicyError, ValueError)


def test_statement_without_resource_is_allowed_for_trust_policies() -> None:
    trust = parse_policy(
        policy(
            {
                "Effect": "Allow",
                "Principal": {"Service": "lambda.amazonaws.com"},
                "Action": "sts:AssumeRole",
            }
        )
    )
    assert trust.statements[0].resources is None
    assert trust.statements[0].not_resources is None
