"""The shape every fault kind has: its own heal() (healing is not optional), start() and
heal() abstract in the base, and optional abilities as small protocols that only the kinds
having them implement."""

from __future__ import annotations

import inspect
import threading
from pathlib import Path
from typing import Any

import pytest

from kit.faults import FAULTS, FaultContext, References
from kit.faults.base import FaultKind
from kit.faults.iam.resource_deny import DenyParams
from kit.faults.spec import Fault
from kit.recorder import Recorder

# The kinds whose params name scenario resources (checked when the scenario loads).
REFERENCING = {"resource_deny"}


def _own_heal(cls: type[FaultKind]) -> bool:
    """Whether `cls` writes heal() itself rather than inheriting one."""
    return "heal" in vars(cls) and not getattr(vars(cls)["heal"], "__isabstractmethod__",
                                                   False)


@pytest.mark.parametrize("kind", sorted(FAULTS))
def test_every_kind_writes_its_own_heal(kind: str) -> None:
    cls = FAULTS[kind]
    assert _own_heal(cls), f"{kind} ({cls.__name__}) inherits heal(): write it, and say " \
        "why in a comment when it has nothing to undo"
    assert not inspect.isabstract(cls)


def test_a_kind_that_inherits_its_heal_is_caught() -> None:
    # The check above can fail: a kind that leans on another kind's heal() is named.
    class Inherits(FAULTS["network_outage"]):  # type: ignore[misc, valid-type]
        pass

    assert not _own_heal(Inherits)


def test_a_kind_without_heal_cannot_be_built() -> None:
    class Forgets(FaultKind):
        def start(self) -> dict[str, Any]:
            return {}

    assert inspect.isabstract(Forgets)
    spec = Fault.model_validate({"kind": "network_outage", "target": "endpoint.aws"})
    ctx = FaultContext(spec=spec, params=FAULTS["network_outage"].Params(), recorder=Recorder(),
                       supervisor=None, gateway=None,  # type: ignore[arg-type]
                       stopping=threading.Event())
    with pytest.raises(TypeError, match="heal"):
        Forgets(ctx)  # type: ignore[abstract]


@pytest.mark.parametrize("kind", sorted(FAULTS))
def test_only_the_kinds_that_name_resources_have_the_references_hook(kind: str) -> None:
    assert isinstance(FAULTS[kind], References) == (kind in REFERENCING)


def test_resource_deny_names_its_principal_unless_everyone() -> None:
    kind = FAULTS["resource_deny"]
    assert isinstance(kind, References)
    assert kind.references(DenyParams(actions=["sqs:*"], principal="role.worker")) == [
        "role.worker"]
    assert kind.references(DenyParams(actions=["sqs:*"])) == []


@pytest.mark.parametrize("kind", sorted(FAULTS))
def test_every_kind_has_its_own_test_file(kind: str) -> None:
    # One file per kind, beside the others, so a new kind's tests have an obvious place.
    assert (Path(__file__).parent / f"test_{kind}.py").is_file(), \
        f"{kind}: add tests/unit/faults/test_{kind}.py (show the fault bites and heals)"
