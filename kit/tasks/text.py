"""The text of each kind of task: the scenario's prompt (the contract) and what to do.

Nothing here names a variant's defect, its why or its invariants: a repair or diagnose
task says only the fault its CI run fails under (what a CI page shows), and how to get the
report; a harden task says only that a review found a weakness."""

from __future__ import annotations

from kit.tasks.model import ANSWER_FILE

GRADE = ("Grading runs your workspace through the kit under faults (the reward: 1.0 when "
         "every invariant holds under every fault; `sampled` mode draws one fault from the "
         "seed). Submit when done.")


def _report(scenario: str, fault: str) -> str:
    """How to obtain the failing CI report of the starting files."""
    return (f"The CI run of these files failed under the fault `{fault}`. Its report "
            f"(summary.md) is not in this bundle: get it with the environment's `ci_report` "
            f"tool, or run `kit eval {scenario} --solution . --fault {fault} --seed 1` on the "
            f"starting files and read the summary.md it writes.")


def build(scenario: str, prompt: str, fault: str = "none") -> str:
    """A build task: write the solution from an empty workspace."""
    return (f"# Build: {scenario}\n\nYour workspace is empty. Write the solution the prompt "
            f"below asks for, in the workspace's root.\n\n{GRADE}\n\n---\n\n{prompt}")


def repair(scenario: str, prompt: str, fault: str) -> str:
    """A repair task: the starting files fail their CI run; fix them."""
    return (f"# Repair: {scenario}\n\nThe workspace holds a solution to the prompt below. "
            f"{_report(scenario, fault)} Fix the solution without breaking anything else."
            f"\n\n{GRADE}\n\n---\n\n{prompt}")


def diagnose(scenario: str, prompt: str, fault: str) -> str:
    """A diagnose task: name the defect's file and an invariant that fails."""
    return (f"# Diagnose: {scenario}\n\nThe workspace holds a solution to the prompt below. "
            f"{_report(scenario, fault)}\n\nFind the defect. Do not fix it: write "
            f"`{ANSWER_FILE}` in the workspace's root, a JSON object "
            f'`{{"file": "<path of the file holding the defect, relative to the workspace>", '
            f'"invariant": "<the id of an invariant the defect violates>"}}`, and submit. '
            f"Half the reward for the right file, half for an invariant the defect "
            f"violates.\n\n---\n\n{prompt}")


def harden(scenario: str, prompt: str, fault: str = "none") -> str:
    """A harden task: a working solution that a security review flagged."""
    return (f"# Harden: {scenario}\n\nThe workspace holds a solution to the prompt below. It "
            f"deploys and its workload runs, but a security review found it grants more "
            f"than it needs or lacks a hardening the prompt requires. Find and fix that "
            f"without breaking anything else (the static checks, `kit check --static`, are "
            f"a first hint, not the verdict).\n\n{GRADE}\n\n---\n\n{prompt}")
