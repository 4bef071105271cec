"""The drill application's choice between its endpoint secret and a standby endpoint secret
(kit/workload/app.py `by_epoch`): the higher `epoch` wins, a tie keeps the endpoint
secret's, and an unreadable secret (its Region lost) leaves the other."""

from __future__ import annotations

from typing import Any

import pytest

from kit.workload.app import by_epoch, epoch

EAST = {"host": "127.0.0.1", "port": 5001, "epoch": 1}
WEST = {"host": "127.0.0.1", "port": 5002, "epoch": 2}


def value(found: dict[str, Any]) -> Any:
    return lambda: dict(found)


def lost() -> dict[str, Any]:
    raise ConnectionError("the Region is unreachable")


def test_the_higher_epoch_wins_and_a_tie_keeps_the_endpoint_secret() -> None:
    assert by_epoch(value(EAST), value(WEST))()["port"] == 5002
    assert by_epoch(value(WEST), value(EAST))()["port"] == 5002
    # A runbook that repoints the standby without raising the epoch: when the endpoint
    # secret's Region returns, the application goes back to the database it names.
    assert by_epoch(value(EAST), value({**WEST, "epoch": 1}))()["port"] == 5001


def test_an_unreadable_secret_leaves_the_other() -> None:
    assert by_epoch(lost, value(EAST))()["port"] == 5001
    assert by_epoch(value(EAST), lost)()["port"] == 5001
    with pytest.raises(ConnectionError):
        by_epoch(lost, lost)()


def test_without_a_standby_the_endpoint_secret_is_read_alone() -> None:
    read = value(EAST)
    assert by_epoch(read, None) is read


@pytest.mark.parametrize("found, expected", [
    ({}, 0), ({"epoch": 3}, 3), ({"epoch": "3"}, 0), ({"epoch": True}, 0),
    ({"epoch": 2.5}, 0)])
def test_an_epoch_is_an_integer_else_zero(found: dict[str, Any], expected: int) -> None:
    assert epoch(found) == expected
