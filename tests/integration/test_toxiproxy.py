"""Toxiproxy sits in the path: toxics slow and cut real SQS and PostgreSQL traffic."""

from __future__ import annotations

import statistics
import time

import psycopg
import pytest
from botocore.config import Config

from kit.run.sandbox import Sandbox
from tests.integration.test_sandbox import sqs


def _median_call_seconds(call, n: int = 5) -> float:  # noqa: ANN001
    samples = []
    for _ in range(n):
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def test_latency_toxic_slows_sqs_disable_cuts_it_removal_restores_it() -> None:
    with Sandbox(postgres=False) as sb:
        upstream = f"127.0.0.1:{sb.moto.port}"
        proxy = sb.toxiproxy.proxy("sqs", upstream)
        client = sqs(f"http://{proxy.address}")
        client.meta.config.retries = {"max_attempts": 1}
        url = client.create_queue(QueueName="orders")["QueueUrl"]

        def call() -> None:
            client.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])

        base = _median_call_seconds(call)
        proxy.add_toxic("slow", "latency", {"latency": 300, "jitter": 0})
        slowed = _median_call_seconds(call)
        assert slowed >= base + 0.25, (base, slowed)

        proxy.remove_toxic("slow")
        proxy.set_enabled(False)
        fast_fail = sqs(f"http://{proxy.address}")
        fast_fail._client_config = Config(retries={"max_attempts": 1}, connect_timeout=1)
        with pytest.raises(Exception, match="(?i)connect|closed|reset|aborted"):
            fast_fail.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])

        proxy.set_enabled(True)
        restored = _median_call_seconds(call)
        assert restored < base + 0.25, (base, restored)


def test_postgres_reachable_through_its_proxy_and_cut_when_disabled() -> None:
    with Sandbox() as sb:
        database = sb.postgres.workload_database()
        dsn = sb.postgres.reader_dsn(database.name)
        proxy = sb.toxiproxy.proxy("db", f"127.0.0.1:{sb.postgres.port}")
        via = database.url(proxy.port)
        with psycopg.connect(via) as conn:
            assert conn.execute("select 1").fetchone() == (1,)
        proxy.set_enabled(False)
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(via, connect_timeout=2)
        proxy.set_enabled(True)
        with psycopg.connect(dsn) as conn:
            assert conn.execute("select 1").fetchone() == (1,)
