"""Gate of the workload: the solution left the kit's own machinery alone.

- workload.kit_unharmed: no `interference` op in the history. One is recorded where the
  kit saw the solution harm the kit's own machinery (kit/workload/harm.py): the
  observer's database session terminated by another session while the server kept
  serving, or refused for lack of slots the solution's sessions took. The kit then
  watched on (or gave up), so what it observed of the effects may be incomplete, and the
  run is judged on this gate alone: the solution's `fail`, never the kit's `error`.
"""

from __future__ import annotations

from kit.checks.result import CheckResult, Params, anomaly, judged, plural
from kit.history import History

KIT_UNHARMED = "workload.kit_unharmed"


def check_kit_unharmed(history: History, p: Params) -> CheckResult:
    """workload.kit_unharmed: the solution harmed none of the kit's own sessions."""
    harmed = [{"process": op.process, **op.value.as_dict()}
              for op in history.of_kind("interference")]
    # Pass rule: no interference op.
    if not harmed:
        return judged(KIT_UNHARMED, True, "the kit's own sessions were left alone",
                      {"harmed": anomaly([])}, p)
    first = harmed[0]
    return judged(KIT_UNHARMED, False, f"{plural(len(harmed), 'harm')} to the kit's "
                  f"machinery, first to {first['target']}: {first['cause']}",
                  {"harmed": anomaly(harmed)}, p)
