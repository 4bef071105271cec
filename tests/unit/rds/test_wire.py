"""The RDS query protocol's XML: record fields read and rewritten by path, timestamps as the
API writes and SDKs send them, boolean parameters, and error replies."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta, timezone

from kit.rds import wire
from kit.rds.errors import DBSnapshotNotFound, InvalidParameterValue
from kit.rds.wire import NS

from .builders import error_of


def record() -> ET.Element:
    return wire.parse(f'<DBInstance xmlns="{NS}"><Endpoint><Port>5432</Port></Endpoint>'
                      "</DBInstance>".encode())


def test_put_sets_creates_and_removes_by_path():
    found = record()
    wire.put(found, "Endpoint/Port", "15432")
    wire.put(found, "Endpoint/Address", "127.0.0.1")
    wire.put(found, "LatestRestorableTime", "2026-12-01T12:00:00.000Z")
    assert wire.text(found, "Endpoint/Port") == "15432"
    assert wire.text(found, "Endpoint/Address") == "127.0.0.1"
    assert wire.text(found, "LatestRestorableTime") == "2026-12-01T12:00:00.000Z"
    wire.put(found, "Endpoint", None)
    wire.put(found, "NotThere", None)  # removing what is absent is no error
    assert wire.text(found, "Endpoint/Port") is None
    assert b"Endpoint" not in wire.serialize(found)


def test_timestamps_are_utc_with_milliseconds():
    # The API writes ISO 8601 in UTC (e.g. LatestRestorableTime 2026-12-01T12:00:00.123Z).
    east = timezone(timedelta(hours=2))
    assert wire.timestamp(datetime(2026, 12, 1, 14, 0, 0, 123456, tzinfo=east)) == \
        "2026-12-01T12:00:00.123Z"


def test_restore_time_is_read_with_z_offset_or_none():
    want = datetime(2026, 12, 1, 12, 0, 30, tzinfo=UTC)
    assert wire.parse_time("2026-12-01T12:00:30Z") == want
    assert wire.parse_time("2026-12-01T14:00:30+02:00") == want
    assert wire.parse_time("2026-12-01T12:00:30") == want  # no offset: UTC


def test_flags_are_true_false_or_absent():
    params = {"MultiAZ": "true", "SkipFinalSnapshot": "False", "Other": "yes"}
    assert wire.flag(params, "MultiAZ") is True
    assert wire.flag(params, "SkipFinalSnapshot") is False
    assert wire.flag(params, "Other") is False
    assert wire.flag(params, "DeletionProtection") is None


def test_an_error_reply_carries_its_code_status_and_escaped_message():
    # CommonErrors / each action's Errors: DBSnapshotNotFound is HTTP 404, a parameter
    # error 400; the message is text, escaped in the XML.
    assert error_of(wire.error(DBSnapshotNotFound("snap <a&b> not found."))) == \
        (404, "DBSnapshotNotFound", "snap <a&b> not found.")
    status, headers, _ = wire.error(InvalidParameterValue("bad"))
    assert (status, headers) == (400, {"Content-Type": "text/xml"})
