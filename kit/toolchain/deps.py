"""The workers' own Python dependencies (team mode): what the repository declares in the
workers' directory, installed once into a cached directory the worker runtime imports
from (read-only, on the sandbox's PYTHONPATH).

Declared by `requirements.txt` (one requirement per line; `#` comments) or else
`pyproject.toml`'s `[project] dependencies`. Only names from the package index: pip
options (`-r`, `-e`, `--index-url`, ...), URLs, paths and names pip would read as a local
archive (`foo.whl`, `bar.tar.gz`) are refused, so a build reaches nothing but the index pip
is configured with (PIP_INDEX_URL / pip.conf; PIP_FIND_LINKS). pip runs in the empty build
directory (never the kit's cwd, which in a PR check is the PR's checkout), and of the host's
PIP_* variables only those that say where the index is and how to reach it pass.

Cached by the hash of the requirement set and the runtime it is for (Python version, the
runtime's boto3 and psycopg): built once with pip (`pip --python <runtime> install
--only-binary :all: --target`), then reused with no network, until the set changes (an
unpinned requirement keeps the version first built: pin for reproducible runs). Wheels
only: no package's code runs at install time, on the host, outside the sandbox; a
package published only as an sdist is refused with pip's words. A build goes to a
temporary sibling renamed into place when complete, so a failed or interrupted one never
counts as built. A requirement the index cannot satisfy is an InputError naming the file,
the requirement and pip's words.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement

from kit.errors import InputError, ToolchainError
from kit.intake.files import read_regular
from kit.toolchain import runtime

MANIFEST = "kit-deps.json"
MAX_DECLARATION = 1_000_000  # bytes of requirements.txt or pyproject.toml
FILES = ("requirements.txt", "pyproject.toml")
PIP_TIMEOUT = 900  # seconds for one build (downloads from the index included)
# pip reads a requirement that ends like an archive as a file path (pip's
# _internal/req/constructors.py: a name with an archive extension that exists is a file).
_ARCHIVE = re.compile(r"\.(whl|zip|tar|tgz|tbz|txz|tar\.(gz|bz2|xz|lz|lzma))\b", re.IGNORECASE)
# The host's PIP_* variables that only say where the index is and how to reach it; any
# other (PIP_NO_BINARY, PIP_CONSTRAINT, PIP_TARGET, PIP_CONFIG_FILE, ...) would change
# what the build does.
PIP_ENV = frozenset({"PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS",
                     "PIP_TRUSTED_HOST", "PIP_CERT", "PIP_CLIENT_CERT", "PIP_PROXY",
                     "PIP_RETRIES", "PIP_TIMEOUT", "PIP_DEFAULT_TIMEOUT"})
# How pip names the requirement it could not satisfy.
_UNSATISFIED = re.compile(r"(?:No matching distribution found for|Could not find a version "
                          r"that satisfies the requirement) (\S+)")


@dataclass(frozen=True)
class Requirements:
    """A directory's declared dependencies: the file they come from and each requirement."""

    source: Path
    items: tuple[str, ...]

    @property
    def key(self) -> str:
        """The cache key: the requirement set and the runtime it is built for."""
        base = runtime.manifest() or {}
        text = json.dumps({"requirements": sorted(self.items), "build": "wheels only",
                           "python": base.get("version"), "packages": base.get("packages")},
                          sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:24]


def declared(directory: Path) -> Requirements | None:
    """The dependencies declared in `directory` (None: none declared); InputError naming the
    file and line or field for one the kit will not install."""
    for name in FILES:
        path = directory / name
        if os.path.lexists(path):
            text = _read(directory, name)
            items = _requirements_txt(path, text) if name == FILES[0] else _pyproject(path, text)
            return Requirements(path, items) if items else None
    return None


def _requirements_txt(path: Path, text: str) -> tuple[str, ...]:
    items = []
    for number, line in enumerate(text.splitlines(), 1):
        text = line.split(" #", 1)[0].strip()
        if text and not text.startswith("#"):
            items.append(_checked(text, f"{path}:{number}"))
    return tuple(items)


def _pyproject(path: Path, text: str) -> tuple[str, ...]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML: {exc}") from None
    found = data.get("project", {}).get("dependencies", [])
    if not isinstance(found, list) or not all(isinstance(item, str) for item in found):
        raise InputError(f"{path}: field project.dependencies: expected a list of "
                         "requirement strings")
    return tuple(_checked(item, f"{path}: field project.dependencies") for item in found)


def _read(directory: Path, name: str) -> str:
    """The declaration's text, read as root without following a link (the repository's
    own file: a link to a host file would put the host's text into pip's words)."""
    data = read_regular(directory, name, MAX_DECLARATION)
    if data is None:
        raise InputError(f"{directory / name}: not a regular file of at most "
                         f"{MAX_DECLARATION} bytes (a link, or a directory on the way that "
                         "is one, is not followed)")
    try:
        return data.decode()
    except UnicodeDecodeError as exc:
        raise InputError(f"{directory / name}: cannot read: {exc}") from None


def _checked(text: str, where: str) -> str:
    """A requirement by name from the index, as written; InputError otherwise."""
    if text.startswith("-"):
        raise InputError(f"{where}: {text!r}: pip options are not taken (the kit installs "
                         "names from the configured package index only)")
    try:
        parsed = Requirement(text)
    except InvalidRequirement as exc:
        raise InputError(f"{where}: {text!r} is not a requirement: {exc}") from None
    if parsed.url or _ARCHIVE.search(parsed.name):
        raise InputError(f"{where}: {text!r} names a URL or path; the kit installs names "
                         "from the configured package index only")
    return text


def pip_environment(environ: dict[str, str]) -> dict[str, str]:
    """The environment the build's pip runs with: the host's, less the PIP_* that would
    change what it does."""
    kept = {k: v for k, v in environ.items() if not k.startswith("PIP_") or k in PIP_ENV}
    return {**kept, "PIP_NO_INPUT": "1"}


def root() -> Path:
    """Where built dependency sets live: beside the worker runtime."""
    base = runtime.location()
    return base.with_name(f"{base.name}-deps")


def built(requirements: Requirements) -> Path | None:
    """The cached build of `requirements`, if there is one (no network)."""
    target = root() / requirements.key
    return target if (target / MANIFEST).is_file() else None


def ensure(requirements: Requirements) -> Path:
    """The directory holding `requirements` installed for the worker runtime: the cached
    one, or built now from the package index."""
    found = built(requirements)
    if found is not None:
        return found
    python = runtime.python()
    if python is None:
        raise ToolchainError("the worker runtime is not installed: run `kit setup`")
    target = root() / requirements.key
    target.parent.mkdir(parents=True, exist_ok=True)
    target.parent.chmod(0o755)
    staging = Path(tempfile.mkdtemp(prefix=f"{requirements.key}.", dir=target.parent))
    try:
        _pip_install(python, staging, requirements)
        _world_readable(staging)
        (staging / MANIFEST).write_text(json.dumps(
            {"source": str(requirements.source), "requirements": list(requirements.items)},
            indent=2))
        (staging / MANIFEST).chmod(0o644)
        try:
            staging.rename(target)
        except OSError:
            if built(requirements) is None:  # not another run's build of the same set
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def _pip_install(python: str, target: Path, requirements: Requirements) -> None:
    """pip install the set into `target` for `python`; InputError with pip's words."""
    # Wheels only: installing one runs none of its code (an sdist's build would, on the
    # host, outside any sandbox).
    argv = [sys.executable, "-m", "pip", "--python", python, "install", "--quiet",
            "--no-input", "--disable-pip-version-check", "--only-binary", ":all:",
            "--target", str(target), *requirements.items]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=target,
                              timeout=PIP_TIMEOUT, env=pip_environment(dict(os.environ)))
    except subprocess.TimeoutExpired:
        raise InputError(f"{requirements.source}: installing the workers' dependencies took "
                         f"over {PIP_TIMEOUT} s: {', '.join(requirements.items)}") from None
    if done.returncode == 0:
        return
    said = done.stderr.strip()
    which = _UNSATISFIED.search(said)
    named = which.group(1) if which else ", ".join(requirements.items)
    raise InputError(f"{requirements.source}: cannot install the workers' dependency "
                     f"{named} from the package index: pip says: {said[-1500:]}")


def _world_readable(path: Path) -> None:
    """Every file readable (and directories searchable) by the sandbox's users."""
    path.chmod(0o755)
    for top, dirs, files in os.walk(path):
        for name in dirs + files:
            full = os.path.join(top, name)
            if not os.path.islink(full):
                mode = os.stat(full).st_mode
                os.chmod(full, mode | 0o444 | (0o111 if mode & 0o100 or name in dirs else 0))
