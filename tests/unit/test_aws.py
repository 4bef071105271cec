"""The kit's boto3 clients: one shared loader of service models, a session of their own."""

from __future__ import annotations

import pytest
from botocore.loaders import JSONFileLoader

from kit import aws

ENDPOINT = "http://127.0.0.1:9"  # never called: making a client sends nothing


def test_a_second_client_reads_no_model_file_again(monkeypatch: pytest.MonkeyPatch) -> None:
    aws.client("sqs", ENDPOINT)  # the models are loaded once, here at the latest
    reads: list[str] = []
    load = JSONFileLoader.load_file  # every loader's, shared or not
    monkeypatch.setattr(JSONFileLoader, "load_file",
                        lambda self, path: reads.append(path) or load(self, path))
    aws.client("sqs", ENDPOINT, aws.Credentials("AKIDOTHER", "other"))
    assert reads == []


def test_the_search_paths_do_not_grow_with_each_client() -> None:
    aws.client("sts", ENDPOINT)
    paths = list(aws._LOADER.search_paths)
    for _ in range(3):
        aws.client("sts", ENDPOINT)
    assert aws._LOADER.search_paths == paths
    assert len(set(paths)) == len(paths)


def test_each_client_keeps_its_own_credentials_and_endpoint() -> None:
    one = aws.client("sqs", ENDPOINT)
    other = aws.client("sqs", "http://127.0.0.1:10", aws.Credentials("AKIDB", "b", "tok"))
    assert one._request_signer._credentials.access_key == aws.ADMIN.access_key_id
    got = other._request_signer._credentials
    assert (got.access_key, got.secret_key, got.token) == ("AKIDB", "b", "tok")
    assert (one.meta.endpoint_url, other.meta.endpoint_url) == (ENDPOINT,
                                                                "http://127.0.0.1:10")
