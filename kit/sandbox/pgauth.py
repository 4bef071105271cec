"""Who may log in to the kit's PostgreSQL servers, and how.

Over TCP (the only way a workload reaches a server: through its Toxiproxy listener) every
login needs a password (scram-sha-256); the kit's own roles have none, so they cannot log in
that way at all. The kit itself connects through the server's Unix socket, in a directory
only the kit and the servers' user can enter (mode 0700), where `trust` is safe. This file
is written into every data directory before its server starts, whatever the template or
backup it was copied from says (the cached template of older kits trusted loopback).
"""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path

HBA = """\
# Written by the kit (kit/sandbox/pgauth.py): the Unix socket is the kit's (its directory is
# private); TCP logins need a password.
local all all trust
local replication all trust
host all all 127.0.0.1/32 scram-sha-256
host all all ::1/128 scram-sha-256
"""
# Roles of the workload get a CONNECTION LIMIT; the kit's superuser sessions keep slots of
# their own (superuser_reserved_connections) whatever other roles hold.
RESERVED_FOR_KIT = 10


def write_hba(data: Path, owner: str | None) -> None:
    """Write the kit's pg_hba.conf into the data directory `data` (owned by `owner`)."""
    hba = data / "pg_hba.conf"
    hba.write_text(HBA)
    hba.chmod(0o600)
    shutil.chown(hba, owner or os.getuid())


def password() -> str:
    """A fresh random password (hex: safe in a libpq URL as it is)."""
    return secrets.token_hex(24)


def name(prefix: str) -> str:
    """A fresh random identifier (a role or database name that says nothing of the run)."""
    return f"{prefix}_{secrets.token_hex(8)}"


def socket_url(socket_dir: Path, port: int, user: str, dbname: str) -> str:
    """A libpq URL over the Unix socket in `socket_dir` (the kit's way in)."""
    return f"postgresql://{user}@/{dbname}?host={socket_dir}&port={port}"
