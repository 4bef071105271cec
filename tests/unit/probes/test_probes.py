"""The probes' bookkeeping and judging without an emulator: the registry and what
invariants rest on, a probe that breaks reported as an observation, the verdict in words,
and each judged probe's pass rule on scripted answers (the documented behaviour and the
answers that break it)."""

from __future__ import annotations

import dataclasses
from typing import Any

from botocore.exceptions import ClientError

from kit import probes, scenario
from kit.probes import Observation, kms, sqs


def _tables() -> list[dict]:
    """Every shipped scenario's invariant table (the kit's rows and its own checks')."""
    return [scenario.load(name).table for name in scenario.known()]


def test_every_behaviour_an_invariant_rests_on_is_probed():
    known = probes.behaviours()
    named = {b for table in _tables() for row in table.values() for b in row.relied_on}
    assert named - set(known) == set()
    # A scenario's own checks declare theirs (fifo-ledger's rest on the FIFO order).
    fifo = scenario.load("fifo-ledger").table
    assert "sqs.fifo_order" in fifo["ledger.per_group_order"].relied_on
    # Ids are unique (the registry is a dict: a duplicate would hide a probe).
    count = len(sqs.BEHAVIOURS) + len(kms.BEHAVIOURS) + len(probes.iam.BEHAVIOURS)
    assert len(known) == count


def test_a_typo_in_a_rows_behaviours_is_caught(monkeypatch):
    from kit.checks import invariants

    row = invariants.INVARIANTS["delivery.no_loss"]
    monkeypatch.setitem(invariants.INVARIANTS, "delivery.no_loss",
                        dataclasses.replace(row, relied_on=("sqs.no_such_behaviour",)))
    named = {b for r in invariants.INVARIANTS.values() for b in r.relied_on}
    assert named - set(probes.behaviours()) == {"sqs.no_such_behaviour"}


def test_behaviours_are_chosen_by_the_service_their_id_names():
    assert probes.of_services(["kms"]) == ["kms.round_trip", "kms.disabled_key"]
    assert "sqs.kms_disabled_key" in probes.of_services(["sqs"])
    assert probes.of_services([]) == []


def test_a_probe_that_breaks_is_an_observation_not_an_exception():
    def clients(service: str) -> Any:
        raise RuntimeError(f"{service} is down " + "x" * 300)

    seen = probes.observe(["kms.round_trip", "sqs.fifo_order"], clients)
    assert set(seen) == {"kms.round_trip", "sqs.fifo_order"}
    for observation in seen.values():
        assert not observation.matches
        assert observation.detail.startswith("the probe failed: RuntimeError: ")
        assert len(observation.detail) == len("the probe failed: RuntimeError: ") + 200


def test_the_verdict_names_the_emulators_that_behave_as_aws_documents():
    yes, no = Observation(True, ""), Observation(False, "")
    assert probes.verdict({"moto": yes, "localstack": yes}) == "both behave as AWS documents"
    assert probes.verdict({"moto": no, "localstack": no}) == \
        "neither behaves as AWS documents"
    assert probes.verdict({"moto": no, "localstack": yes}) == \
        "localstack behaves as AWS documents"
    assert probes.as_dict(yes) == {"matches": True, "detail": ""}


# --- judging on scripted answers -----------------------------------------------------------


class Queue:
    """Stands in for an SQS client: each receive answers the next scripted batch."""

    def __init__(self, batches: list[list[dict[str, Any]]]) -> None:
        self.batches = batches
        self.sent: list[str] = []

    def create_queue(self, QueueName: str, Attributes: dict[str, str]) -> dict[str, str]:  # noqa: N803
        return {"QueueUrl": f"http://sqs/{QueueName}"}

    def send_message(self, QueueUrl: str, MessageBody: str, **_: Any) -> None:  # noqa: N803
        self.sent.append(MessageBody)

    def receive_message(self, **_: Any) -> dict[str, Any]:
        return {"Messages": self.batches.pop(0) if self.batches else []}

    def delete_message(self, **_: Any) -> None:
        pass


def message(body: str, receives: int = 1) -> dict[str, Any]:
    return {"Body": body, "ReceiptHandle": f"h-{body}",
            "Attributes": {"ApproximateReceiveCount": str(receives)}}


def test_fifo_order_passes_only_in_the_order_sent():
    # SQS Developer Guide, "Message ordering": messages within a message group are
    # received in the order they were sent.
    in_order = [[message(str(n)) for n in range(k, min(k + 3, 10))] for k in range(0, 10, 3)]
    assert sqs.fifo_order(lambda _: Queue(in_order)).matches
    swapped = [[message("1"), message("0")], [message(str(n)) for n in range(2, 10)]]
    seen = sqs.fifo_order(lambda _: Queue(swapped))
    assert not seen.matches
    assert seen.detail == "sent 0 1 2 3 4 5 6 7 8 9, received 1 0 2 3 4 5 6 7 8 9"


def test_receive_count_passes_only_when_each_receive_counts():
    # ReceiveMessage API, ApproximateReceiveCount: "the number of times a message has been
    # received across all queues but not deleted".
    counted = [[message("m", 1)], [message("m", 2)], [message("m", 3)]]
    assert sqs.receive_count(lambda _: Queue(counted)).matches
    stuck = [[message("m", 1)], [message("m", 1)], []]
    seen = sqs.receive_count(lambda _: Queue(stuck))
    assert not seen.matches
    assert seen.detail == "ApproximateReceiveCount on three receives: [1, 1, 0]"


def test_fifo_group_lock_fails_when_the_group_is_served_twice():
    # SQS Developer Guide, "FIFO queue logic": no message of a group is received while
    # another of that group is in flight.
    assert sqs.fifo_group_lock(lambda _: Queue([[message("first")], []])).matches
    seen = sqs.fifo_group_lock(lambda _: Queue([[message("first")], [message("second")]]))
    assert not seen.matches
    assert "['second']" in seen.detail


class Keys:
    """Stands in for a KMS client whose Decrypt may ignore the KeyId it is given."""

    def __init__(self, checks_key: bool) -> None:
        self.checks_key = checks_key
        self.made = 0

    def create_key(self) -> dict[str, Any]:
        self.made += 1
        return {"KeyMetadata": {"KeyId": f"key-{self.made}"}}

    def encrypt(self, KeyId: str, Plaintext: bytes) -> dict[str, bytes]:  # noqa: N803
        return {"CiphertextBlob": KeyId.encode() + b":" + Plaintext}

    def decrypt(self, CiphertextBlob: bytes, KeyId: str | None = None) -> dict[str, bytes]:  # noqa: N803
        key, plain = CiphertextBlob.split(b":", 1)
        if self.checks_key and KeyId is not None and KeyId.encode() != key:
            raise ClientError({"Error": {"Code": "IncorrectKeyException"}}, "Decrypt")
        return {"Plaintext": plain}


def test_kms_round_trip_needs_the_encrypting_key():
    # KMS API, Decrypt: with KeyId, "If the KMS key is not the one that was used to
    # encrypt the ciphertext, the Decrypt operation fails" (IncorrectKeyException).
    assert kms.round_trip(lambda _: Keys(checks_key=True)).matches
    seen = kms.round_trip(lambda _: Keys(checks_key=False))
    assert not seen.matches
    assert seen.detail == "encrypt then decrypt: same plaintext; decrypted with another key too"
