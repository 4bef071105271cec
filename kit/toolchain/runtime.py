"""The worker runtime: the Python 3.11 the contract promises workers, with exactly boto3 and
psycopg[binary] and their dependencies at the releases the kit's own lock holds
(kit/toolchain/locks/worker.txt, hashed, written by `make lock`), installed where a sandbox
user can run it: /opt/kit-worker when the kit is root (its own interpreter may live in a private
home, /root is 0700), else <cache>/worker-runtime; KIT_WORKER_RUNTIME overrides both.

`kit setup` makes it: a venv from a python3.11 every user can reach, the lock installed
into it by the kit's pip (`pip --python --require-hashes`), everything world-readable, and a
manifest (kit-runtime.json) naming the directories a sandbox must show for it to run: the
venv, the interpreter, its standard library and the shared libraries it loads.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

from kit import settings
from kit.errors import ToolchainError
from kit.toolchain import lockfile

PACKAGES = ("boto3", "psycopg")
LOCK = lockfile.LOCKS / "worker.txt"
MANIFEST = "kit-runtime.json"
BASES = ("/usr/bin/python3.11", "/usr/local/bin/python3.11")
# Run by the runtime's own interpreter: what it maps once everything a worker may use is
# loaded (extension modules and their libraries), and where its standard library is.
_PROBE = """
import importlib, json, os, sys, sysconfig
for name in ("boto3", "psycopg", "psycopg_binary", "ssl", "ctypes", "sqlite3", "decimal",
             "lzma", "bz2", "zlib", "hashlib", "uuid", "select", "asyncio", "zoneinfo",
             "json", "csv", "readline", "curses", "dbm", "multiprocessing"):
    try:
        importlib.import_module(name)
    except Exception:
        pass
import psycopg
psycopg.pq.version()
exe = os.path.realpath(sys._base_executable)
maps = {line.split()[-1] for line in open("/proc/self/maps") if " /" in line}
paths = {os.path.dirname(p) for p in maps if p.startswith("/") and p != exe}
paths |= {sysconfig.get_path("stdlib"), sysconfig.get_path("platstdlib"), sys.prefix, exe}
tops = [p for p in sorted(paths) if not any(p.startswith(q + "/") for q in paths)]
print(json.dumps({"python": sys.executable, "version": sys.version.split()[0],
                  "paths": tops}))
"""


def location() -> Path:
    """Where the worker runtime is (or goes)."""
    override = os.environ.get("KIT_WORKER_RUNTIME")
    if override:
        return Path(override)
    return Path("/opt/kit-worker") if os.geteuid() == 0 else settings.cache_dir() / "worker-runtime"


def wanted() -> dict[str, str]:
    """package -> the release workers get (the kit's own lock's)."""
    pins = lockfile.pinned(LOCK)
    return {name: pins[name] for name in PACKAGES}


def manifest() -> dict[str, Any] | None:
    """The installed runtime's manifest, when it is current (installed from today's lock)."""
    path = location() / MANIFEST
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if found.get("lock") != lockfile.digest(LOCK) or not Path(found.get("python", "")).exists():
        return None
    return found


def python() -> str | None:
    """The runtime's interpreter, when installed and current."""
    found = manifest()
    return found["python"] if found else None


def _reachable(path: Path) -> bool:
    """Every user can run `path`: each parent directory is searchable by others."""
    real = path.resolve()
    return all(p.stat().st_mode & stat.S_IXOTH for p in real.parents) and os.access(real, os.X_OK)


def base_interpreter() -> Path | None:
    """A Python 3.11 the sandbox's users can reach (the kit's own, if it is reachable)."""
    own = Path(getattr(sys, "_base_executable", sys.executable))
    for candidate in (own, *map(Path, BASES)):
        if not candidate.exists() or (os.geteuid() == 0 and not _reachable(candidate)):
            continue
        version = subprocess.run([str(candidate), "-c", "import sys; print(sys.version_info[:2])"],
                                 capture_output=True, text=True, check=False).stdout.strip()
        if version == "(3, 11)":
            return candidate
    return None


def install(log: Any) -> Path:
    """Make the runtime (idempotent: a current one is left alone)."""
    if manifest():
        return location()
    base = base_interpreter()
    if base is None:
        raise ToolchainError("no Python 3.11 that every user can run (the kit's lives in a "
                             "private home): run `apt-get install -y python3.11`")
    target = location()
    log(f"installing the worker runtime into {target} (python {base}, "
        + ", ".join(f"{n}=={v}" for n, v in wanted().items()) + f", locked in {LOCK.name})")
    shutil.rmtree(target, ignore_errors=True)
    checked_output([str(base), "-m", "venv", "--without-pip", str(target)])
    runtime_python = target / "bin" / "python"
    checked_output(lockfile.install_argv(runtime_python, LOCK))
    for root, dirs, files in os.walk(target):
        for name in dirs + files:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                mode = os.stat(path).st_mode
                os.chmod(path, mode | 0o444 | (0o111 if mode & 0o100 else 0))
    target.chmod(0o755)
    probe = json.loads(checked_output([str(runtime_python), "-I", "-c", _PROBE]))
    probe["packages"] = wanted()
    probe["lock"] = lockfile.digest(LOCK)
    (target / MANIFEST).write_text(json.dumps(probe, indent=2))
    return target


def checked_output(argv: list[str]) -> str:
    """Run a setup command; its stdout, or ToolchainError with its stderr's tail."""
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise ToolchainError(f"`{' '.join(argv)}` failed (exit {done.returncode}):\n"
                             f"{done.stderr.strip()[-2000:]}")
    return done.stdout
