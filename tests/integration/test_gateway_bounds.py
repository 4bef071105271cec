"""Bounded inputs against a real gateway (in front of a real moto server) and the workers'
real network namespace: what a worker sends cannot grow the kit's memory, its history or
its descriptors and threads beyond a bound.

AWS's limits relied on (kit/gateway/limits.py cites each): an SQS message is at most
1 MiB (SendMessage API Reference, MessageBody: "The maximum size is 1 MiB or 1,048,576
bytes"); an access key id is 16 to 128 characters (IAM API Reference, AccessKey:
"Length Constraints: Minimum length of 16. Maximum length of 128").
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import botocore.exceptions
import psutil
import pytest

from kit import aws
from kit.gateway import limits
from kit.gateway import server as gateway_server
from kit.gateway.server import Gateway
from kit.history import MAX_KEY_ID
from kit.recorder import Recorder
from kit.run.sandbox import Sandbox
from kit.sandbox.netns import WorkerNetwork

MiB = 1024 * 1024
AUTH = ("AWS4-HMAC-SHA256 Credential={key}/20261201/us-east-1/sqs/aws4_request, "
        "SignedHeaders=host;x-amz-date, Signature=00")


@pytest.fixture(scope="module")
def moto_url() -> Iterator[str]:
    with Sandbox(postgres=False) as sb:
        yield sb.moto.url


def _ops(recorder: Recorder, kind: str) -> list[dict]:
    return [op.model_dump(exclude_unset=True) for op in recorder.snapshot() if op.kind == kind]


def _head(port: int, extra: dict[str, str], key: str = "AKIDBOUNDS0000001") -> bytes:
    lines = ["POST / HTTP/1.1", f"Host: 127.0.0.1:{port}",
             "X-Amz-Target: AmazonSQS.SendMessage",
             "Content-Type: application/x-amz-json-1.0",
             "X-Amz-Date: 20261201T000000Z", f"Authorization: {AUTH.format(key=key)}",
             *(f"{k}: {v}" for k, v in extra.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def _reply(sock: socket.socket) -> str:
    data = b""
    sock.settimeout(10)
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except (ConnectionResetError, TimeoutError):
        pass
    return data.decode(errors="replace")


def test_a_200_mib_body_is_refused_without_being_read(moto_url: str) -> None:
    recorder = Recorder()
    me = psutil.Process()
    with Gateway(moto_url, recorder) as gw:
        gw.register("AKIDBOUNDS0000001", "worker-0#0")
        before = me.memory_info().rss
        sent = 0
        with socket.create_connection(("127.0.0.1", gw.port)) as sock:
            sock.sendall(_head(gw.port, {"Content-Length": str(200 * MiB)}))
            chunk = b"x" * MiB
            try:
                while sent < 200 * MiB:
                    sock.sendall(chunk)
                    sent += len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the gateway answered and closed: the body is not wanted
            answer = _reply(sock)
        grown = me.memory_info().rss - before
    assert sent < 200 * MiB, "the gateway let the whole 200 MiB body in"
    assert grown < 32 * MiB, f"the kit's RSS grew by {grown / MiB:.0f} MiB"
    if answer:  # the reply can be lost to the reset of the unread body
        assert answer.startswith("HTTP/1.1 413"), answer[:200]
        assert "RequestEntityTooLarge" in answer
    refused, = _ops(recorder, "request_refused")
    assert refused["process"] == "worker-0#0"
    assert refused["value"]["code"] == "RequestEntityTooLarge"


def test_a_refusal_is_answered_before_the_body_is_sent(moto_url: str) -> None:
    # A client that waits (Expect: 100-continue, or simply reads first) gets the refusal.
    recorder = Recorder()
    with Gateway(moto_url, recorder) as gw, \
            socket.create_connection(("127.0.0.1", gw.port)) as sock:
        sock.sendall(_head(gw.port, {"Content-Length": str(200 * MiB)}))
        answer = _reply(sock)
    assert answer.startswith("HTTP/1.1 413"), answer[:200]
    assert "x-amzn-query-error: RequestEntityTooLarge;Sender" in answer


def test_a_chunked_body_is_refused_unread(moto_url: str) -> None:
    recorder = Recorder()
    with Gateway(moto_url, recorder) as gw, \
            socket.create_connection(("127.0.0.1", gw.port)) as sock:
        sock.sendall(_head(gw.port, {"Transfer-Encoding": "chunked"}))
        answer = _reply(sock)
    assert answer.startswith("HTTP/1.1 411"), answer[:200]
    assert [op["value"]["code"] for op in _ops(recorder, "request_refused")] == \
        ["MissingContentLength"]


def test_a_message_over_1_mib_is_refused_as_sqs_refuses_it(moto_url: str) -> None:
    recorder = Recorder()
    with Gateway(moto_url, recorder) as gw:
        url = aws.client("sqs", moto_url).create_queue(QueueName="bounds1")["QueueUrl"]
        gw.register("AKIDBOUNDS0000002", "worker-1#0")
        worker = aws.client("sqs", gw.url, aws.Credentials("AKIDBOUNDS0000002", "s"))
        with pytest.raises(botocore.exceptions.ClientError) as raised:
            worker.send_message(QueueUrl=url, MessageBody="x" * (limits.SQS_MAX_MESSAGE + 1))
        worker.send_message(QueueUrl=url, MessageBody="small")  # still served
    assert raised.value.response["Error"]["Code"] == "InvalidParameterValue"
    assert raised.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    refused, = _ops(recorder, "request_refused")
    assert (refused["process"], refused["value"]["code"]) == \
        ("worker-1#0", "InvalidParameterValue")


def test_over_long_access_key_ids_are_refused_and_recorded_bounded(
        moto_url: str, tmp_path: Path) -> None:
    recorder = Recorder()
    with Gateway(moto_url, recorder) as gw:
        answers = []
        for length in (20_000, 61_440):  # within the header budget; over it
            with socket.create_connection(("127.0.0.1", gw.port)) as sock:
                sock.sendall(_head(gw.port, {"Content-Length": "2", "Connection": "close"},
                                   key="K" * length) + b"{}")
                answers.append(_reply(sock))
    assert answers[0].startswith("HTTP/1.1 403"), answers[0][:200]
    assert "InvalidClientTokenId" in answers[0]
    assert answers[1].startswith("HTTP/1.1 431"), answers[1][:200]
    authn, = _ops(recorder, "authn")
    assert authn["value"]["access_key_id"].startswith("K" * MAX_KEY_ID)
    assert authn["value"]["access_key_id"].endswith(
        f"[kit: {20_000 - MAX_KEY_ID} more characters cut]")
    refused, = _ops(recorder, "request_refused")
    assert refused["process"] == "unknown" and "431" in refused["value"]["reason"]
    saved = recorder.history(None).save(tmp_path / "history.json")
    assert saved.stat().st_size < 4096, saved.read_text()[:500]


def test_gateway_connections_over_its_cap_are_refused_and_counted(
        moto_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gateway_server, "MAX_CONNECTIONS", 4)
    recorder = Recorder()
    with Gateway(moto_url, recorder) as gw:
        gw.register("AKIDBOUNDS0000003", "worker-2#0")
        idle = [socket.create_connection(("127.0.0.1", gw.port)) for _ in range(4)]
        try:
            with socket.create_connection(("127.0.0.1", gw.port)) as extra:
                extra.sendall(_head(gw.port, {"Content-Length": "2"}) + b"{}")
                assert _reply(extra) == ""  # closed at once, unanswered
        finally:
            idle.pop().close()
            for sock in idle:
                sock.close()
        # Once they are gone, a client within the cap is served.
        url = aws.client("sqs", moto_url).create_queue(QueueName="bounds2")["QueueUrl"]
        worker = aws.client("sqs", gw.url, aws.Credentials("AKIDBOUNDS0000003", "s"))
        worker.send_message(QueueUrl=url, MessageBody="served")
    codes = [op["value"]["code"] for op in _ops(recorder, "request_refused")]
    assert codes and set(codes) == {"ConnectionLimitExceeded"}


HOARDER = """
import os, socket, sys
port, children, each = {port}, {children}, {each}
held = []  # kept until exit: a connection closed early would free its slot
def hold(n):
    served, refused = 0, 0
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        try:
            s.sendall(b"x")
            ok = s.recv(1) == b"X"
        except OSError:
            ok = False
        served, refused = served + ok, refused + (not ok)
        held.append(s)
    return served, refused
pids, r, w = [], *os.pipe()
for _ in range(children):
    pid = os.fork()
    if pid == 0:
        served, refused = hold(each)
        os.write(w, f"{{served}} {{refused}}\\n".encode())
        sys.stdin.read()  # hold every connection until told to stop
        os._exit(0)
    pids.append(pid)
os.close(w)
with os.fdopen(r) as results:
    lines = [results.readline() for _ in pids]
print(sum(int(l.split()[0]) for l in lines), sum(int(l.split()[1]) for l in lines), flush=True)
sys.stdin.read()
for pid in pids:
    os.waitpid(pid, 0)
"""


@pytest.fixture
def echo() -> Iterator[int]:
    """A host server that answers each byte upper-cased, on every connection it accepts."""
    server = socket.create_server(("127.0.0.1", 0), backlog=256)

    def serve(conn: socket.socket) -> None:
        with conn:
            while data := conn.recv(100):
                conn.sendall(data.upper())

    def accept() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1]
    server.close()


def test_relay_connections_over_the_cap_are_refused_and_counted(echo: int) -> None:
    network = WorkerNetwork.create([echo], limit=12)
    if network is None:
        pytest.skip("this machine allows no network namespace (needs root)")
    other_run = WorkerNetwork.create([echo], limit=12)
    assert other_run is not None
    refusals: list[tuple[str, int, int, int]] = []
    with network, other_run:
        network.name_of = lambda pid: "hoarder" if pid == hoarder.pid else None
        network.on_refused = lambda *args: refusals.append(args)
        # 8 children of one worker hold 4 connections each: 32 asked, 12 allowed.
        hoarder = subprocess.Popen(
            [sys.executable, "-c", HOARDER.format(port=echo, children=8, each=4)],
            preexec_fn=network.enter, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True)
        try:
            assert hoarder.stdout is not None
            served, refused = map(int, hoarder.stdout.readline().split())
            # Another run's worker, within its allowance, is served while the hoarder holds.
            other = subprocess.run(
                [sys.executable, "-c", HOARDER.format(port=echo, children=1, each=3)],
                preexec_fn=other_run.enter, input="", capture_output=True, text=True,
                timeout=60, check=True)
        finally:
            hoarder.communicate(input="", timeout=60)
        # Once the hoarder is gone, its run's allowance is whole again.
        again = subprocess.run(
            [sys.executable, "-c", HOARDER.format(port=echo, children=1, each=12)],
            preexec_fn=network.enter, input="", capture_output=True, text=True,
            timeout=60, check=True)
    assert (served, refused) == (12, 20)
    assert other.stdout.split() == ["3", "0"]
    assert again.stdout.split() == ["12", "0"]
    # Each refusal is reported (the first REPORT_FIRST all), naming the worker.
    assert [r[0] for r in refusals] == ["hoarder"] * 20
    assert [r[2] for r in refusals] == list(range(1, 21))
    assert {(r[1], r[3]) for r in refusals} == {(echo, 12)}


def test_a_hoarder_connecting_in_a_loop_costs_the_kit_little(echo: int) -> None:
    # 8 children asking 100 connections each: refused at the price of a counter, and
    # reported at powers of two past the first REPORT_FIRST.
    network = WorkerNetwork.create([echo], limit=64)
    if network is None:
        pytest.skip("this machine allows no network namespace (needs root)")
    refusals: list[int] = []
    with network:
        network.on_refused = lambda worker, port, refused, limit: refusals.append(refused)
        cpu = time.process_time()
        hoarder = subprocess.Popen(
            [sys.executable, "-c", HOARDER.format(port=echo, children=8, each=100)],
            preexec_fn=network.enter, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True)
        assert hoarder.stdout is not None
        out = hoarder.stdout.readline()  # every child holds what it got until stdin ends
        cpu = time.process_time() - cpu
        hoarder.communicate(input="", timeout=60)
    assert out.split() == ["64", "736"]
    assert refusals == [*range(1, 21), 32, 64, 128, 256, 512]
    assert cpu < 5, f"the kit spent {cpu:.1f} s of CPU on 800 connections"
