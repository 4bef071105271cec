"""DynamoDB calls through the enforcing gateway in front of a real moto: each is authorized
as AWS authorizes it (Service Authorization Reference, "Actions, resources, and condition
keys for Amazon DynamoDB"; DynamoDB developer guide, "Using IAM with DynamoDB transactions"
and "Using IAM policy conditions for fine-grained access control"), and a refusal reaches
boto3 as DynamoDB's AccessDeniedException."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from kit import aws
from kit.gateway.server import Gateway
from tests.integration.iam_env import ACCT, Env, assumed_role
from tests.integration.iam_env import allow as _allow
from tests.integration.iam_env import authz as _authz
from tests.integration.iam_env import denied as _denied
from tests.integration.iam_env import doc as _doc
from tests.integration.iam_env import names as _names

DENIED = "AccessDeniedException"



def _table(env: Env, sort_key: bool = False) -> tuple[str, str]:
    """A fresh table keyed by `tenant` (and `sk`, a number): its name and ARN."""
    name = f"t-{next(_names)}"
    keys = [("tenant", "S", "HASH"), *([("sk", "N", "RANGE")] if sort_key else [])]
    aws.client("dynamodb", env.moto).create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": t} for a, t, _ in keys],
        KeySchema=[{"AttributeName": a, "KeyType": k} for a, _, k in keys])
    return name, f"arn:aws:dynamodb:us-east-1:{ACCT}:table/{name}"


def _denials(gw: Gateway) -> list[tuple[str, str]]:
    return [(op["value"]["action"], op["value"]["resource"]) for op in _authz(gw)
            if op["value"]["decision"] != "Allow"]


def test_item_calls_need_their_action_on_the_table(env: Env, gw: Gateway) -> None:
    name, arn = _table(env)
    _, other = _table(env)
    ddb = assumed_role(env, gw, _allow(["dynamodb:PutItem", "dynamodb:GetItem"], arn)
                       ).client("dynamodb", gw)
    ddb.put_item(TableName=name, Item={"tenant": {"S": "a"}})
    assert ddb.get_item(TableName=name, Key={"tenant": {"S": "a"}})["Item"] == {
        "tenant": {"S": "a"}}
    _denied(lambda: ddb.delete_item(TableName=name, Key={"tenant": {"S": "a"}}), DENIED)
    _denied(lambda: ddb.put_item(TableName=other.rsplit("/", 1)[-1],
                                 Item={"tenant": {"S": "a"}}), DENIED)
    assert _denials(gw) == [("dynamodb:DeleteItem", arn), ("dynamodb:PutItem", other)]


def test_leading_keys_follow_the_tables_partition_key(env: Env, gw: Gateway) -> None:
    """The developer guide's fine-grained example: `dynamodb:LeadingKeys` holds the
    partition key values of the items a call touches; the gateway learns which attribute
    is the partition key from the table itself (here a composite key)."""
    name, arn = _table(env, sort_key=True)
    ddb = assumed_role(env, gw, _allow("dynamodb:PutItem", arn, Condition={
        "ForAllValues:StringEquals": {"dynamodb:LeadingKeys": ["tenant-a"]}})
                       ).client("dynamodb", gw)
    ddb.put_item(TableName=name, Item={"tenant": {"S": "tenant-a"}, "sk": {"N": "1"}})
    _denied(lambda: ddb.put_item(TableName=name, Item={"tenant": {"S": "tenant-b"},
                                                       "sk": {"N": "1"}}), DENIED)
    stored = aws.client("dynamodb", env.moto).scan(TableName=name)["Items"]
    assert [item["tenant"]["S"] for item in stored] == ["tenant-a"]


def test_batches_and_transactions_are_authorized_on_every_table(env: Env,
                                                                gw: Gateway) -> None:
    (one, one_arn), (two, two_arn) = _table(env), _table(env)
    ddb = assumed_role(env, gw, _allow(["dynamodb:BatchWriteItem", "dynamodb:PutItem"],
                                       one_arn)).client("dynamodb", gw)
    ddb.batch_write_item(RequestItems={one: [{"PutRequest": {"Item": {"tenant": {"S": "x"}}}}]})
    _denied(lambda: ddb.batch_write_item(RequestItems={
        one: [{"PutRequest": {"Item": {"tenant": {"S": "y"}}}}],
        two: [{"PutRequest": {"Item": {"tenant": {"S": "y"}}}}]}), DENIED)
    # A transaction is authorized as its items' actions: PutItem on one, UpdateItem on two.
    _denied(lambda: ddb.transact_write_items(TransactItems=[
        {"Put": {"TableName": one, "Item": {"tenant": {"S": "z"}}}},
        {"Update": {"TableName": two, "Key": {"tenant": {"S": "z"}},
                    "UpdateExpression": "ADD n :one",
                    "ExpressionAttributeValues": {":one": {"N": "1"}}}}]), DENIED)
    assert _denials(gw) == [("dynamodb:BatchWriteItem", two_arn),
                            ("dynamodb:UpdateItem", two_arn)]
    admin = aws.client("dynamodb", env.moto)
    assert "Item" not in admin.get_item(TableName=one, Key={"tenant": {"S": "z"}})


def test_partiql_is_refused_naming_why(env: Env, gw: Gateway) -> None:
    name, arn = _table(env)
    ddb = assumed_role(env, gw, _allow("dynamodb:*", arn)).client("dynamodb", gw)
    refused = _denied(lambda: ddb.execute_statement(Statement=f'SELECT * FROM "{name}"'),
                      DENIED)
    assert "PartiQL" in str(refused)


def test_a_tables_resource_policy_grants_and_denies(env: Env, gw: Gateway) -> None:
    """DynamoDB developer guide, "Using resource-based policies for DynamoDB": a table's
    policy may grant a principal of the account access the principal's own policies do not
    give, and its explicit deny overrides an identity grant (for the table's indexes too)."""
    (granted, granted_arn), (guarded, guarded_arn) = _table(env), _table(env)
    role = assumed_role(env, gw, _allow("dynamodb:*", guarded_arn))
    admin = aws.client("dynamodb", env.moto)
    admin.put_resource_policy(ResourceArn=granted_arn, Policy=_doc(_allow(
        "dynamodb:PutItem", granted_arn, Principal={"AWS": role.arn})))
    admin.put_resource_policy(ResourceArn=guarded_arn, Policy=_doc({
        "Effect": "Deny", "Principal": {"AWS": role.arn}, "Action": "dynamodb:Query",
        "Resource": [guarded_arn, f"{guarded_arn}/index/*"]}))
    gw.invalidate()
    ddb = role.client("dynamodb", gw)
    ddb.put_item(TableName=granted, Item={"tenant": {"S": "a"}})
    ddb.put_item(TableName=guarded, Item={"tenant": {"S": "a"}})
    _denied(lambda: ddb.query(TableName=guarded, KeyConditionExpression="tenant = :t",
                              ExpressionAttributeValues={":t": {"S": "a"}}), DENIED)
    assert _denials(gw) == [("dynamodb:Query", guarded_arn)]


def test_a_table_name_dynamodb_refuses_is_answered_by_dynamodb(env: Env, gw: Gateway) -> None:
    """A worker's request naming a table no table can be (an ARN with a space) is
    authorized like any other and answered by DynamoDB itself, not a gateway failure."""
    bad = f"arn:aws:dynamodb:us-east-1:{ACCT}:table/not a table!"
    ddb = assumed_role(env, gw, _allow("dynamodb:PutItem", "*")).client("dynamodb", gw)
    with pytest.raises(ClientError) as refused:
        ddb.put_item(TableName=bad, Item={"tenant": {"S": "a"}})
    # moto answers ResourceNotFoundException, AWS ValidationException: DynamoDB's own 400.
    assert refused.value.response["Error"]["Code"] in ("ValidationException",
                                                        "ResourceNotFoundException")
    assert refused.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
