"""Shared pytest setup: integration tests are marked by folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit.sandbox.limits import raise_own_open_files
from tests.cpu_time import pytest_runtest_protocol, pytest_terminal_summary

ROOT = Path(__file__).resolve().parent.parent
__all__ = ["pytest_runtest_protocol", "pytest_terminal_summary"]  # CPU per test: tests/cpu_time.py


def pytest_configure(config: pytest.Config) -> None:
    # The kit runs in this process as `kit` runs in its own: with its whole allowance.
    raise_own_open_files()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "integration" in Path(str(item.fspath)).parts:
            item.add_marker(pytest.mark.integration)
