"""The handler's code: the scenario's `source`, else the package Terraform deployed
(`filename` in the state) unpacked as Lambda unpacks it, refusing what would escape it."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from kit.errors import InputError
from kit.lambdas import package

STATE = {"resources": [{"mode": "managed", "type": "aws_lambda_function", "name": "c",
                        "instances": [{"attributes": {"function_name": "consumer",
                                                      "filename": "build/consumer.zip"}}]}]}


def _workspace(tmp_path: Path, members: dict[str, str]) -> Path:
    (tmp_path / "build").mkdir()
    with zipfile.ZipFile(tmp_path / "build" / "consumer.zip", "w") as zf:
        for name, text in members.items():
            zf.writestr(name, text)
    (tmp_path / "terraform.tfstate").write_text(json.dumps(STATE))
    return tmp_path


def test_the_deployed_package_is_unpacked_into_the_workspace(tmp_path: Path) -> None:
    ws = _workspace(tmp_path, {"handler.py": "x = 1\n", "lib/util.py": ""})
    inside = package.code_dir(ws, None, "consumer")
    assert inside == ".kit-lambda/consumer"
    assert (ws / inside / "handler.py").read_text() == "x = 1\n"
    assert (ws / inside / "lib" / "util.py").is_file()


def test_source_wins_over_the_package(tmp_path: Path) -> None:
    ws = _workspace(tmp_path, {"handler.py": ""})
    (ws / "app").mkdir()
    assert package.code_dir(ws, "app", "consumer") == "app"
    with pytest.raises(InputError, match="workers.source: 'nope'"):
        package.code_dir(ws, "nope", "consumer")


@pytest.mark.parametrize("name", ["../evil.py", "/etc/evil.py"])
def test_a_member_outside_the_package_is_refused(tmp_path: Path, name: str) -> None:
    ws = _workspace(tmp_path, {name: ""})
    with pytest.raises(InputError, match="outside the package"):
        package.code_dir(ws, None, "consumer")


def test_a_function_not_deployed_from_a_file_asks_for_source(tmp_path: Path) -> None:
    (tmp_path / "terraform.tfstate").write_text(json.dumps({"resources": []}))
    with pytest.raises(InputError, match="workers.source"):
        package.code_dir(tmp_path, None, "consumer")
