"""The fidelity table of docs/emulators.md is measured: every documented behaviour the kit probes
(kit/probes/) runs on moto (with the kit's fixes) and on LocalStack, and the table must say
what was measured. A mismatch prints the table as measured, to paste into that page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from kit import aws, probes
from kit.run.sandbox import Sandbox
from kit.toolchain import localstack_install
from tests.conftest import ROOT

EMULATORS = ("moto", "localstack")
TABLE = re.compile(r"<!-- fidelity-table -->\n(.*?)<!-- /fidelity-table -->", re.S)


@pytest.fixture(scope="module")
def measured() -> Iterator[dict[str, dict[str, probes.Observation]]]:
    if localstack_install.python() is None:
        pytest.fail(f"LocalStack is not installed: {localstack_install.FIX}")
    found: dict[str, dict[str, probes.Observation]] = {}
    for emulator in EMULATORS:
        with Sandbox(postgres=False, emulator=emulator) as sandbox:
            def clients(service: str, sandbox: Sandbox = sandbox) -> Any:
                return aws.client(service, sandbox.endpoint(service))

            for behaviour, seen in probes.observe(probes.behaviours(), clients).items():
                found.setdefault(behaviour, {})[emulator] = seen
    yield found


def _row(behaviour: probes.Behaviour, seen: dict[str, probes.Observation]) -> str:
    service = behaviour.id.split(".")[0].upper()
    return (f"| {service} | `{behaviour.id}`: {behaviour.title} | "
            + " | ".join("yes" if seen[e].matches else "no" for e in EMULATORS) + " |")


def test_the_fidelity_table_is_what_was_measured(
        measured: dict[str, dict[str, probes.Observation]]) -> None:
    found = TABLE.search((ROOT / "docs" / "emulators.md").read_text())
    assert found, "docs/emulators.md has no <!-- fidelity-table --> block"
    rows = {line.split("`")[1]: line.strip() for line in found.group(1).splitlines()
            if line.startswith("| ") and "`" in line}
    known = probes.behaviours()
    expected = {b: _row(known[b], seen) for b, seen in measured.items()}
    details = "\n".join(f"{b} {e}: {seen[e].detail}" for b, seen in measured.items()
                        for e in EMULATORS)
    assert rows == expected, ("docs/emulators.md's fidelity table differs from what was measured; "
                              "measured:\n" + "\n".join(expected.values()) + "\n" + details)


def test_the_kits_own_fixes_hold_on_moto(
        measured: dict[str, dict[str, probes.Observation]]) -> None:
    # Each fix in kit/sandbox/fidelity/ restores a behaviour probed here.
    for behaviour in ("sqs.one_receiver", "sqs.fifo_deduplication",
                      "sqs.fifo_expired_receipt_handle"):
        assert measured[behaviour]["moto"].matches, measured[behaviour]["moto"].detail
