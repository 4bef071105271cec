from __future__ import annotations

from pathlib import Path

import pytest

from kit import cli, settings, toolchain


def test_replace_lines_of_single_and_block_forms() -> None:
    gomod = """module x
replace a => b v1.0.0
replace (
    c => ./local // comment
    d v1 => e v2
)
require z v1
"""
    assert toolchain._replace_lines(gomod) == [
        "replace a => b v1.0.0", "replace c => ./local", "replace d v1 => e v2"]


def test_cli_config_names_the_mirror_for_both_registry_hosts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIT_CACHE", str(tmp_path))
    monkeypatch.delenv("KIT_PROVIDERS", raising=False)
    text = toolchain.write_cli_config().read_text()
    assert str(settings.mirror_dir()) in text
    for host in settings.REGISTRY_HOSTS:
        assert f"{host}/hashicorp/*" in text


def test_registry_mode_uses_a_plugin_cache_instead(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIT_CACHE", str(tmp_path))
    monkeypatch.setenv("KIT_PROVIDERS", "registry")
    text = toolchain.write_cli_config().read_text()
    assert "plugin_cache_dir" in text and "filesystem_mirror" not in text


def test_doctor_without_mirror_prints_the_fix_and_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KIT_CACHE", str(tmp_path))
    monkeypatch.delenv("KIT_PROVIDERS", raising=False)
    code = cli.main(["doctor"])
    out = capsys.readouterr().out
    assert code != 0
    assert f"hashicorp/aws {settings.AWS_PROVIDER['version']}" in out
    assert "make setup" in out


def test_doctor_lists_each_utility_provider_with_its_fix(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KIT_CACHE", str(tmp_path))
    monkeypatch.delenv("KIT_PROVIDERS", raising=False)
    cli.main(["doctor"])
    out = capsys.readouterr().out
    for name, spec in settings.utility_specs().items():
        assert f"hashicorp/{name} {spec['version']} in mirror" in out
    assert {"time", "local", "tls", "null", "archive"} <= set(settings.provider_specs())


def test_the_build_keeps_the_callers_goflags(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A shared machine builds with GOFLAGS=-p=1; the build adds -buildvcs=false to it.
    monkeypatch.setenv("KIT_CACHE", str(tmp_path))
    monkeypatch.setenv("GOFLAGS", "-p=1")
    seen: dict[str, str] = {}

    def fake_run(cmd: list[str], **kwargs: object) -> object:
        seen["GOFLAGS"] = kwargs["env"]["GOFLAGS"]  # type: ignore[index]
        raise RuntimeError("stop")

    monkeypatch.setattr(toolchain.shutil, "which", lambda name: "/usr/bin/go")
    monkeypatch.setattr(toolchain.subprocess, "run", fake_run)
    with pytest.raises(RuntimeError):
        toolchain.go_build("x", "example.com/x", "v1.0.0", "example.com/x",
                           tmp_path / "out", print)
    assert seen["GOFLAGS"] == "-buildvcs=false -p=1"
