"""`kit new-scenario`: a scenario skeleton in a root of the plugin layout (`--team`: in a
team repository's `.kit/`).

The skeleton loads, so `kit validate` can run, but it cannot pass: its workload module
raises until written, its golden directory holds no Terraform, and it has no variant.
"""

from __future__ import annotations

import re
from pathlib import Path

from kit.errors import InputError

TEMPLATES = Path(__file__).with_name("skeleton")
# The files of a scenario and the template each is written from: a scenario author's (with
# its prompt for agents), and a team's (its repository is the golden: no prompt, no golden/).
OWN = {"scenario.yaml": "scenario.yaml", "prompt.md": "prompt.md", "workload.py": "workload.py"}
TEAM = {"scenario.yaml": "team.yaml", "workload.py": "workload.py"}
GOLDEN_README = ("The golden solution of {name}: the Terraform (*.tf) at this directory's "
                 "root and the worker package. Write it, then one-defect variants in "
                 "variants/{name}/<defect>/ (variant.yaml + change.patch against this "
                 "directory).\n")


def create(name: str, root: Path, team: bool = False) -> list[Path]:
    """Write the skeleton of scenario `name` under `root` (with `team`: a team's scenario
    in `root`/.kit/, its repository being the golden); returns the files written."""
    if not re.fullmatch(r"[a-z][a-z0-9-]{1,62}", name):
        raise InputError(f"scenario name {name!r}: use lower-case letters, digits and "
                         "dashes, starting with a letter")
    kit_root = root / ".kit" if team else root
    scenario_dir = kit_root / "scenarios" / name
    if scenario_dir.exists():
        raise InputError(f"{scenario_dir} already exists: choose another name or root")
    templates = TEAM if team else OWN
    written = []
    for target_name, template in templates.items():
        target = scenario_dir / target_name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text((TEMPLATES / template).read_text().format(name=name, root=kit_root))
        written.append(target)
    for sub, text in (("variants", ""), *(() if team else (("golden", GOLDEN_README),))):
        directory = kit_root / sub / name
        directory.mkdir(parents=True, exist_ok=True)
        if text:
            (directory / "README.md").write_text(text.format(name=name))
            written.append(directory / "README.md")
    return written
