"""Checkers: pure functions over a recorded history, one verdict per invariant id.

`INVARIANTS` (kit/checks/invariants.py) is the table of the kit's invariants: each id's
checker, `check(history, params)`, the defaults of the parameters it reads, its severity and
when it is judged. A scenario's loader resolves each invariant's params against it once,
before a run; checkers receive them resolved.
"""

from __future__ import annotations

from kit.checks.invariants import INVARIANTS, Invariant
from kit.checks.result import Checker, CheckResult, Verdict, run_checks, worst

__all__ = ["INVARIANTS", "CheckResult", "Checker", "Invariant", "Verdict", "run_checks",
           "worst"]
