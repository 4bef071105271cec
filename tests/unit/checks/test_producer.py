"""workload.producer_sends, and `judge` of a run whose producer AWS refused: the
solution's `fail` with the refusals as evidence, never the kit's "cannot tell why"."""

from __future__ import annotations

import json

from kit.checks import invariants, run_checks
from kit.checks.producer import PRODUCER_SENDS
from kit.history import History, parse_op
from kit.run.judge import judge
from tests.unit.checks.builder import SCENARIO, HistoryBuilder, describe_body

BODY = json.dumps({"order_id": "o-1", "customer_id": "c-1", "amount_cents": 100})
DENIED = {"action": "sqs:SendMessage", "operation": "SendMessage",
          "resource": "arn:aws:sqs:us-east-1:123456789012:orders", "decision": "ExplicitDeny",
          "deciding": ["queue policy orders: statement DenyOutsideVpc"],
          "reason": "aws:SourceIp 127.0.0.1 is not in 10.0.0.0/8"}


def _refused(b: HistoryBuilder, error: str) -> None:
    b.t += 0.01
    b.ops.append(parse_op({"index": b.ops[-1].index + 1, "time": b.t, "process": "producer",
                           "type": "fail", "kind": "send",
                           "value": {"body": BODY, "queue": "queue.orders", "error": error,
                                     **describe_body(BODY)}}))


def _deployed(sends: int = 0) -> HistoryBuilder:
    b = HistoryBuilder()
    b.gate()
    b.deploy()
    b.worker_start("worker-0")
    for _ in range(sends):
        b.send(BODY)
    return b


def _verdict(history: History) -> str:
    return run_checks(history, {PRODUCER_SENDS: {}}, SCENARIO.registry)[PRODUCER_SENDS].verdict


def test_a_producer_the_solutions_policy_denies_fails_the_gate_naming_the_denial() -> None:
    b = _deployed()
    b.op("producer", "authz", **DENIED)
    _refused(b, "AccessDenied: User: producer is not authorized to perform SendMessage")
    result = run_checks(b.build(), {PRODUCER_SENDS: {}}, SCENARIO.registry)[PRODUCER_SENDS]
    assert result.verdict == "fail"
    assert "AccessDenied" in result.summary and "aws:SourceIp" in result.summary
    assert result.evidence["denied"]["count"] == 1
    assert result.evidence["codes"] == {"AccessDenied": 1}


def test_a_fifo_queue_refusing_sends_without_a_group_fails_the_gate() -> None:
    b = _deployed()
    for _ in range(3):
        _refused(b, "MissingParameter: The request must contain the parameter "
                 "MessageGroupId.")
    result = run_checks(b.build(), {PRODUCER_SENDS: {}}, SCENARIO.registry)[PRODUCER_SENDS]
    assert result.verdict == "fail" and "all 3 sends" in result.summary
    assert "MessageGroupId" in result.summary


def test_one_accepted_send_or_none_refused_passes() -> None:
    b = _deployed(sends=1)
    _refused(b, "AccessDenied: denied")
    assert _verdict(b.build()) == "pass"
    assert _verdict(_deployed().build()) == "pass"


def test_a_run_whose_every_send_was_refused_is_judged_the_solutions_fail() -> None:
    # kit/run.py said "the kit cannot tell why" and dropped the run as `error` when every
    # static invariant passed. Here none is listed, so all of them pass.
    no_static = SCENARIO.model_copy(update={"invariants": {}})
    no_static.__dict__.pop("params", None)  # a cached_property of the original's
    b = _deployed()
    b.op("producer", "authz", **DENIED)
    _refused(b, "AccessDenied: denied")
    results, error = judge(no_static, b.build())
    assert error is None
    assert results[PRODUCER_SENDS].verdict == "fail"
    assert {k for k, r in results.items() if r.verdict != "pass"} == {PRODUCER_SENDS}
    assert PRODUCER_SENDS in invariants.gates()  # nothing else ran: the run scores 0, like a gate


def test_where_a_static_invariant_names_the_cause_the_verdicts_stay_as_they_were() -> None:
    b = _deployed()
    _refused(b, "AccessDenied: denied")
    results, error = judge(SCENARIO, b.build())  # no IAM state: the static ones fail
    assert error is None and PRODUCER_SENDS not in results
