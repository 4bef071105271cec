"""The toolchain's cache key: stable for one set of pins, different when any pin changes."""

from __future__ import annotations

import pytest

from kit import cli, settings
from kit.toolchain import stamp


def test_key_is_stable_and_printed(capsys):
    assert stamp.key() == stamp.key()
    assert cli.main(["toolchain-key"]) == 0
    assert capsys.readouterr().out.strip() == stamp.key()


@pytest.mark.parametrize("pin", ["AWS_PROVIDER", "TOXIPROXY", "ACTIONLINT"])
def test_key_changes_with_each_pin(pin: str, monkeypatch):
    before = stamp.key()
    monkeypatch.setattr(settings, pin, {**getattr(settings, pin), "version": "v0.0.0-other"})
    assert stamp.key() != before


def test_key_changes_with_the_provider_edits(monkeypatch):
    before = stamp.key()
    monkeypatch.setattr(stamp.provider_patches, "fingerprint", lambda patch: "other")
    assert stamp.key() != before


def test_path_is_the_cache(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("KIT_CACHE", str(tmp_path))
    assert cli.main(["toolchain-key", "--path"]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path)


@pytest.mark.parametrize("owner", ["runtime", "localstack_install"])
def test_key_changes_with_the_workers_runtime_or_localstack_lock(owner, monkeypatch, tmp_path):
    before = stamp.key()
    lock = tmp_path / "lock.txt"
    lock.write_text(getattr(stamp, owner).LOCK.read_text() + "# another resolution\n")
    monkeypatch.setattr(getattr(stamp, owner), "LOCK", lock)
    assert stamp.key() != before
