"""Every module of modules/ documents what it stands for, each input and each output."""

from __future__ import annotations

import pytest

from kit.deploy.hcl import items, parse
from kit.scenario import MODULES

NAMES = sorted(p.name for p in MODULES.iterdir() if p.is_dir())


@pytest.mark.parametrize("name", NAMES)
def test_the_readme_names_every_input_and_output(name: str) -> None:
    module = MODULES / name
    readme = (module / "README.md").read_text()
    config = parse(module)
    inputs = [n for doc in config.at_root() for n, _ in items(doc.content.get("variable"))]
    outputs = [n for doc in config.at_root() for n, _ in items(doc.content.get("output"))]
    assert outputs, f"{name} has no output: a baseline binds nothing"
    missing = [n for n in inputs + outputs if f"`{n}`" not in readme]
    assert not missing, f"{module / 'README.md'} does not name {missing}"
    assert f"({name}/README.md)" in (MODULES / "README.md").read_text()


def test_modules_is_a_folder_of_modules() -> None:
    assert NAMES and all(any((MODULES / n).glob("*.tf")) for n in NAMES)
