"""docs/commands.md is what the parser says today (regenerate it with `python -m
kit.cli.reference > docs/commands.md`)."""

from __future__ import annotations

import argparse

from kit.cli import reference
from tests.conftest import ROOT


def test_the_committed_reference_is_the_parsers() -> None:
    assert (ROOT / "docs" / "commands.md").read_text() == reference.render(), (
        "docs/commands.md is stale: python -m kit.cli.reference > docs/commands.md")


def test_every_command_and_option_is_in_it() -> None:
    page = reference.render()
    parser = reference.build_parser()
    for name, sub in reference.subcommands(parser).items():
        assert f"## kit {name}\n" in page
        for action in sub._actions:
            for flag in action.option_strings:
                assert flag in page, (name, flag)


def test_a_new_option_changes_the_page(monkeypatch) -> None:  # noqa: ANN001
    before = reference.render()
    build = reference.build_parser

    def more() -> argparse.ArgumentParser:
        parser = build()
        reference.subcommands(parser)["list"].add_argument("--brand-new-option")
        return parser

    monkeypatch.setattr(reference, "build_parser", more)
    assert "--brand-new-option" in reference.render() != before
