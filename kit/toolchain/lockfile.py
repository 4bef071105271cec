"""The committed locks read as data: which releases uv.lock holds, what a venv has that it
does not (`make canary` names what moved; a test holds `make venv` to the lock), and the
hashed requirements `make lock` writes for the worker runtime and LocalStack (locks/).

uv writes one lock for every platform and Python (a package may appear at more than one
release, each for its markers), so "locked" here means: a release the lock holds for it.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.utils import canonicalize_name

LOCK = Path(__file__).resolve().parents[2] / "uv.lock"
# Shipped inside the package (kit setup installs from them outside a checkout too).
LOCKS = Path(__file__).resolve().parent / "locks"
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)", re.M)
# Installed by the venv's own tools, not by the lock: the installers themselves.
INSTALLERS = frozenset({"pip", "setuptools", "uv", "wheel"})
_LIST = ("import json; from importlib import metadata; print(json.dumps({d.metadata['Name']: "
         "d.version for d in metadata.distributions()}))")


def locked(lock: Path = LOCK) -> dict[str, set[str]]:
    """package -> the releases the lock holds for it (the project itself excluded)."""
    data = tomllib.loads(lock.read_text())
    found: dict[str, set[str]] = {}
    for package in data.get("package", []):
        if package.get("source", {}).get("editable") is None and "version" in package:
            found.setdefault(canonicalize_name(package["name"]), set()).add(package["version"])
    return found


def pinned(requirements: Path) -> dict[str, str]:
    """package -> release, of a requirements file `make lock` wrote."""
    return {canonicalize_name(name): version
            for name, version in _PIN.findall(requirements.read_text())}


def digest(requirements: Path) -> str:
    """The identity of a lock file, for an installation's manifest to name what it holds."""
    return hashlib.sha256(requirements.read_bytes()).hexdigest()[:16]


def install_argv(python: Path, requirements: Path) -> list[str]:
    """pip (the kit's own) installing exactly a hashed lock into the venv of `python`."""
    return [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
            "--no-input", "--require-hashes", "--no-deps", "-r", str(requirements)]


def installed(python: str) -> dict[str, str]:
    """package -> release, of every distribution the interpreter `python` sees."""
    out = subprocess.run([python, "-c", _LIST], capture_output=True, text=True, check=True)
    return {canonicalize_name(name): version for name, version in json.loads(out.stdout).items()}


def moved(python: str, lock: Path = LOCK) -> list[str]:
    """One line per package installed at a release the lock does not hold (or not in it)."""
    held = locked(lock)
    lines = []
    for name, version in sorted(installed(python).items()):
        if name in INSTALLERS or name == "kit":
            continue
        if name not in held:
            lines.append(f"{name} {version}: not in the lock")
        elif version not in held[name]:
            lines.append(f"{name}: locked {', '.join(sorted(held[name]))}, resolved {version}")
    return lines


def main(argv: list[str]) -> int:
    """`python -m kit.toolchain.lockfile moved PYTHON`: print what moved (always exit 0)."""
    if len(argv) != 2 or argv[0] != "moved":
        print("usage: python -m kit.toolchain.lockfile moved PYTHON", file=sys.stderr)
        return 2
    lines = moved(argv[1])
    print(f"canary: {len(lines)} package(s) moved off uv.lock" + (":" if lines else ""))
    for line in lines:
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
