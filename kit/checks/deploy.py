"""deploy.applies: the solution's Terraform deployed (init, plan, apply, outputs).

A deploy that failed because of the kit (the `deploy` op carries `kit_error`, e.g. the
provider mirror lacks the version asked for, and `gaps` when it was an emulator gap:
kit/deploy/divergences.py) is an `error`: never blamed on the solution.
"""

from __future__ import annotations

from kit.checks.result import CheckResult, Params, anomaly, error, judged
from kit.history import History

DEPLOY_APPLIES = "deploy.applies"


def check_deploy_applies(history: History, p: Params) -> CheckResult:
    """deploy.applies: every deploy op says ok (and there is at least one)."""
    ops = history.of_kind("deploy")
    if not ops:
        return error(DEPLOY_APPLIES, "no deploy op in the history: the run never deployed, or "
                     "its ledger lost the record", p)
    kit_broke = [op for op in ops if not op.value.ok and op.value.kit_error]
    if kit_broke:
        op = kit_broke[0]
        return error(DEPLOY_APPLIES, f"deploy failed at stage {op.value.stage} because of "
                     f"the kit: {op.value.kit_error}", p,
                     {"diagnostics": op.value.diagnostics[:20],
                      "gaps": getattr(op.value, "gaps", [])})

    # Failed stage: a deploy op that says not ok (the solution's Terraform failed there).
    failed = [{"stage": op.value.stage, "diagnostics": op.value.diagnostics[:20]}
              for op in ops if not op.value.ok]
    evidence = {"stages": [op.value.stage for op in ops], "failed": anomaly(failed)}
    # Pass rule: no deploy op failed.
    if failed:
        first = failed[0]
        detail = _first_message(first["diagnostics"])
        summary = f"deploy failed at stage {first['stage']}" + (f": {detail}" if detail else "")
    else:
        summary = f"deploy succeeded ({', '.join(evidence['stages'])})"
    return judged(DEPLOY_APPLIES, not failed, summary, evidence, p)


def _first_message(diagnostics: list) -> str:
    """The summary of the first diagnostic (terraform -json dicts or plain strings)."""
    if not diagnostics:
        return ""
    d = diagnostics[0]
    text = (d.get("summary") or d.get("detail") or "") if isinstance(d, dict) else str(d)
    return " ".join(str(text).split())[:200]


ALLOWED_CONSTRUCTS = "deploy.allowed_constructs"


def check_allowed_constructs(history: History, p: Params) -> CheckResult:
    """deploy.allowed_constructs: the static gate found no forbidden construct."""
    ops = history.of_kind("gate")
    if not ops:
        return error(ALLOWED_CONSTRUCTS, "no gate op in the history: the static gate never ran",
                     p)
    # Forbidden construct: a provisioner, an external/http data source, a provider outside
    # the scenario's list, a non-local backend or a non-local module source (file:line each).
    violations = [v for op in ops for v in op.value.violations]
    # Pass rule: no violation.
    summary = (f"{len(violations)} forbidden construct(s): {violations[0]}" if violations
               else "no forbidden construct")
    return judged(ALLOWED_CONSTRUCTS, not violations, summary,
                  {"violations": anomaly(violations)}, p)
