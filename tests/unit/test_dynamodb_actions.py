"""DynamoDB requests as boto3 sends them -> the IAM checks AWS makes (Service Authorization
Reference, "Actions, resources, and condition keys for Amazon DynamoDB"; DynamoDB developer
guide, "Using IAM with DynamoDB transactions" and "Using IAM policy conditions for
fine-grained access control")."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kit.gateway import actions
from kit.gateway.actions import Call
from kit.iam import Policy, Request, parse_policy
from kit.iam.evaluate import decide
from tests.unit.gateway.wire import capture

ACCT = "123456789012"
TABLE = f"arn:aws:dynamodb:us-east-1:{ACCT}:table/effects"
OTHER = f"arn:aws:dynamodb:us-east-1:{ACCT}:table/balances"


class Names:
    """The emulator's answer: both tables are keyed by `order_id` / `customer_id`."""

    def iam_arn(self, kind: str, name: str) -> str | None:
        return None

    def secret_arn(self, name: str, region: str) -> str | None:
        return None

    def partition_key(self, table_arn: str) -> str | None:
        return {TABLE: "order_id", OTHER: "customer_id",
                f"{TABLE}/index/by-customer": "customer_id"}.get(table_arn)


def _call(operation: str, names: Any = None, **params: Any) -> Call:
    wire = capture("dynamodb", operation, **params)
    return actions.describe(wire.method, wire.path, wire.headers, wire.body,
                            service="dynamodb", account=ACCT, names=names or Names())


def _pairs(call: Call) -> list[tuple[str, str]]:
    return [(c.action, c.resource) for c in call.checks]


def test_item_calls_act_on_the_table_arn_with_the_leading_key() -> None:
    call = _call("put_item", TableName="effects",
                 Item={"order_id": {"S": "o-1"}, "amount": {"N": "5"}},
                 ConditionExpression="attribute_not_exists(order_id)")
    assert (call.service, call.operation, call.protocol) == ("dynamodb", "PutItem", "json")
    assert _pairs(call) == [("dynamodb:PutItem", TABLE)]
    assert call.context["dynamodb:LeadingKeys"] == ("o-1",)
    assert call.context["dynamodb:Attributes"] == ("amount", "order_id")
    update = _call("update_item", TableName="effects", Key={"order_id": {"S": "o-2"}},
                   UpdateExpression="SET #s = :s ADD total :n",
                   ExpressionAttributeNames={"#s": "status"},
                   ExpressionAttributeValues={":s": {"S": "done"}, ":n": {"N": "1"}},
                   ReturnValues="ALL_NEW")
    assert _pairs(update) == [("dynamodb:UpdateItem", TABLE)]
    assert update.context["dynamodb:LeadingKeys"] == ("o-2",)
    assert update.context["dynamodb:Attributes"] == ("order_id", "status", "total")
    assert update.context["dynamodb:ReturnValues"] == "ALL_NEW"


def test_a_table_named_by_its_arn_and_a_list_call() -> None:
    assert _pairs(_call("get_item", TableName=TABLE, Key={"order_id": {"S": "o"}})) == [
        ("dynamodb:GetItem", TABLE)]
    assert _pairs(_call("list_tables")) == [("dynamodb:ListTables", "*")]
    assert _pairs(_call("describe_table", TableName="effects")) == [
        ("dynamodb:DescribeTable", TABLE)]


def test_query_and_scan_on_an_index_act_on_the_index_arn() -> None:
    query = _call("query", TableName="effects", KeyConditionExpression="#k = :v",
                  ExpressionAttributeNames={"#k": "order_id"},
                  ExpressionAttributeValues={":v": {"S": "o-9"}}, Select="COUNT")
    assert _pairs(query) == [("dynamodb:Query", TABLE)]
    assert query.context["dynamodb:LeadingKeys"] == ("o-9",)
    assert query.context["dynamodb:Select"] == "COUNT"
    on_index = _call("query", TableName="effects", IndexName="by-customer",
                     KeyConditionExpression="customer_id = :c",
                     ExpressionAttributeValues={":c": {"S": "c-1"}})
    assert _pairs(on_index) == [("dynamodb:Query", f"{TABLE}/index/by-customer")]
    assert on_index.context["dynamodb:LeadingKeys"] == ("c-1",)  # the index's key
    assert _pairs(_call("scan", TableName="effects", IndexName="idx")) == [
        ("dynamodb:Scan", f"{TABLE}/index/idx")]


def test_batches_are_authorized_on_every_table_they_name() -> None:
    batch = _call("batch_write_item", RequestItems={
        "effects": [{"PutRequest": {"Item": {"order_id": {"S": "o-1"}}}},
                    {"DeleteRequest": {"Key": {"order_id": {"S": "o-2"}}}}],
        "balances": [{"PutRequest": {"Item": {"customer_id": {"S": "c-1"}}}}]})
    assert sorted(_pairs(batch)) == [("dynamodb:BatchWriteItem", OTHER),
                                     ("dynamodb:BatchWriteItem", TABLE)]
    keys = {c.resource: dict(c.context)["dynamodb:LeadingKeys"] for c in batch.checks}
    assert keys == {TABLE: ("o-1", "o-2"), OTHER: ("c-1",)}
    read = _call("batch_get_item", RequestItems={
        "effects": {"Keys": [{"order_id": {"S": "o-1"}}]},
        "balances": {"Keys": [{"customer_id": {"S": "c-1"}}]}})
    assert sorted(_pairs(read)) == [("dynamodb:BatchGetItem", OTHER),
                                    ("dynamodb:BatchGetItem", TABLE)]


def test_a_transaction_needs_each_item_action_on_its_table() -> None:
    call = _call("transact_write_items", TransactItems=[
        {"Put": {"TableName": "effects", "Item": {"order_id": {"S": "o-1"}},
                 "ConditionExpression": "attribute_not_exists(order_id)"}},
        {"Update": {"TableName": "balances", "Key": {"customer_id": {"S": "c-1"}},
                    "UpdateExpression": "ADD balance :a",
                    "ExpressionAttributeValues": {":a": {"N": "5"}}}},
        {"ConditionCheck": {"TableName": "balances", "Key": {"customer_id": {"S": "c-2"}},
                            "ConditionExpression": "attribute_exists(customer_id)"}}])
    assert _pairs(call) == [("dynamodb:PutItem", TABLE), ("dynamodb:UpdateItem", OTHER),
                            ("dynamodb:ConditionCheckItem", OTHER)]
    assert all(dict(c.context)["dynamodb:EnclosingOperation"] == "TransactWriteItems"
               for c in call.checks)
    gets = _call("transact_get_items", TransactItems=[
        {"Get": {"TableName": "effects", "Key": {"order_id": {"S": "o-1"}}}}])
    assert _pairs(gets) == [("dynamodb:GetItem", TABLE)]


def test_partiql_is_refused_with_the_reason() -> None:
    call = _call("execute_statement", Statement="SELECT * FROM effects")
    assert not call.mapped and "PartiQL" in call.problem


def test_the_partition_key_without_the_emulator_only_for_a_one_attribute_key() -> None:
    class Nothing(Names):
        def partition_key(self, table_arn: str) -> str | None:
            return None

    one = _call("get_item", Nothing(), TableName="effects", Key={"order_id": {"S": "o-1"}})
    assert one.context["dynamodb:LeadingKeys"] == ("o-1",)
    two = _call("get_item", Nothing(), TableName="effects",
                Key={"order_id": {"S": "o-1"}, "sk": {"N": "1"}})
    assert "dynamodb:LeadingKeys" not in two.context


def _leading_keys_policy() -> Policy:
    """The developer guide's example: items whose partition key is the caller's own id."""
    return parse_policy({"Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Action": ["dynamodb:GetItem", "dynamodb:PutItem"],
        "Resource": TABLE, "Condition": {"ForAllValues:StringEquals": {
            "dynamodb:LeadingKeys": ["o-1"]}}}]}, name="identity")


def test_a_leading_keys_condition_is_decided_on_the_request_keys() -> None:
    policy = _leading_keys_policy()
    for key, effect in (("o-1", "Allow"), ("o-2", "ImplicitDeny")):
        call = _call("put_item", TableName="effects", Item={"order_id": {"S": key}})
        check = call.checks[0]
        request = Request(f"arn:aws:sts::{ACCT}:assumed-role/worker/w", check.action,
                          check.resource, {**call.context, **dict(check.context)})
        decision = decide(request, [policy], boundary=None, sessions=[], resource=None,
                          scp_levels=[], principal_account=None, trust=False)
        assert decision.effect == effect, key


def test_the_partition_key_of_a_table_and_of_its_indexes() -> None:
    from kit.gateway.policies import _hash_key

    described = {"Table": {
        "KeySchema": [{"AttributeName": "order_id", "KeyType": "HASH"},
                      {"AttributeName": "at", "KeyType": "RANGE"}],
        "GlobalSecondaryIndexes": [{"IndexName": "by-customer", "KeySchema": [
            {"AttributeName": "customer_id", "KeyType": "HASH"}]}],
        "LocalSecondaryIndexes": [{"IndexName": "by-amount", "KeySchema": [
            {"AttributeName": "order_id", "KeyType": "HASH"},
            {"AttributeName": "amount", "KeyType": "RANGE"}]}]}}
    assert _hash_key(described) == "order_id"
    assert _hash_key(described, "by-customer") == "customer_id"
    assert _hash_key(described, "by-amount") == "order_id"
    assert _hash_key(described, "nope") is None and _hash_key({}) is None


@pytest.mark.parametrize(("operation", "params"), [
    ("BatchGetItem", {"RequestItems": {"effects": {"Keys": 5}}}),
    ("BatchGetItem", {"RequestItems": {"effects": "x"}}),
    ("BatchWriteItem", {"RequestItems": {"effects": [1, {"PutRequest": 2}]}}),
    ("BatchWriteItem", {"RequestItems": []}),
    ("TransactWriteItems", {"TransactItems": [{"Put": "x"}]}),
    ("TransactWriteItems", {"TransactItems": [7]}),
    ("Query", {"TableName": "effects", "KeyConditions": {"order_id": {
        "AttributeValueList": {"S": "x"}}}}),
    ("Query", {"TableName": "effects", "KeyConditionExpression": "order_id = :v",
               "ExpressionAttributeValues": [1]}),
    ("UpdateItem", {"TableName": "effects", "Key": {"order_id": {"S": ["x"]}},
                    "UpdateExpression": "SET #a.b[1] = if_not_exists(c, :z)",
                    "ExpressionAttributeNames": {"#a": 3}}),
    ("GetItem", {"TableName": 5, "Key": "x"}),
])
def test_a_malformed_request_is_mapped_or_refused_never_raises(operation: str,
                                                               params: dict) -> None:
    """What a worker writes by hand, not through boto3: the gateway must answer it."""
    call = actions.describe("POST", "/", {"x-amz-target": f"DynamoDB_20120810.{operation}"},
                            json.dumps(params).encode(), service="dynamodb", account=ACCT,
                            names=Names())
    assert call.mapped or call.problem


def test_stream_calls_act_on_the_stream_arn() -> None:
    stream = f"{TABLE}/stream/2026-12-01T00:00:00.000"
    wire = capture("dynamodbstreams", "describe_stream", StreamArn=stream)
    call = actions.describe(wire.method, wire.path, wire.headers, wire.body,
                            service="dynamodb", account=ACCT, names=Names())
    assert _pairs(call) == [("dynamodb:DescribeStream", stream)]
