"""What a task is: its id, kind, text, starting files and what grades it."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["build", "repair", "diagnose", "harden"]
KINDS: tuple[Kind, ...] = ("build", "repair", "diagnose", "harden")

# Where a diagnose task's answer goes, in the workspace: {"file": ..., "invariant": ...}.
ANSWER_FILE = "DIAGNOSIS.json"


@dataclass(frozen=True)
class Task:
    """One task: the text an agent reads, the files it starts from, how it is graded."""

    id: str
    kind: Kind
    scenario: str
    variant: str | None
    text: str
    files: dict[str, str] = field(default_factory=dict)  # relative path -> content
    # The fault a CI run of the starting files fails under (repair, diagnose), else None.
    failing_fault: str | None = None

    @property
    def graded_by_run(self) -> bool:
        """Whether grading runs the kit's pipeline (all kinds but diagnose)."""
        return self.kind != "diagnose"

    def grader_command(self, workspace: str = ".") -> str:
        """The command that grades a workspace for this task."""
        return f"kit tasks grade {self.id} --workspace {workspace} --mode sampled --seed 1"


def task_id(scenario: str, kind: Kind, variant: str | None = None) -> str:
    """The task's id, stable across kit versions: scenario and kind, then a digest of the
    variant's name (the name says the defect: `rds-public`; the id must not)."""
    if variant is None:
        return f"{scenario}.{kind}"
    digest = hashlib.sha256(f"{scenario}/{variant}".encode()).hexdigest()[:10]
    return f"{scenario}.{kind}.{digest}"
