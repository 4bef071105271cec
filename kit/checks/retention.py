"""delivery.retention: each named queue keeps a message it holds at least as long as the
contract says.

SQS deletes a message once it has been in the queue for the queue's MessageRetentionPeriod,
received or not (Amazon SQS API Reference, SetQueueAttributes, MessageRetentionPeriod: 60
to 1,209,600 seconds, default 345,600, four days). A consumer outage longer than the
period loses every message sent before it, silently, and a dead letter nobody looked at in
time is gone. No fault of a run lasts that long, so the loss cannot show in a history: the
invariant is judged from the queues' attributes, read after the run.
"""

from __future__ import annotations

from typing import Any

from kit.checks.result import CheckResult, Params, anomaly, error, judged
from kit.history import History

RETENTION = "delivery.retention"
DEFAULTS: dict[str, Any] = {"queues": {}}
ATTRIBUTE = "MessageRetentionPeriod"
# The bounds SQS accepts (API Reference, SetQueueAttributes).
BOUNDS = (60, 1_209_600)


def check_retention(history: History, p: Params) -> CheckResult:
    """delivery.retention: every queue of `queues` keeps messages at least its minimum."""
    attributes = history.final.queue_attributes if history.final else None
    if attributes is None:
        return error(RETENTION, "no queue attributes in the history: the run did not read "
                     "the queues' retention", p)
    if not p["queues"]:
        return error(RETENTION, "no queues named in the params: nothing to judge", p)
    # Short: a queue that deletes a message sooner than its minimum (or that no longer
    # exists at the end, so keeps nothing). Unread: a queue whose description lacks the
    # attribute (cannot judge it; not blamed on the solution).
    short, unread, kept = [], [], {}
    for name, minimum in p["queues"].items():
        found = attributes.get(name, {})
        if found is None:
            short.append({"queue": name, "seconds": None, "minimum": minimum})
            continue
        if ATTRIBUTE not in found:
            unread.append(name)
            continue
        kept[name] = seconds = int(found[ATTRIBUTE])
        if seconds < minimum:
            short.append({"queue": name, "seconds": seconds, "minimum": minimum})
    evidence = {"kept_seconds": kept, "short": anomaly(short), "unread": unread}
    # Pass rule: every named queue exists and keeps a message at least its minimum.
    if short:
        first = short[0]
        what = ("does not exist at the end of the run" if first["seconds"] is None else
                f"keeps a message {first['seconds']} s")
        return judged(RETENTION, False, f"{len(short)} queue(s) keep messages too briefly: "
                      f"{first['queue']} {what} (the contract: at least {first['minimum']} s)",
                      evidence, p)
    if unread:
        return error(RETENTION, f"the description of {', '.join(unread)} lacks {ATTRIBUTE}: "
                     "cannot judge retention", p, evidence)
    return judged(RETENTION, True, ", ".join(f"{n} keeps messages {s} s" for n, s in
                                             kept.items()), evidence, p)
