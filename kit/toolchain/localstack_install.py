"""LocalStack, the optional second emulator: installed by `kit setup --localstack` into a
virtual environment of its own, `<cache>/localstack/venv` (KIT_CACHE moves it), made from
the kit's own Python 3.11 (LocalStack's dependencies would clash with the kit's: it pins its
own boto3 and moto fork).

The version is pinned, and so are its dependencies: `make lock` resolves each at the newest
release uploaded before LOCKED_AT, when localstack-core 4.13.1 was current, into a hashed
lock (kit/toolchain/locks/localstack.txt) that `kit setup` installs exactly. Newer releases
of two of them break it (cbor2 6 dropped the module it imports; pyOpenSSL 26 dropped
`X509.add_extensions`, which makes its TLS certificate), and a tool must not change under
the kit between two installs.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from kit import settings
from kit.toolchain import lockfile
from kit.toolchain.runtime import checked_output

VERSION = "4.13.1"
REQUIREMENT = f"localstack-core[runtime]=={VERSION}"
LOCKED_AT = "2026-02-10T00:00:00Z"
LOCK = lockfile.LOCKS / "localstack.txt"
MANIFEST = "kit-localstack.json"
FIX = "kit setup --localstack  (or `make setup-localstack`: ~500 MB, 2-4 min)"


def location() -> Path:
    """Where LocalStack's virtual environment is (or goes)."""
    return settings.cache_dir() / "localstack"


def python() -> Path | None:
    """The interpreter of an installed, current LocalStack; None when missing or stale."""
    try:
        found = json.loads((location() / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    interpreter = location() / "venv" / "bin" / "python"
    if found.get("lock") != lockfile.digest(LOCK) or not interpreter.exists():
        return None
    return interpreter


def found() -> str | None:
    """What `kit doctor` shows for it: where, which version, on which Python."""
    interpreter = python()
    if interpreter is None:
        return None
    manifest = json.loads((location() / MANIFEST).read_text())
    return f"{interpreter} (localstack-core {VERSION}, python {manifest['python']})"


def install(log: Callable[[str], None]) -> Path:
    """Make the virtual environment and install the pinned LocalStack into it (idempotent)."""
    interpreter = python()
    if interpreter is not None:
        return interpreter
    target = location()
    base = Path(getattr(sys, "_base_executable", sys.executable))
    log(f"installing {REQUIREMENT} into {target / 'venv'} (python {base}; dependencies "
        f"locked as of {LOCKED_AT} in {LOCK.name})")
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    venv = target / "venv"
    checked_output([str(base), "-m", "venv", "--without-pip", str(venv)])
    interpreter = venv / "bin" / "python"
    checked_output(lockfile.install_argv(interpreter, LOCK))
    version = checked_output([str(interpreter), "-c",
                              "import sys; print(sys.version.split()[0])"]).strip()
    (target / MANIFEST).write_text(json.dumps({"version": VERSION, "python": version,
                                               "lock": lockfile.digest(LOCK)}, indent=2))
    return interpreter

