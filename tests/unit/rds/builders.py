"""Builders shared by the RDS data plane's unit tests: instances without servers, the
records moto answers with, and the error a reply carries."""

from __future__ import annotations

import threading
import xml.etree.ElementTree as ET
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from kit.rds.api import Request
from kit.rds.backups import BaseBackup
from kit.rds.config import RdsTimings
from kit.rds.instance import DbInstance, Spec
from kit.rds.plane import DataPlane
from kit.rds.wire import NS, Reply

PORT = 15432


class Endpoint:
    """Stands in for an instance's Toxiproxy listener: records what it is told."""

    port = PORT

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def set_enabled(self, enabled: bool) -> None:
        self.calls.append(("enabled", enabled))

    def set_upstream(self, upstream: str, enabled: bool = True) -> None:
        self.calls.append(("upstream", upstream, enabled))


def spec(identifier: str = "ledger", *, multi_az: bool = False, retention: int = 1) -> Spec:
    """What moto's record of a postgres instance says."""
    return Spec(identifier=identifier, resource_id=f"db-{identifier.upper()}",
                master_username="app", db_name="ledger", multi_az=multi_az,
                retention_days=retention)


def instance(root: Path, *, status: str = "available", emit: Callable[..., None] | None = None,
             timings: RdsTimings | None = None, **kwargs: Any) -> DbInstance:
    """A DB instance with no server behind it, in `status`."""
    made = DbInstance(spec(**kwargs), root, Endpoint(), timings or RdsTimings(),  # type: ignore[arg-type]
                      threading.Event(), emit or (lambda *a, **k: None), None,  # type: ignore[arg-type]
                      "kit-password")
    made.status = status
    return made


def backed_up(made: DbInstance, first: datetime, latest: datetime) -> DbInstance:
    """Give an instance a base backup taken at `first` and WAL shipped up to `latest`."""
    made.backups.bases.append(BaseBackup(made.backups.root / "base-0", first))
    made.backups.latest = latest
    return made


def plane(root: Path, *instances: DbInstance) -> DataPlane:
    """An enabled plane holding `instances` (no Toxiproxy, no clock thread)."""
    made = DataPlane(root / "rds", None)  # type: ignore[arg-type]
    made.enabled = True
    for one in instances:
        made.add(one)
    return made


class Moto:
    """Stands in for the call forwarded to moto: answers `reply`, counts the calls."""

    def __init__(self, reply: Reply | None = None) -> None:
        self.calls = 0
        self.reply = reply or error_reply("DBInstanceNotFound", 404)

    def __call__(self) -> Reply:
        self.calls += 1
        return self.reply


def request(the_plane: DataPlane, moto: Moto, **params: str) -> Request:
    """One RDS call with these query parameters."""
    return Request(params, the_plane, moto, admin=None)


def error_reply(code: str, status: int) -> Reply:
    """An ErrorResponse as moto answers it."""
    body = (f'<ErrorResponse xmlns="{NS}"><Error><Code>{code}</Code><Message>m</Message>'
            "</Error></ErrorResponse>")
    return status, {"Content-Type": "text/xml"}, body.encode()


def error_of(reply: Reply) -> tuple[int, str, str]:
    """(HTTP status, error code, message) of an ErrorResponse reply."""
    root = ET.fromstring(reply[2])
    code = root.findtext(f"{{{NS}}}Error/{{{NS}}}Code") or ""
    message = root.findtext(f"{{{NS}}}Error/{{{NS}}}Message") or ""
    return reply[0], code, message


def describe_reply(*records: str) -> Reply:
    """A DescribeDBInstances (or DescribeDBSnapshots) reply holding `records`."""
    body = (f'<DescribeDBInstancesResponse xmlns="{NS}"><DescribeDBInstancesResult>'
            f"<DBInstances>{''.join(records)}</DBInstances></DescribeDBInstancesResult>"
            "</DescribeDBInstancesResponse>")
    return 200, {"Content-Type": "text/xml"}, body.encode()


def instance_record(identifier: str, status: str = "available", multi_az: bool = False) -> str:
    """A DBInstance record as moto writes it (its own status and endpoint)."""
    return (f"<DBInstance><DBInstanceIdentifier>{identifier}</DBInstanceIdentifier>"
            f"<DBInstanceArn>arn:aws:rds:us-east-1:123456789012:db:{identifier}</DBInstanceArn>"
            f"<DBInstanceStatus>{status}</DBInstanceStatus><Endpoint><Address>moto.example"
            "</Address><Port>5432</Port></Endpoint>"
            f"<MultiAZ>{'true' if multi_az else 'false'}</MultiAZ>"
            "<Engine>postgres</Engine></DBInstance>")
