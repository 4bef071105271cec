"""The tools an agent may call that do not leak the grader: `terraform validate` in the
kit's deploy sandbox, the static checks (`kit check --static`: the gate and the policy
lint), and a repair or diagnose task's CI report (its starting files' run under the
failing fault: what a CI page shows, never a run of the agent's own files)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from kit import scenario as scenarios
from kit.ci import static
from kit.errors import KitError, SolutionError
from kit.intake import snapshot
from kit.tasks import bundle
from kit.tasks.model import Task


def on_snapshot(workspace: Path, use: Callable[[Path], str]) -> str:
    """What `use` says of the intake's snapshot of the workspace (kit/intake/snapshot.py;
    nothing reads the workspace itself), or why the intake refuses it."""
    try:
        with snapshot.taken(workspace) as taken:
            return use(taken)
    except snapshot.Refused as refused:
        return refused.inside


def static_check(task: Task, workspace: Path) -> str:
    """The static findings of the workspace's Terraform, one a line (or none); `workspace`
    is the kit's own snapshot of the agent's (on_snapshot)."""
    sc = scenarios.load(task.scenario)
    if not any(workspace.glob("*.tf")):
        return "no *.tf file at the workspace's root: nothing to check"
    findings = static.check(workspace, sc.toolchain.allowed_providers, sc.modules_dir)
    return "\n".join(map(str, findings)) or "no finding"


def terraform_validate(task: Task, workspace: Path) -> str:
    """`terraform init` (offline mirror) and `terraform validate` of a copy of the
    workspace (the kit's own snapshot: on_snapshot), in the kit's deploy sandbox; refused
    constructs are never run."""
    from kit.deploy.terraform import Terraform

    sc = scenarios.load(task.scenario)
    if not any(workspace.glob("*.tf")):
        return "no *.tf file at the workspace's root: nothing to validate"
    findings = static.check(workspace, sc.toolchain.allowed_providers, sc.modules_dir)
    refused = [str(f) for f in findings if f.check in ("deploy.allowed_constructs", "parse")]
    if refused:
        return "not run: the static gate refuses the solution:\n" + "\n".join(refused)
    with tempfile.TemporaryDirectory(prefix="kit-rl-validate-") as tmp:
        try:
            tf = Terraform(workspace, Path(tmp))
            tf.init()
            tf.validate()
        except (SolutionError, KitError) as exc:
            return f"terraform validate failed:\n{exc}"
    return "terraform validate: the configuration is valid"


def ci_report(task: Task, seed: int) -> str:
    """The summary.md of the starting files' run under the task's failing fault."""
    from kit.tasks.grade import Grade, run_faults

    if not task.failing_fault:
        return f"a {task.kind} task has no CI report: its starting files pass their CI"
    with tempfile.TemporaryDirectory(prefix="kit-rl-ci-") as tmp:
        start = Path(tmp) / "start"
        bundle.write_files(task.files, start)
        result = run_faults(task, (start, start), seed, Grade(task.id, "ci", seed, None, "error",
                                                     [task.failing_fault]),
                            Path(tmp) / "runs")
        return (Path(result.report_dir or tmp) / "summary.md").read_text()
