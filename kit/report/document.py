"""The report document: one versioned JSON structure every other format is rendered from.

Format `kit.report/2`:
  format, command (how to reproduce), scenario, solution, outcome (pass|fail|error),
  reward (number in [0, 1] or null), reward_detail {reward, base, ceiling, capped,
  capped_by [{fault, seed, invariant}], by_fault {fault: score|null}, judged_runs,
  excluded_runs [{fault, seed, cause: emulator gap|kit}], excluded_by_cause {cause: n},
  unjudged [{fault, seed, invariant}]},
  runs: [
    {fault, seed, outcome, error, score, timings {stage: seconds}, run_dir,
     invariants {id: {id, verdict, summary, evidence, params}},
     used_vs_granted {role: {processes, used, denied, needed_policy, granted,
                             granted_used, granted_unused, granted_exempt}} | null,
     confinement {complete, missing [what is missing and how to get it],
                  roles {workload|deploy: axes}} | null,
     emulators {aws service: moto|localstack} | null,
     fidelity_findings [finding]}],
  fidelity_findings {count, findings [{fault, seed, invariant, verdicts {emulator:
    pass|fail}, evidence {emulator: {summary, evidence}}, behaviours {id: {title, aws,
    verdict, by_emulator {emulator: {matches, detail}}}}}]},
  trust (untrusted|team: the reward is an agent task's; a team's check has none: reward,
  reward_detail and each run's score are null),
  seeds [the seeds run], reward_spec {ceiling, severities} (to recompute a merge's reward),
  source {top, path, commit, dirty (true|false|null: not judged)} | null (the solution's
  git repository, read as data: kit/intake/git.py),
  reproduce (the command with paths relative to that repository, its commit named),
  and with `kit eval --baseline` (kit/report/compare.py):
  baseline {given, ref, commit, solution, outcome, reward, runs [as runs]},
  comparison [{fault, invariant, base, head (pass|fail|error|-), status (new failure|
    flaky|unknown|not reached|still failing|fixed|pass), why {seed, verdict, summary} | null,
    confirm (a first-pass new failure's reruns, kit/report/confirm.py) {status, runs [{seed,
    base, head}] (the first pass's run, then each rerun's), of, head_failed, base_failed,
    unjudged, summary} | absent}],
  fail_on (new|flaky|any), verdict (the check's: pass|fail|error, what the exit code says).

`emulators` says which emulator served each AWS service of the run (kit/sandbox/emulator.py).
`fidelity_findings` come from `kit eval --cross-check` (kit/evaluate/crosscheck.py): invariants
whose verdict differed between the emulators, taken out of the run's verdicts (so out of the
reward) and reported here with both evidences and the documented behaviours behind them.

`used_vs_granted` (kit/iam/usage.py) is computed by the run from its history: null when the
run stopped before the workload. `used` lists the (action, resource ARN) pairs called (an
object each); `granted` counts granted (action, resource) pairs and `granted_used` how many
of them a call exercised, in the same unit; `granted_unused` the others, except
`granted_exempt` (each with its `reason`): grants whose removal would change an API's
documented answers (s3:ListBucket beside s3:GetObject), never advised away. `confinement`
says how the solution's processes were confined on each axis (kit/sandbox/confine.py): a
run with `complete` false ran on a machine that could not confine them fully (`kit eval
--require-confinement` refuses to grade there).

The reward and its properties are defined in kit/reward.py: gates score a run 0,
a failed major invariant caps the reward at the scenario's ceiling, every fault weighs the
same, and runs the kit could not judge (outcome `error`) are excluded and counted; a run
with a failed invariant is judged even beside a checker's error (`unjudged`, counted).

`kit.report/1` documents (reward = mean share of passed invariants per run) are still
read by `load`, which recomputes the reward of `/2` from their verdicts.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit.checks import worst
from kit.errors import InputError
from kit.reward import RewardSpec, is_judged, reward, run_score
from kit.run.result import RunResult

if TYPE_CHECKING:
    from kit.evaluate.crosscheck import Finding
from kit.scenario import Scenario

FORMAT = "kit.report/2"
READS = ("kit.report/1", FORMAT)


def _verdicts(run: dict[str, Any]) -> dict[str, str]:
    return {i: r["verdict"] for i, r in run["invariants"].items()}


def _error_cause(run: dict[str, Any]) -> str | None:
    """Why the kit could not judge a run: an emulator gap its deploy ran into, or the kit."""
    if run["outcome"] != "error":
        return None
    deploy = run["invariants"].get("deploy.applies", {})
    gaps = deploy.get("evidence", {}).get("gaps") if deploy.get("verdict") == "error" else None
    return "emulator gap" if gaps else "kit"


def _with_reward(doc: dict[str, Any], spec: RewardSpec) -> dict[str, Any]:
    """Fill in the reward fields of a document from its runs' verdicts (none for a team's
    check: its reports show no reward, report.json included)."""
    team = doc.get("trust") == "team"
    for run in doc["runs"]:
        run.pop("reward", None)  # /1's per-run reward is not /2's score
        judged = is_judged(run["outcome"], _verdicts(run)) and not team
        run["score"] = run_score(spec, _verdicts(run)) if judged else None
    if team:
        return doc | {"format": FORMAT, "reward": None, "reward_detail": None}
    detail = reward(spec, [run | {"verdicts": _verdicts(run), "cause": _error_cause(run)}
                           for run in doc["runs"]])
    return doc | {"format": FORMAT, "reward": detail["reward"], "reward_detail": detail}


def build(scenario: Scenario, solution: str, runs: Sequence[RunResult], command: str,
          findings: Sequence[Finding] = (), source: dict[str, Any] | None = None,
          reproduce: str | None = None) -> dict[str, Any]:
    """The report document for a set of runs of one solution (and a cross-check's
    findings, counted apart from the verdicts)."""
    doc = {
        "format": FORMAT,
        "command": command,
        "scenario": scenario.name,
        "solution": solution,
        "outcome": worst([run.outcome for run in runs]) if runs else "error",
        "runs": [run.to_dict() for run in runs],
        "fidelity_findings": {"count": len(findings),
                              "findings": [f.to_dict() for f in findings]},
        "trust": scenario.trust,
        "seeds": sorted({run.seed for run in runs}),
        "reward_spec": scenario.reward.model_dump(mode="json"),
        "source": source,
        "reproduce": reproduce or command,
    }
    return _with_reward(doc, scenario.reward)


def recompute(doc: dict[str, Any]) -> dict[str, Any]:
    """The document's outcome and reward again from its runs (after a merge)."""
    outcome = worst([run["outcome"] for run in doc["runs"]]) if doc["runs"] else "error"
    spec = RewardSpec.model_validate(doc.get("reward_spec") or {})
    return _with_reward(doc | {"outcome": outcome}, spec)


def load(path: Path, spec: RewardSpec | None = None) -> dict[str, Any]:
    """Read a report (`/1` or `/2`); a `/1` document gets `/2`'s reward, computed with
    `spec` (the scenario's reward settings; the kit's defaults when None)."""
    try:
        doc = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: cannot read the report: {exc}") from None
    found = doc.get("format") if isinstance(doc, dict) else None
    if found not in READS:
        raise InputError(f"{path}: report format is {found!r}; this kit reads "
                         f"{', '.join(READS)}")
    if found == FORMAT:
        return doc
    return _with_reward(doc, spec or RewardSpec())


def write(document: dict[str, Any], path: Path) -> Path:
    """Write the document as JSON."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2))
    return path
