"""The session's seed: from --kit-seed, else KIT_SEED, else drawn from the clock; and the
header line that prints it with the command that reruns the session with it."""

from __future__ import annotations

import shlex
import time
from collections.abc import Mapping, Sequence

ENV = "KIT_SEED"
OPTION = "--kit-seed"
LIMIT = 2**32  # seeds are unsigned 32-bit, as pytest-randomly's


class SeedError(ValueError):
    """A seed given on the command line or in the environment that is not one."""


def parse(text: str, source: str) -> int:
    """The seed in `text` (from `source`, named in the error)."""
    try:
        seed = int(text.strip())
    except ValueError:
        raise SeedError(f"{source} {text!r}: not a whole number; give e.g. "
                        f"{OPTION} 1234") from None
    if not 0 <= seed < LIMIT:
        raise SeedError(f"{source} {text!r}: out of range; give a number from 0 to "
                        f"{LIMIT - 1}")
    return seed


def resolve(option: str | None, environ: Mapping[str, str],
            clock: float | None = None) -> tuple[int, str]:
    """(the seed, where it came from): the option, else the environment, else the clock."""
    if option is not None:
        return parse(option, OPTION), OPTION
    if environ.get(ENV, "").strip():
        return parse(environ[ENV], ENV), ENV
    # Microseconds: two sessions started in the same second still draw different seeds.
    now = time.time() if clock is None else clock
    return round(now * 1_000_000) % LIMIT, "the clock"


def without_seed(args: Sequence[str]) -> list[str]:
    """The command-line arguments without any --kit-seed (either spelling)."""
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == OPTION:
            skip = True
        elif not arg.startswith(OPTION + "="):
            kept.append(arg)
    return kept


def rerun_command(args: Sequence[str], seed: int) -> str:
    """The command that runs the session again with the same seed."""
    return shlex.join(["pytest", *without_seed(args), f"{OPTION}={seed}"])


def header(seed: int, source: str, args: Sequence[str]) -> str:
    """The report header's line: the seed, its source, and how to rerun with it."""
    return f"kit: seed {seed} (from {source}); rerun with: {rerun_command(args, seed)}"
