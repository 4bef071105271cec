"""The pytest plugin's seed: where it comes from, the errors for a bad one, the header's
rerun command (kit/testing/seed.py)."""

from __future__ import annotations

import shlex

import pytest

from kit.testing import seed as seeds


def test_the_option_wins_over_the_environment() -> None:
    assert seeds.resolve("17", {seeds.ENV: "99"}) == (17, "--kit-seed")


def test_the_environment_wins_over_the_clock() -> None:
    assert seeds.resolve(None, {seeds.ENV: " 99 "}, clock=5.0) == (99, "KIT_SEED")


def test_without_either_the_clock_draws_it() -> None:
    assert seeds.resolve(None, {}, clock=12.000345) == (12_000_345, "the clock")
    assert seeds.resolve(None, {seeds.ENV: ""}, clock=1.0)[1] == "the clock"
    assert seeds.resolve(None, {}, clock=1.0) != seeds.resolve(None, {}, clock=1.000001)


@pytest.mark.parametrize(("text", "says"), [
    ("abc", "--kit-seed 'abc': not a whole number; give e.g. --kit-seed 1234"),
    ("-1", "out of range; give a number from 0 to 4294967295"),
    (str(2**32), "out of range"),
])
def test_a_bad_seed_is_named_with_the_fix(text: str, says: str) -> None:
    with pytest.raises(seeds.SeedError) as raised:
        seeds.parse(text, "--kit-seed")
    assert says in str(raised.value)


def test_a_bad_environment_seed_names_the_variable() -> None:
    with pytest.raises(seeds.SeedError, match="^KIT_SEED 'x1': not a whole number"):
        seeds.resolve(None, {seeds.ENV: "x1"})


@pytest.mark.parametrize("args", [
    ["examples/pytest", "--kit-seed", "3", "-x"],
    ["examples/pytest", "--kit-seed=3", "-x"],
    ["examples/pytest", "-x"],
])
def test_the_rerun_command_carries_the_seed_once(args: list[str]) -> None:
    command = shlex.split(seeds.rerun_command(args, 42))
    assert command == ["pytest", "examples/pytest", "-x", "--kit-seed=42"]


def test_the_rerun_command_quotes_what_the_shell_would_split() -> None:
    assert seeds.rerun_command(["-k", "a and b"], 1) == "pytest -k 'a and b' --kit-seed=1"


def test_the_header_says_seed_source_and_rerun() -> None:
    assert seeds.header(7, "the clock", ["t.py"]) == (
        "kit: seed 7 (from the clock); rerun with: pytest t.py --kit-seed=7")
