"""What the gateway tells worker_crash about a process's requests (kit/faults/process.py
kills a worker between two of its requests): whose request is being answered now, and
when each process's last one was answered; a receive (a long poll) is neither."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from kit.gateway.server import Gateway
from kit.recorder import Recorder
from tests.unit.gateway.wire import KEY, capture

QUEUE = "http://127.0.0.1:4566/123456789012/jobs"


class Upstream(ThreadingHTTPServer):
    """An emulator that answers every request `{}`, once `release` is set (`arrived`: a
    request has reached it)."""

    def __init__(self) -> None:
        self.release, self.arrived = threading.Event(), threading.Event()
        super().__init__(("127.0.0.1", 0), Answer)


class Answer(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        assert isinstance(self.server, Upstream)
        self.server.arrived.set()
        self.server.release.wait(10)
        self.send_response(200)
        self.send_header("Content-Type", "application/x-amz-json-1.0")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def gateway() -> Iterator[tuple[Gateway, Upstream]]:
    upstream = Upstream()
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    try:
        with Gateway(f"http://127.0.0.1:{upstream.server_port}", Recorder()) as gw:
            gw.register(KEY, "worker-0")  # attribution only: forwarded unverified
            yield gw, upstream
    finally:
        upstream.release.set()
        upstream.shutdown()
        upstream.server_close()


def _call(gw: Gateway, operation: str, **params: object) -> threading.Thread:
    wire = capture("sqs", operation, QueueUrl=QUEUE, **params)
    thread = threading.Thread(target=gw.handle, args=(wire.method, wire.path, wire.headers,
                                                       wire.body))
    thread.start()
    return thread


def test_a_request_is_calling_until_answered_then_its_answer_is_dated(
        gateway: tuple[Gateway, Upstream]) -> None:
    gw, upstream = gateway
    thread = _call(gw, "get_queue_attributes", AttributeNames=["All"])
    assert upstream.arrived.wait(5)
    assert gw.calling() == {"worker-0"}
    assert gw.answered("worker-0") is None
    before = gw.recorder.now()
    upstream.release.set()
    thread.join(10)
    assert gw.calling() == frozenset()
    assert (gw.answered("worker-0") or 0) >= before


def test_a_receive_is_neither_calling_nor_an_answer(gateway: tuple[Gateway, Upstream]) -> None:
    gw, upstream = gateway
    thread = _call(gw, "receive_message", WaitTimeSeconds=20)
    assert upstream.arrived.wait(5)
    assert gw.calling() == frozenset()
    upstream.release.set()
    thread.join(10)
    assert gw.answered("worker-0") is None


def test_a_lost_region_answers_every_call_503_until_it_returns(
        gateway: tuple[Gateway, Upstream]) -> None:
    # region_loss (kit/faults/rds.py): a call signed for the lost Region gets AWS's answer
    # of a service that cannot serve (ServiceUnavailable, 503: SDKs retry it), in the
    # service's own protocol; other Regions are served; the refusal is recorded.
    gw, upstream = gateway
    upstream.release.set()
    gw.lose_region("us-east-1")
    east = capture("sqs", "get_queue_attributes", QueueUrl=QUEUE, AttributeNames=["All"])
    west = capture("secretsmanager", "get_secret_value", SecretId="s", region="us-west-2")
    lost = capture("secretsmanager", "get_secret_value", SecretId="s")
    status, headers, body = gw.handle(east.method, east.path, east.headers, east.body)
    assert status == 503 and b"ServiceUnavailable" in body and b"us-east-1" in body
    assert gw.handle(lost.method, lost.path, lost.headers, lost.body)[0] == 503
    assert not upstream.arrived.is_set()
    assert gw.handle(west.method, west.path, west.headers, west.body)[0] == 200
    ops = [op.value.as_dict() for op in gw.recorder.snapshot() if op.kind == "request_refused"]
    assert [(op["code"], op["service"]) for op in ops] == [
        ("ServiceUnavailable", "sqs"), ("ServiceUnavailable", "secretsmanager")]
    gw.restore_region("us-east-1")
    assert gw.handle(east.method, east.path, east.headers, east.body)[0] == 200
