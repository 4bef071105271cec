"""Tasks for agents, made from the scenarios: build, repair, diagnose, harden.

`catalog` lists them (ids stable across versions: scenario, kind and variant name, never an
index), `bundle` writes one task's bundle (task.md, its starting files, task.json with the
grader command), `grade` grades a workspace (`full` or `sampled` reward: `modes`)."""
