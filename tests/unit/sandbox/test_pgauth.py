"""Logins to the kit's PostgreSQL servers: no TCP line trusts anyone; names and passwords
are random, so a workload learns nothing of the run (its seed) from them."""

from __future__ import annotations

import re
from pathlib import Path

import psycopg

from kit.sandbox import pgauth
from kit.sandbox.postgres import Database


def _rules() -> list[list[str]]:
    return [line.split() for line in pgauth.HBA.splitlines()
            if line.strip() and not line.startswith("#")]


def test_every_tcp_login_needs_a_password_and_only_the_socket_is_trusted() -> None:
    rules = _rules()
    assert all(rule[-1] == "scram-sha-256" for rule in rules if rule[0].startswith("host"))
    assert all(rule[0] == "local" for rule in rules if rule[-1] == "trust")
    assert any(rule[0] == "host" for rule in rules)  # TCP is not simply absent


def test_hba_is_written_owned_and_private(tmp_path: Path) -> None:
    pgauth.write_hba(tmp_path, None)
    hba = tmp_path / "pg_hba.conf"
    assert hba.read_text() == pgauth.HBA and hba.stat().st_mode & 0o777 == 0o600


def test_names_and_passwords_are_random_and_say_nothing_of_the_run() -> None:
    names = {pgauth.name("db") for _ in range(50)}
    assert len(names) == 50 and all(re.fullmatch(r"db_[0-9a-f]{16}", n) for n in names)
    secrets = {pgauth.password() for _ in range(50)}
    assert len(secrets) == 50 and all(re.fullmatch(r"[0-9a-f]{48}", s) for s in secrets)


def test_urls_parse_to_what_they_mean() -> None:
    kit = psycopg.conninfo.conninfo_to_dict(
        pgauth.socket_url(Path("/tmp/kit-pgs-x"), 5432, "kit_reader", "db_1"))
    assert kit == {"user": "kit_reader", "dbname": "db_1", "host": "/tmp/kit-pgs-x",
                   "port": "5432"}
    worker = psycopg.conninfo.conninfo_to_dict(Database("db_1", "w_1", "ab12").url(6000))
    assert worker == {"user": "w_1", "password": "ab12", "host": "127.0.0.1", "port": "6000",
                      "dbname": "db_1"}
