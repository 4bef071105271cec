"""The Smithy RPC v2 CBOR translator (kit/sandbox/fidelity/rpcv2cbor.py, cbor_shapes.py).

Smithy 2.0, "RPC v2 CBOR protocol": requests are POSTs to
/service/<ServiceShape>/operation/<Operation> with `smithy-protocol: rpc-v2-cbor`; every
answer carries the same header and `Content-Type: application/cbor`; timestamps are CBOR
tag 1 (epoch seconds), blobs byte strings; an error's body has `__type` and `message`.
The JSON side is the AWS JSON 1.0 protocol (X-Amz-Target <ServiceShape>.<Operation>,
timestamps as epoch seconds, blobs base64), which moto serves for CloudWatch. The
operations are the CloudWatch API reference's (PutMetricAlarm, DescribeAlarms,
GetMetricData, GetMetricWidgetImage, GetDashboard).
"""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from typing import Any

import cbor2

from kit.sandbox.fidelity import cbor_shapes, rpcv2cbor

SHAPE = "GraniteServiceVersion20100801"  # CloudWatch's service shape (and JSON target prefix)


def _model() -> Any:
    model = rpcv2cbor.json_model("cloudwatch", SHAPE)
    assert model is not None
    return model


def _environ(body: bytes) -> dict[str, Any]:
    return {"REQUEST_METHOD": "POST", "PATH_INFO": f"/service/{SHAPE}/operation/X",
            "CONTENT_TYPE": "application/cbor", "CONTENT_LENGTH": str(len(body)),
            "HTTP_SMITHY_PROTOCOL": "rpc-v2-cbor", "wsgi.input": io.BytesIO(body)}


class Moto:
    """Stands for moto's JSON side: records the request it got, gives a set answer."""

    def __init__(self, status: str, body: dict[str, Any], headers: list[tuple[str, str]]
                 | None = None) -> None:
        self.answer = (status, [("Content-Type", "application/x-amz-json-1.0"),
                                *(headers or [])], json.dumps(body).encode())
        self.got: dict[str, Any] = {}

    def __call__(self, environ: dict[str, Any]) -> rpcv2cbor.Answer:
        self.got = environ
        return self.answer


def test_request_values_become_json_values_by_their_shape() -> None:
    op = _model().operation_model("GetMetricData")
    start = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    got = cbor_shapes.to_json({"StartTime": start, "EndTime": cbor2.CBORTag(1, 1764590400),
                               "MetricDataQueries": [{"Id": "q", "Expression": "SUM(x)"}]},
                              op.input_shape)
    assert got["StartTime"] == start.timestamp()
    assert got["EndTime"] == 1764590400
    assert got["MetricDataQueries"] == [{"Id": "q", "Expression": "SUM(x)"}]
    json.dumps(got)  # every value is JSON now


def test_answer_values_become_cbor_values_by_their_shape() -> None:
    op = _model().operation_model("DescribeAlarms")
    got = cbor_shapes.to_cbor({"MetricAlarms": [{
        "AlarmName": "a", "Threshold": 80, "EvaluationPeriods": 2.0,
        "StateUpdatedTimestamp": 1764590400.5, "AlarmConfigurationUpdatedTimestamp":
        "2026-12-01T10:00:00Z", "Dimensions": [{"Name": "QueueName", "Value": "q"}]}]},
        op.output_shape)
    alarm = got["MetricAlarms"][0]
    assert alarm["Threshold"] == 80.0 and isinstance(alarm["Threshold"], float)
    assert alarm["EvaluationPeriods"] == 2 and isinstance(alarm["EvaluationPeriods"], int)
    assert alarm["StateUpdatedTimestamp"] == cbor2.CBORTag(1, 1764590400.5)
    assert alarm["AlarmConfigurationUpdatedTimestamp"] == cbor2.CBORTag(
        1, datetime(2026, 12, 1, 10, 0, tzinfo=UTC).timestamp())
    assert alarm["Dimensions"] == [{"Name": "QueueName", "Value": "q"}]


def test_blobs_are_byte_strings_in_cbor_and_base64_in_json() -> None:
    op = _model().operation_model("GetMetricWidgetImage")
    assert cbor_shapes.to_cbor({"MetricWidgetImage": "iVBORw=="}, op.output_shape) == {
        "MetricWidgetImage": b"\x89PNG"}
    assert cbor_shapes.to_json(cbor_shapes.to_cbor({"MetricWidgetImage": "iVBORw=="},
                                                   op.output_shape), op.output_shape) == {
        "MetricWidgetImage": "iVBORw=="}


def test_a_cbor_request_reaches_moto_as_its_json_request() -> None:
    moto = Moto("200 OK", {})
    body = cbor2.dumps({"AlarmName": "a", "Threshold": 80.5, "EvaluationPeriods": 2})
    status, headers, out = rpcv2cbor.answer(_environ(body), "cloudwatch", SHAPE,
                                            "PutMetricAlarm", moto)
    assert moto.got["PATH_INFO"] == "/"
    assert moto.got["HTTP_X_AMZ_TARGET"] == f"{SHAPE}.PutMetricAlarm"
    assert moto.got["CONTENT_TYPE"] == "application/x-amz-json-1.0"
    sent = moto.got["wsgi.input"].read()
    assert json.loads(sent) == {"AlarmName": "a", "Threshold": 80.5, "EvaluationPeriods": 2}
    assert moto.got["CONTENT_LENGTH"] == str(len(sent))
    assert "HTTP_SMITHY_PROTOCOL" not in moto.got
    assert status == "200 OK"
    assert ("smithy-protocol", "rpc-v2-cbor") in headers
    assert ("Content-Type", "application/cbor") in headers
    assert ("Content-Type", "application/x-amz-json-1.0") not in headers
    assert cbor2.loads(out) == {}


def test_an_empty_request_body_is_an_empty_input() -> None:
    moto = Moto("200 OK", {"DashboardEntries": []})
    _, _, out = rpcv2cbor.answer(_environ(b""), "cloudwatch", SHAPE, "ListDashboards", moto)
    assert json.loads(moto.got["wsgi.input"].read()) == {}
    assert cbor2.loads(out) == {"DashboardEntries": []}


def test_a_chunked_request_body_is_read_whole() -> None:
    moto = Moto("200 OK", {})
    environ = _environ(cbor2.dumps({"AlarmNames": ["a"]}))
    del environ["CONTENT_LENGTH"]
    environ["wsgi.input_terminated"] = True
    rpcv2cbor.answer(environ, "cloudwatch", SHAPE, "DeleteAlarms", moto)
    assert json.loads(moto.got["wsgi.input"].read()) == {"AlarmNames": ["a"]}


def test_an_error_answer_keeps_its_status_type_message_and_query_error_header() -> None:
    moto = Moto("404 Not Found", {"__type": "ResourceNotFound", "message": "no dashboard"},
                [("x-amzn-query-error", "ResourceNotFound;Sender")])
    status, headers, out = rpcv2cbor.answer(_environ(cbor2.dumps({"DashboardName": "d"})),
                                            "cloudwatch", SHAPE, "GetDashboard", moto)
    assert status == "404 Not Found"
    assert ("x-amzn-query-error", "ResourceNotFound;Sender") in headers
    assert ("smithy-protocol", "rpc-v2-cbor") in headers
    assert cbor2.loads(out) == {"__type": "ResourceNotFound", "message": "no dashboard"}


def test_an_xml_error_answer_still_names_its_code() -> None:
    answered = ("501 Not Implemented", [("Content-Type", "text/xml")],
                b"<ErrorResponse><Error><Code>NotImplemented</Code><Message>moto does not "
                b"implement cloudwatch X</Message></Error></ErrorResponse>")
    _, _, out = rpcv2cbor.answer(_environ(b""), "cloudwatch", SHAPE, "DescribeAlarms",
                                 lambda environ: answered)
    assert cbor2.loads(out) == {"__type": "NotImplemented",
                                "message": "moto does not implement cloudwatch X"}


def test_a_service_moto_serves_in_no_json_protocol_is_refused_naming_it() -> None:
    def never(environ: dict[str, Any]) -> rpcv2cbor.Answer:
        raise AssertionError("not served")

    for service, shape in (("s3", "AmazonS3"), ("cloudwatch", "SomeOtherService"),
                           ("nosuchservice", SHAPE)):
        status, headers, out = rpcv2cbor.answer(_environ(b""), service, shape, "Op", never)
        assert status.startswith("501"), service
        assert ("smithy-protocol", "rpc-v2-cbor") in headers
        error = cbor2.loads(out)
        assert error["__type"] == "NotImplemented"
        assert error["message"].startswith(f"moto does not implement {service} Op ")
    status, _, out = rpcv2cbor.answer(_environ(b""), "cloudwatch", SHAPE, "NoSuchOperation",
                                      never)
    assert status.startswith("501")


def test_a_body_that_is_not_cbor_is_a_serialization_error() -> None:
    status, headers, out = rpcv2cbor.answer(_environ(b"\xff\xff"), "cloudwatch", SHAPE,
                                            "DescribeAlarms", Moto("200 OK", {}))
    assert status.startswith("400")
    assert ("smithy-protocol", "rpc-v2-cbor") in headers
    assert cbor2.loads(out)["__type"] == "SerializationException"
