"""A task's bundle on disk: task.md, workspace/ (the starting files), task.json.

task.json: {id, kind, scenario, grader (the command), answer_file (diagnose),
failing_fault (repair, diagnose)}. Nothing else: no variant name, no defect, no golden."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kit.tasks.model import ANSWER_FILE, Task


def manifest(task: Task) -> dict[str, Any]:
    """What task.json holds."""
    return {"id": task.id, "kind": task.kind, "scenario": task.scenario,
            "grader": task.grader_command("workspace"),
            **({"answer_file": ANSWER_FILE} if task.kind == "diagnose" else {}),
            **({"failing_fault": task.failing_fault} if task.failing_fault else {})}


def write_files(files: dict[str, str], root: Path) -> None:
    """Write a task's starting files under root."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content)


def write(task: Task, out: Path) -> Path:
    """Write the task's bundle into out/<id>/; returns that directory."""
    directory = out / task.id
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "task.md").write_text(task.text)
    (directory / "task.json").write_text(json.dumps(manifest(task), indent=2) + "\n")
    write_files(task.files, directory / "workspace")
    return directory
