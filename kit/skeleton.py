"""`kit new-scenario`: a scenario skeleton in a root of the plugin layout.

The skeleton loads, so `kit validate` can run, but it cannot pass: its workload module
raises until written, its golden directory holds no Terraform, and it has no variant.
"""

from __future__ import annotations

import re
from pathlib import Path

from kit.errors import InputError

TEMPLATES = Path(__file__).with_name("skeleton")
GOLDEN_README = ("The golden solution of {name}: the Terraform (*.tf) at this directory's "
                 "root and the worker package. Write it, then one-defect variants in "
                 "variants/{name}/<defect>/ (variant.yaml + change.patch against this "
                 "directory).\n")


def create(name: str, root: Path) -> list[Path]:
    """Write the skeleton of scenario `name` under `root`; returns the files written."""
    if not re.fullmatch(r"[a-z][a-z0-9-]{1,62}", name):
        raise InputError(f"scenario name {name!r}: use lower-case letters, digits and "
                         "dashes, starting with a letter")
    scenario_dir = root / "scenarios" / name
    if scenario_dir.exists():
        raise InputError(f"{scenario_dir} already exists: choose another name or root")
    written = []
    for template in sorted(TEMPLATES.iterdir()):
        target = scenario_dir / template.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(template.read_text().format(name=name, root=root))
        written.append(target)
    for sub, text in (("golden", GOLDEN_README), ("variants", "")):
        directory = root / sub / name
        directory.mkdir(parents=True, exist_ok=True)
        if text:
            (directory / "README.md").write_text(text.format(name=name))
            written.append(directory / "README.md")
    return written
