"""Fixtures of the fault kinds' unit tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from moto import mock_aws

from tests.unit.faults.iam_moto import REGION, Admin


@pytest.fixture
def admin(monkeypatch: pytest.MonkeyPatch) -> Iterator[Admin]:
    """moto in process, with dummy credentials (nothing leaves the test)."""
    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                        "AWS_DEFAULT_REGION": REGION}.items():
        monkeypatch.setenv(name, value)
    with mock_aws():
        yield Admin()
