"""Gate of the workload: the contract's producer could send to the solution's queue.

- workload.producer_sends: the producer (the kit's, as the contract's producer role) sends
  the scenario's messages to the queue the solution's outputs name. A refused send is one
  AWS answered with a client error (HTTP 4xx), recorded as a failed `send` op: the
  solution's queue, its policies or its key refuse what the contract says the producer
  sends (a policy denying it, e.g. by aws:SourceIp; a FIFO queue where the contract's
  producer sends without a MessageGroupId; a key it may not use). A send with a 5xx answer
  or none is the kit's and stops the run before any check (kit/workload/producer.py).
  The gateway's decisions on the producer's calls (`authz` ops of process "producer")
  are the evidence of a denial.

Only judged where every send was refused: then nothing was processed, and nothing else
about the workload can be judged (kit/run/judge.py `judge`).
"""

from __future__ import annotations

from collections import Counter

from kit.checks.result import CheckResult, Params, anomaly, judged, plural
from kit.history import History

PRODUCER_SENDS = "workload.producer_sends"


def check_producer_sends(history: History, p: Params) -> CheckResult:
    """workload.producer_sends: at least one of the producer's sends was accepted."""
    refused = [op for op in history.ops if op.kind == "send" and op.type == "fail"]
    accepted = history.of_kind("send")
    # Pass rule: a send was accepted, or none was refused.
    if accepted or not refused:
        return judged(PRODUCER_SENDS, True, f"the producer sent "
                      f"{plural(len(accepted), 'message')}",
                      {"accepted": len(accepted), "refused": len(refused)}, p)
    codes = Counter(op.value.error.split(":", 1)[0] for op in refused)
    denied = [{"process": op.process, **op.value.as_dict()} for op in history.of_kind("authz")
              if op.process == "producer" and op.value.decision != "Allow"]
    why = (f"; the gateway denied {denied[0]['action']} on {denied[0]['resource']} "
           f"({denied[0].get('reason') or 'by ' + ', '.join(denied[0].get('deciding', []))})"
           if denied else "")
    return judged(PRODUCER_SENDS, False, (
        f"AWS refused all {plural(len(refused), 'send')} of the contract's producer to the "
        f"solution's {'topic' if _published(history) else 'queue'} "
        f"({refused[0].value.error}){why}"),
        {"accepted": 0, "refused": anomaly([op.value.as_dict() for op in refused]),
         "codes": dict(codes), "denied": anomaly(denied)}, p)


def _published(history: History) -> bool:
    """Say whether the producer published to an SNS topic (its sends name a topic)."""
    return any(op.kind == "send" and op.value.as_dict().get("topic") for op in history.ops)
