from __future__ import annotations

import json

from kit.gateway import sqs


def test_json_protocol_action_and_batch_entries() -> None:
    body = json.dumps({"QueueUrl": "u", "Entries": [{"Id": "a", "ReceiptHandle": "r1"},
                                                    {"Id": "b", "ReceiptHandle": "r2"}]})
    req = sqs.parse({"x-amz-target": "AmazonSQS.DeleteMessageBatch"}, body.encode())
    assert req is not None and req.action == "DeleteMessageBatch" and req.protocol == "json"
    assert [e["ReceiptHandle"] for e in req.entries()] == ["r1", "r2"]


def test_query_protocol_action_and_batch_entries() -> None:
    body = (b"Action=DeleteMessageBatch&QueueUrl=u"
            b"&DeleteMessageBatchRequestEntry.2.ReceiptHandle=r2"
            b"&DeleteMessageBatchRequestEntry.1.ReceiptHandle=r1"
            b"&DeleteMessageBatchRequestEntry.1.Id=a")
    req = sqs.parse({}, body)
    assert req is not None and req.protocol == "query"
    assert [e["ReceiptHandle"] for e in req.entries()] == ["r1", "r2"]


def test_non_sqs_request_is_not_parsed() -> None:
    assert sqs.parse({"x-amz-target": "secretsmanager.GetSecretValue"}, b"{}") is None
    assert sqs.parse({}, b"Action=GetCallerIdentity&Version=2011-06-15") is None


def test_receive_asks_for_the_receive_count_in_both_protocols() -> None:
    req = sqs.parse({"x-amz-target": "AmazonSQS.ReceiveMessage"}, b'{"QueueUrl": "u"}')
    assert req is not None
    assert json.loads(sqs.with_receive_count(req, b""))["MessageSystemAttributeNames"] == [
        "ApproximateReceiveCount", "MessageGroupId"]
    req = sqs.parse({}, b"Action=ReceiveMessage&QueueUrl=u")
    assert req is not None
    assert b"ApproximateReceiveCount" in sqs.with_receive_count(req, b"")


def test_received_messages_from_json_and_xml_replies() -> None:
    req = sqs.parse({"x-amz-target": "AmazonSQS.ReceiveMessage"}, b'{"QueueUrl": "u"}')
    assert req is not None
    reply = {"Messages": [{"MessageId": "m1", "ReceiptHandle": "r1", "Body": "{}",
                           "Attributes": {"ApproximateReceiveCount": "2"}}]}
    assert sqs.received(req, 200, json.dumps(reply).encode()) == [
        {"message_id": "m1", "receipt": "r1", "receive_count": 2, "group": None, "body": "{}"}]
    assert sqs.received(req, 403, b"{}") == []
    query = sqs.parse({}, b"Action=ReceiveMessage&QueueUrl=u")
    assert query is not None
    xml = (b"<ReceiveMessageResponse><ReceiveMessageResult><Message><MessageId>m2</MessageId>"
           b"<ReceiptHandle>r2</ReceiptHandle><Body>x</Body><Attribute><Name>"
           b"ApproximateReceiveCount</Name><Value>3</Value></Attribute></Message>"
           b"</ReceiveMessageResult></ReceiveMessageResponse>")
    assert sqs.received(query, 200, xml) == [
        {"message_id": "m2", "receipt": "r2", "receive_count": 3, "group": None, "body": "x"}]


def test_swallowed_batch_delete_reports_every_entry_successful() -> None:
    body = json.dumps({"QueueUrl": "u", "Entries": [{"Id": "a", "ReceiptHandle": "r"}]})
    req = sqs.parse({"x-amz-target": "AmazonSQS.DeleteMessageBatch"}, body.encode())
    assert req is not None
    status, _, data = sqs.success_reply(req)
    assert status == 200 and json.loads(data) == {"Successful": [{"Id": "a"}], "Failed": []}


def test_only_the_entries_that_took_effect_count_in_both_protocols() -> None:
    # A batch answers 200 even when entries fail (SQS API reference, DeleteMessageBatch:
    # "the result of the action on each message is reported individually").
    body = json.dumps({"QueueUrl": "u", "Entries": [{"Id": "a", "ReceiptHandle": "r1"},
                                                    {"Id": "b", "ReceiptHandle": "r2"}]})
    req = sqs.parse({"x-amz-target": "AmazonSQS.DeleteMessageBatch"}, body.encode())
    assert req is not None
    reply = {"Successful": [{"Id": "b"}], "Failed": [{"Id": "a", "Code": "InvalidParameterValue",
                                                      "SenderFault": True}]}
    assert [e["Id"] for e in sqs.succeeded(req, 200, json.dumps(reply).encode())] == ["b"]
    query = sqs.parse({}, b"Action=DeleteMessageBatch&QueueUrl=u"
                          b"&DeleteMessageBatchRequestEntry.1.Id=a"
                          b"&DeleteMessageBatchRequestEntry.1.ReceiptHandle=r1"
                          b"&DeleteMessageBatchRequestEntry.2.Id=b"
                          b"&DeleteMessageBatchRequestEntry.2.ReceiptHandle=r2")
    assert query is not None
    xml = (b"<DeleteMessageBatchResponse><DeleteMessageBatchResult><DeleteMessageBatchResultEntry>"
           b"<Id>a</Id></DeleteMessageBatchResultEntry><BatchResultErrorEntry><Id>b</Id>"
           b"<Code>InvalidParameterValue</Code></BatchResultErrorEntry>"
           b"</DeleteMessageBatchResult></DeleteMessageBatchResponse>")
    assert [e["Id"] for e in sqs.succeeded(query, 200, xml)] == ["a"]
    single = sqs.parse({"x-amz-target": "AmazonSQS.DeleteMessage"}, b'{"ReceiptHandle": "r"}')
    assert single is not None
    assert sqs.succeeded(single, 200, b"{}") == [single.params]
    assert sqs.succeeded(single, 400, b"{}") == []
