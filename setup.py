"""Packaging: the wheel carries the kit's shipped scenarios, goldens, variants and modules
inside the package (kit/_shipped/), so that `pip install` outside the checkout gives a
working `kit` (providers/: the Go source of the stand-in providers `kit setup` builds). An editable install (`make venv`) copies nothing: the checkout's own trees
are found beside the package (kit/scenario.py ROOT)."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

# What a run reads from the kit's root (kit/scenario.py); never tests/, bench/ or fidelity/.
SHIPPED = ("scenarios", "golden", "variants", "modules", "providers")
# Left behind by local runs in a checkout; never part of a scenario.
JUNK = shutil.ignore_patterns("__pycache__", "*.pyc", ".terraform", ".terraform.lock.hcl",
                              "terraform.tfstate*")


class BuildWithShipped(build_py):
    """build_py, plus the shipped trees copied into kit/_shipped/ of the build."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "kit" / "_shipped"
        for tree in SHIPPED:
            shutil.rmtree(target / tree, ignore_errors=True)
            shutil.copytree(tree, target / tree, ignore=JUNK, symlinks=True)


setup(cmdclass={"build_py": BuildWithShipped})
