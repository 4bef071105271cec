"""Conditions over keys known only by their range (kit/iam/ranges.py): a condition holds
statically only when every value of the range meets it.

Operator semantics from the IAM User Guide, "IAM JSON policy elements: Condition operators"
(https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html):
Date operators compare aws:CurrentTime / aws:EpochTime (epoch seconds accepted), IpAddress
takes CIDR blocks, Bool compares "true"/"false", a missing key fails a non-negated operator
unless ...IfExists, and Null tests presence. The key values are those the gateway sets
(kit/gateway/authz.py): the clock, the loopback address the call came from, TLS, and the
principal's tags.
"""

from __future__ import annotations

from typing import Any

import pytest

from kit.iam import parse_policy
from kit.iam.conditions import conditions_hold
from kit.iam.context import Context
from kit.iam.effective import caller_keys
from kit.iam.ranges import AddressRange, OpenRange, TimeRange

from .builders import allow, policy

SINCE = 1_790_000_000.0  # 2026-09-21T14:13:20Z: the start of a run
UNTIL = SINCE + 900  # final.iam read a quarter of an hour later


def holds(condition: dict[str, Any], context: dict[str, Any] | None = None) -> bool:
    """Evaluate a Condition block with the static checks' view of the gateway's keys."""
    statement = parse_policy(policy(allow("sqs:*", Condition=condition))).statements[0]
    return conditions_hold(statement.conditions, Context({**caller_keys((SINCE, UNTIL)),
                                                          **(context or {})}))


# --- time -----------------------------------------------------------------------------------


@pytest.mark.parametrize("condition", [
    {"DateGreaterThan": {"aws:CurrentTime": "2000-01-01T00:00:00Z"}},
    {"DateGreaterThanEquals": {"aws:CurrentTime": "2000"}},
    {"DateLessThan": {"aws:CurrentTime": "2100-01-01T00:00:00Z"}},  # after the run
    {"NumericLessThan": {"aws:EpochTime": str(int(UNTIL) + 3600)}},  # an hour after it
    {"DateGreaterThan": {"aws:EpochTime": "946684800"}},
    {"NumericGreaterThan": {"aws:EpochTime": "946684800"}},
    {"NumericGreaterThanEquals": {"aws:EpochTime": str(int(SINCE))}},
    {"DateGreaterThan": {"aws:CurrentTime": ["2030-01-01", "2000-01-01"]}},  # OR
    {"DateNotEquals": {"aws:CurrentTime": "2030-01-01T00:00:00Z"}},  # not in the run
])
def test_a_time_condition_every_later_moment_meets_is_unconditional(
        condition: dict[str, Any]) -> None:
    assert holds(condition)


@pytest.mark.parametrize("condition", [
    {"DateGreaterThan": {"aws:CurrentTime": "2030-01-01T00:00:00Z"}},  # not yet
    {"DateLessThan": {"aws:CurrentTime": "2000-01-01T00:00:00Z"}},  # never
    {"NumericLessThan": {"aws:EpochTime": str(int(SINCE) + 60)}},  # ends in the run
    {"DateEquals": {"aws:CurrentTime": "2030-01-01T00:00:00Z"}},
    {"DateNotEquals": {"aws:EpochTime": str(int(SINCE) + 10)}},  # one second of the run
    {"DateNotEquals": {"aws:CurrentTime": "1970-01-01T00:00:00Z"},  # AND: one restricts
     "DateGreaterThan": {"aws:EpochTime": str(int(UNTIL) - 5)}},
    {"NumericGreaterThan": {"aws:CurrentTime": "1"}},  # an ISO date is no number
])
def test_a_time_condition_some_moment_fails_stays_conditional(
        condition: dict[str, Any]) -> None:
    assert not holds(condition)


def test_the_time_range_is_the_run() -> None:
    # A date just before the run started is past for every request of it, one just after
    # it ended is ahead of every one; a date inside the run splits its requests.
    assert holds({"NumericGreaterThan": {"aws:EpochTime": str(int(SINCE) - 1)}})
    assert holds({"NumericLessThan": {"aws:EpochTime": str(int(UNTIL) + 1)}})
    assert not holds({"NumericGreaterThan": {"aws:EpochTime": str(int(SINCE) + 1)}})
    assert not holds({"NumericLessThan": {"aws:EpochTime": str(int(UNTIL) - 1)}})


def test_a_policy_variable_reads_the_range_start() -> None:
    assert TimeRange(SINCE, UNTIL).default == "2026-09-21T14:13:20Z"
    assert TimeRange(SINCE, UNTIL, epoch=True).default == str(int(SINCE))


# --- source address -------------------------------------------------------------------------


@pytest.mark.parametrize("condition", [
    {"IpAddress": {"aws:SourceIp": "0.0.0.0/0"}},
    {"IpAddress": {"aws:SourceIp": "127.0.0.0/8"}},
    {"IpAddress": {"aws:SourceIp": ["127.0.0.0/9", "127.128.0.0/9"]}},  # together, all
    {"NotIpAddress": {"aws:SourceIp": "10.0.0.0/8"}},
    {"NotIpAddress": {"aws:SourceIp": "::/0"}},  # an IPv4 caller is in no IPv6 block
    {"IpAddressIfExists": {"aws:SourceIp": "0.0.0.0/0"}},
])
def test_an_address_condition_every_loopback_caller_meets_is_unconditional(
        condition: dict[str, Any]) -> None:
    assert holds(condition)


@pytest.mark.parametrize("condition", [
    {"IpAddress": {"aws:SourceIp": "203.0.113.0/24"}},  # an office: never the gateway's
    {"IpAddress": {"aws:SourceIp": "127.0.0.1/32"}},  # one loopback address only
    {"IpAddress": {"aws:SourceIp": ["127.0.0.0/9", "127.128.0.0/10"]}},  # a gap
    {"NotIpAddress": {"aws:SourceIp": "127.5.0.0/16"}},  # excludes some callers
    {"IpAddress": {"aws:SourceIp": "::/0"}},
    {"StringEquals": {"aws:SourceIp": "127.0.0.1"}},
])
def test_an_address_condition_some_caller_fails_stays_conditional(
        condition: dict[str, Any]) -> None:
    assert not holds(condition)


def test_the_address_range_samples_stay_inside_it() -> None:
    statement = parse_policy(policy(allow("sqs:*", Condition={
        "IpAddress": {"aws:SourceIp": "0.0.0.0/0"}}))).statements[0]
    samples = AddressRange().samples(statement.conditions[0])
    assert ("127.0.0.1",) in samples and ("127.255.255.254",) in samples
    assert all(s is not None and s[0].startswith("127.") for s in samples)


# --- secure transport -----------------------------------------------------------------------


def test_secure_transport_true_is_unconditional_and_false_never_holds() -> None:
    # Every SDK call is TLS: the gateway sets aws:SecureTransport true.
    assert holds({"Bool": {"aws:SecureTransport": "true"}})
    assert holds({"BoolIfExists": {"aws:SecureTransport": "true"}})
    assert not holds({"Bool": {"aws:SecureTransport": "false"}})
    assert not holds({"Null": {"aws:SecureTransport": "true"}})


# --- principal tags -------------------------------------------------------------------------


@pytest.mark.parametrize("condition", [
    {"StringLikeIfExists": {"aws:PrincipalTag/team": "*"}},
    {"Null": {"aws:PrincipalTag/team": ["true", "false"]}},  # present or absent
    {"ForAllValues:StringLike": {"aws:PrincipalTag/team": "*"}},
])
def test_a_tag_condition_any_principal_meets_is_unconditional(
        condition: dict[str, Any]) -> None:
    assert holds(condition)


@pytest.mark.parametrize("condition", [
    {"StringEquals": {"aws:PrincipalTag/team": "payments"}},
    {"StringLike": {"aws:PrincipalTag/team": "*"}},  # an untagged principal fails
    {"Null": {"aws:PrincipalTag/team": "false"}},
    {"StringNotEquals": {"aws:PrincipalTag/team": "payments"}},  # a payments one fails
    {"StringNotLike": {"aws:PrincipalTag/team": "pay*"}},
    {"StringEqualsIgnoreCase": {"aws:PrincipalTag/team": "Payments"}},
    {"ForAllValues:StringEquals": {"aws:PrincipalTag/team": "payments"}},  # others fail
])
def test_a_tag_condition_some_principal_fails_stays_conditional(
        condition: dict[str, Any]) -> None:
    assert not holds(condition)


def test_known_tags_are_values_not_ranges() -> None:
    # The role's own tags, as read from the emulator: the gateway sets exactly these.
    tagged = {"aws:PrincipalTag/team": "payments"}
    assert holds({"StringEquals": {"aws:PrincipalTag/team": "payments"}}, tagged)
    assert not holds({"StringEquals": {"aws:PrincipalTag/team": "orders"}}, tagged)


def test_open_range_samples_absence_and_the_policy_values() -> None:
    statement = parse_policy(policy(allow("sqs:*", Condition={
        "StringLike": {"aws:PrincipalTag/team": "pay*"}}))).statements[0]
    samples = OpenRange().samples(statement.conditions[0])
    assert None in samples and ("pay",) in samples and ("",) in samples


# --- several keys ---------------------------------------------------------------------------


def test_one_restricting_key_keeps_the_statement_conditional() -> None:
    always = {"DateGreaterThan": {"aws:CurrentTime": "2000-01-01T00:00:00Z"},
              "Bool": {"aws:SecureTransport": "true"}}
    assert holds(always)
    assert not holds({**always, "IpAddress": {"aws:SourceIp": "203.0.113.0/24"}})
