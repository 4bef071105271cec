"""Every shipped scenario's reviewed equivalent mutants name mutants of its golden, each
with a reason (kit/mutate/equivalents.py refuses a stale entry: this finds it first)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit.mutate import equivalents, generate

ROOT = Path(__file__).resolve().parents[2]
LISTED = sorted(p.parent.name for p in (ROOT / "scenarios").glob(f"*/{equivalents.FILE}"))


@pytest.mark.parametrize("name", LISTED)
def test_each_listed_equivalent_is_a_mutant_of_the_golden(name: str) -> None:
    known = {m.id for m in generate.mutants(ROOT / "golden" / name)}
    found = equivalents.load(ROOT / "scenarios" / name / equivalents.FILE, known)
    assert found and all(found.values())
