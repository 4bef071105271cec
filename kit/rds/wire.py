"""The RDS query protocol's XML: read moto's records, rewrite them, answer errors.

moto answers every RDS call with the records it keeps (DBInstance, DBSnapshot elements in
the 2014-10-31 namespace); the handlers rewrite the fields the data plane owns (status,
endpoint, Multi-AZ, LatestRestorableTime) in place and leave the rest as moto wrote it.
"""

from __future__ import annotations

import uuid
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from typing import Any
from xml.sax.saxutils import escape

from kit.rds.errors import RdsError

NS = "http://rds.amazonaws.com/doc/2014-10-31/"
Reply = tuple[int, dict[str, str], bytes]
ET.register_namespace("", NS)


def parse(body: bytes) -> ET.Element:
    """The document of a moto reply."""
    return ET.fromstring(body)


def serialize(root: ET.Element) -> bytes:
    """The document back as bytes."""
    return ET.tostring(root, encoding="utf-8", xml_declaration=False)


def records(root: ET.Element, tag: str) -> list[ET.Element]:
    """Every record named `tag` (DBInstance, DBSnapshot) in the document."""
    return list(root.iter(f"{{{NS}}}{tag}"))


def text(record: ET.Element, name: str) -> str | None:
    """The text of the child `name` (a path such as Endpoint/Port), or None."""
    found = record.find("/".join(f"{{{NS}}}{part}" for part in name.split("/")))
    return found.text if found is not None else None


def put(record: ET.Element, name: str, value: str | None) -> None:
    """Set the child `name` (a path) to `value`, creating it; None removes it."""
    parent = record
    *path, leaf = name.split("/")
    for part in path:
        child = parent.find(f"{{{NS}}}{part}")
        parent = child if child is not None else ET.SubElement(parent, f"{{{NS}}}{part}")
    found = parent.find(f"{{{NS}}}{leaf}")
    if value is None:
        if found is not None:
            parent.remove(found)
        return
    if found is None:
        found = ET.SubElement(parent, f"{{{NS}}}{leaf}")
    found.text = value


def timestamp(when: datetime) -> str:
    """An ISO 8601 UTC timestamp as the API writes them (milliseconds)."""
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def parse_time(value: str) -> datetime:
    """A timestamp parameter (ISO 8601, as SDKs send RestoreTime) as an aware datetime."""
    when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def flag(params: dict[str, Any], name: str) -> bool | None:
    """A boolean query parameter (None when absent)."""
    value = params.get(name)
    return None if value is None else str(value).lower() == "true"


def error(err: RdsError) -> Reply:
    """The ErrorResponse document of an RDS error, with its status."""
    body = (f'<ErrorResponse xmlns="{NS}"><Error><Type>Sender</Type><Code>{err.code}</Code>'
            f"<Message>{escape(err.message)}</Message></Error>"
            f"<RequestId>{uuid.uuid4()}</RequestId></ErrorResponse>")
    return err.status, {"Content-Type": "text/xml"}, body.encode()
