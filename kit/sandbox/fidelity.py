"""Fidelity fixes for moto: each restores one documented AWS behaviour moto lacks.

A solution must never fail, or pass, because of an emulator gap. Every fix here is applied
in the moto server process before it serves, and is proven by a test in
tests/integration/test_fidelity.py that states the AWS behaviour it restores.
"""

from __future__ import annotations

from typing import Any


def restore_redrive_allow_policy() -> None:
    """SQS stores and returns the RedriveAllowPolicy queue attribute (moto 5.2 drops it).

    AWS: SetQueueAttributes/CreateQueue accept RedriveAllowPolicy and GetQueueAttributes
    returns it; `aws_sqs_queue_redrive_allow_policy` waits for it to read back.
    """
    from moto.sqs.models import Queue

    if "RedriveAllowPolicy" in Queue.BASE_ATTRIBUTES:
        return
    Queue.BASE_ATTRIBUTES.append("RedriveAllowPolicy")
    Queue.redrive_allow_policy = None  # type: ignore[attr-defined]
    original = Queue.attributes.fget  # type: ignore[attr-defined]

    def attributes(self: Any) -> dict[str, Any]:
        result = original(self)
        if not result.get("RedriveAllowPolicy"):
            result.pop("RedriveAllowPolicy", None)
        return result

    Queue.attributes = property(attributes)  # type: ignore[assignment]


FIXES = (restore_redrive_allow_policy,)


def apply_all() -> None:
    """Apply every fidelity fix; idempotent."""
    for fix in FIXES:
        fix()
