"""The LocalStack launcher's shim: Python 3.11's uuid5 hashes a bytes name as 3.12's does."""

from __future__ import annotations

import uuid

import pytest

from kit.sandbox import localstack_main


def test_uuid5_takes_bytes_and_agrees_with_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(uuid, "uuid5", uuid.uuid5)  # restored after the test
    namespace = uuid.UUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8")
    before = uuid.uuid5(namespace, "key-material")
    localstack_main.uuid5_accepts_bytes()
    assert uuid.uuid5(namespace, b"key-material") == before
    assert uuid.uuid5(namespace, "key-material") == before
