"""Gates of the workload: the solution's workers got going, and the fault got its chance.

- workload.workers_start: the worker command stays up and acts. A worker that exits at
  once (bad import, missing env, crash on start) is recorded by the supervisor as a
  `crash_loop` op with each early exit and the tail of each worker's output; the run stops
  there. Workers that stay up but never receive a message while the producer sends (they
  never call SQS, or every call is denied) never acted. A message published to a topic
  counts once SNS delivered it to a queue (one it never delivered is delivery's to judge).
  With `keeps_running` (the contract says a worker exits only when stopped), a worker that
  exits by itself while the run goes on (re-raising an error it should ride out, exiting on
  a bad message) fails: the kit restarts it at once, a platform only after a growing
  back-off (Kubernetes' CrashLoopBackOff), which no recovery time survives.
  In team mode, workers whose role does not admit the service they run as never start
  (`session_refused`, with the trust policy).
- workload.app_writes (drills): the application could write: its endpoint secret led it to
  a database that acknowledged writes before any fault. One that never could (the secret
  unreadable by its role, an endpoint that names nothing) never tested recovery.
- workload.fault_injected: the run's fault was injected. A fault the workload never gave
  a chance (its trigger, "N messages recorded", never fired; no worker held a message to
  kill; no delete came to lose) is recorded as `fault_not_injected`: the run did not test
  the behaviour under the fault, and that is the solution's doing, not the kit's.
"""

from __future__ import annotations

from kit.checks.result import CheckResult, Params, anomaly, error, judged, plural
from kit.history import CrashLoop, History, Op

WORKERS_START = "workload.workers_start"
APP_WRITES = "workload.app_writes"
FAULT_INJECTED = "workload.fault_injected"
DEFAULTS = {"keeps_running": False}


def check_workers_start(history: History, p: Params) -> CheckResult:
    """workload.workers_start: workers were started, did not crash-loop, and acted."""
    refused = history.of_kind("session_refused")
    if refused:
        v = refused[0].value
        what = "a worker could not be restarted" if history.of_kind("worker_start") \
            else "no worker was started"
        return judged(WORKERS_START, False, f"{what}: role {v.role}'s trust policy does not "
                      f"admit {v.principal}, the service the workers run as ({v.reason})",
                      {"refused": v.as_dict()}, p)
    starts = history.of_kind("worker_start")
    if not starts:
        return error(WORKERS_START, "no worker_start op in the history: the run never "
                     "started a worker", p)
    loops = history.of_kind("crash_loop")
    if loops:
        return _crash_loop(loops[0].value, p)
    receives = history.of_kind("receive")
    # Messages that reached a queue: a publish to a topic (an event for a rule) counts only
    # once SNS (EventBridge) delivered it somewhere (a message filtered or refused by a queue
    # policy was never there to get).
    delivered = {op.value.message_id for op in history.of_kind("delivery")
                 if op.value.outcome == "delivered"}
    sends = [op for op in history.of_kind("send")
             if (op.value.topic is None and op.value.rule is None)
             or op.value.message_id in delivered]
    # Never acted: messages reached the queue, and no worker received a single one.
    if sends and not receives:
        denied = [op for op in history.of_kind("authz") if op.process.startswith("worker")
                  and op.value.decision != "Allow"]
        why = (f"; {plural(len(denied), 'call')} of theirs denied, e.g. "
               f"{denied[0].value.action} on {denied[0].value.resource}" if denied
               else "; they made no SQS call the gateway saw")
        return judged(WORKERS_START, False, f"the workers stayed up but never received any of "
                      f"the {len(sends)} messages sent{why}",
                      {"starts": len(starts), "sends": len(sends), "receives": 0,
                       "denied": anomaly([{"process": op.process, **op.value.as_dict()}
                                          for op in denied])}, p)
    own = [op for op in history.of_kind("worker_exit") if op.value.by is None]
    if own and p.get("keeps_running"):
        return _exited_by_itself(own, len(starts), p)
    # Pass rule: workers started, no crash loop, and they acted on what was sent.
    return judged(WORKERS_START, True, f"workers ran ({plural(len(starts), 'start')}, "
                  f"{plural(len(receives), 'receive')})",
                  {"starts": len(starts), "receives": len(receives)}, p)


def _crash_loop(value: CrashLoop, p: dict) -> CheckResult:
    exits = value.exits
    output = value.output
    last = next((lines[-1] for lines in output.values() if lines), "no output")
    first = exits[0]
    how = (f"code {first['code']}" if first["code"] >= 0 else f"signal {-first['code']}")
    summary = (f"the worker command never stayed up: {plural(len(exits), 'early exit')} "
               f"(e.g. {first['worker']}, {how} after {first['lived_seconds']} s); "
               f"last output: {last[:200]}")
    return judged(WORKERS_START, False, summary, {"exits": anomaly(exits), "output": output},
                  p)


def _exited_by_itself(own: list[Op], starts: int, p: Params) -> CheckResult:
    exits = [{"worker": op.value.worker, "time": op.time,
              **({"code": op.value.code} if op.value.code is not None
                 else {"signal": op.value.signal})} for op in own]
    first = exits[0]
    how = f"code {first['code']}" if "code" in first else f"signal {first['signal']}"
    return judged(WORKERS_START, False, f"{plural(len(own), 'worker exit')} the kit did not "
                  f"cause (e.g. {first['worker']}, {how}, at {first['time']:.1f} s), in "
                  f"{plural(starts, 'start')}: a worker must keep running and ride out "
                  "errors, not exit on them; its log is in the run directory",
                  {"exits": anomaly(exits), "starts": starts}, p)


def check_fault_injected(history: History, p: Params) -> CheckResult:
    """workload.fault_injected: the run's fault (if any) started, or there was none."""
    skipped = history.of_kind("fault_not_injected")
    started = history.of_kind("fault_start")
    # Not injected: the nemesis gave up waiting for the state its fault needs.
    if skipped:
        v = skipped[0].value
        return judged(FAULT_INJECTED, False, f"fault {v.fault} could not be injected: "
                      f"{v.reason}; the run did not test behaviour under it",
                      {"fault": v.fault, "reason": v.reason}, p)
    # Pass rule: no fault was skipped.
    what = (f"fault {started[0].value.fault} injected" if started
            else "no fault in this run")
    return judged(FAULT_INJECTED, True, what, {"started": len(started)}, p)


def check_app_writes(history: History, p: Params) -> CheckResult:
    """workload.app_writes: a write was acknowledged before the fault (or at all)."""
    if not any(op.process == "app" for op in history.ops):
        return judged(APP_WRITES, True, "no application in this run (not a drill)", {}, p)
    starts = history.of_kind("fault_start")
    cutoff = starts[0].index if starts else len(history.ops) + 1
    acked = [op for op in history.of_kind("write") if op.index < cutoff]
    # Never wrote: no acknowledged write before the fault; the failures say why.
    if not acked:
        failures = [op for op in history.ops if op.process == "app" and op.type == "fail"]
        why = getattr(failures[-1].value, "error", "no error recorded") if failures else \
            "the application made no attempt"
        return judged(APP_WRITES, False, f"the application never had a write acknowledged: "
                      f"{why}", {"acked": 0, "failures": anomaly(
                          [{"kind": op.kind, **op.value.as_dict()} for op in failures], None)}, p)
    # Pass rule: at least one write acknowledged before the fault.
    return judged(APP_WRITES, True, f"the application wrote ({plural(len(acked), 'write')} "
                  "acknowledged before any fault)", {"acked": len(acked)}, p)
