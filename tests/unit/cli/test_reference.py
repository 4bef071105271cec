"""The generated reference pages (docs/commands.md, invariants.md, workload-api.md) are
what the code says today (regenerate them with `python -m kit.cli.reference`)."""

from __future__ import annotations

import argparse

import pytest

from kit.checks.invariants import INVARIANTS
from kit.cli import reference


@pytest.mark.parametrize("page", sorted(reference.PAGES))
def test_the_committed_page_is_the_codes(page: str) -> None:
    assert (reference.DOCS / page).read_text() == reference.PAGES[page](), (
        f"docs/{page} is stale: python -m kit.cli.reference")


def test_every_command_and_option_is_in_the_commands_page() -> None:
    page = reference.commands()
    for name, sub in reference.subcommands(reference.build_parser()).items():
        assert f"## kit {name}\n" in page
        for action in sub._actions:
            for flag in action.option_strings:
                assert flag in page, (name, flag)


def test_every_invariant_and_parameter_is_in_the_invariants_page() -> None:
    page = reference.invariants()
    for invariant, row in INVARIANTS.items():
        assert f"## {invariant}\n" in page
        for name in row.params():
            assert f"- `{name}`: " in page, (invariant, name)


def test_a_new_option_changes_the_commands_page(monkeypatch: pytest.MonkeyPatch) -> None:
    before = reference.commands()
    build = reference.build_parser

    def more() -> argparse.ArgumentParser:
        parser = build()
        reference.subcommands(parser)["list"].add_argument("--brand-new-option")
        return parser

    monkeypatch.setattr(reference, "build_parser", more)
    assert "--brand-new-option" in reference.commands() != before
