"""bench/throughput.py's reports: a verdict that differs at 2x oversubscription is named,
and the tightest headroom of each pass is the smallest one."""

from __future__ import annotations

from typing import Any

from bench import throughput


def _pass(verdicts: dict[str, list[str]], headroom: dict[str, Any], expected: int) -> dict:
    return {"runs_per_hour": 300, "rows_as_expected": expected, "verdicts": verdicts,
            "headroom": headroom}


def _report(over: dict[str, list[str]]) -> dict[str, Any]:
    base = {"golden none 1": ["pass"], "no-redrive none 1": ["killed",
                                                            "delivery.poison_to_dlq"]}
    rto = {"recovery.within_rto": {"headroom_s": 12.5, "bound_s": 30.0,
                                   "run": "sqs_outage seed 1"},
           "recovery.rto": {"headroom_s": 2.0, "bound_s": 6.0, "run": "az_loss seed 1"}}
    passes = {"local --jobs 1": _pass(base, rto, 2),
              "local --jobs 4": _pass(over, {}, 2 if over == base else 1)}
    same = over == base
    differences = {k: [v, over.get(k)] for k, v in base.items() if over.get(k) != v}
    return {"cores": 2, "sample": True, "rows_limit": 0, "when": "now", "scenarios": {
        "order-pipeline": {"rows": 2, "same_verdicts": same, "differences": differences,
                           "passes": passes}}}


def test_the_same_verdicts_say_yes_with_the_tightest_headroom_first() -> None:
    base = {"golden none 1": ["pass"], "no-redrive none 1": ["killed",
                                                            "delivery.poison_to_dlq"]}
    text = throughput.markdown_oversubscribed(_report(base))
    row = next(line for line in text.splitlines() if line.startswith("| order-pipeline"))
    assert "| yes |" in row
    assert row.index("recovery.rto 2.0 s of 6.0 s") < row.index("recovery.within_rto 12.5")
    assert row.endswith("| none measured |")


def test_a_verdict_that_changes_at_2x_is_named() -> None:
    text = throughput.markdown_oversubscribed(_report({
        "golden none 1": ["fail", "recovery.within_rto"],
        "no-redrive none 1": ["killed", "delivery.poison_to_dlq"]}))
    assert "NO: golden none 1 ['pass'] -> ['fail', 'recovery.within_rto']" in text
