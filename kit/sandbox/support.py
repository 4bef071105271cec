"""What this machine allows for sandboxes: how they are made (as root, or in a user
namespace), or what is missing for them and how to get it (kit/sandbox/confine.py)."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import dataclass

from kit.sandbox import cgroup
from kit.sandbox.view import View
from kit.toolchain import runtime

# What the sandbox's init may do as root before it drops to the user: hand the workspace
# and /tmp over, read the solution whatever its modes, change users, empty the bounding set,
# and forward signals to the command.
INIT_CAPS = ("CAP_CHOWN", "CAP_DAC_READ_SEARCH", "CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP",
             "CAP_KILL")
NAMESPACES = ("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try")


@dataclass(frozen=True)
class Support:
    """How this machine makes sandboxes (`mode`), or what is missing for them."""

    mode: str | None  # "root": bwrap as root, init drops users | "userns" | None
    bwrap: str | None
    python: str | None  # the worker runtime's interpreter (runs init)
    missing: tuple[str, ...] = ()


def _probe(bwrap: str, python: str, mode: str) -> str | None:
    """Start one trivial sandbox; why it failed, or None."""
    args = [bwrap, *mode_args(mode), *NAMESPACES, "--die-with-parent",
            *with_runtime(View()).args([]), "--", python, "-I", "-S", "-c", "pass"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=30, check=False)
    return None if done.returncode == 0 else done.stderr.strip() or f"exit {done.returncode}"


@functools.cache
def support() -> Support:
    """What this machine allows (probed once per process)."""
    bwrap = shutil.which("bwrap")
    python = runtime.python()
    missing = []
    if bwrap is None:
        missing.append("bubblewrap (bwrap) is not installed: run `kit setup` as root, or "
                       "`apt-get install -y bubblewrap`")
    if python is None:
        missing.append(f"the worker runtime is not installed in {runtime.location()}: "
                       "run `kit setup`")
    if missing:
        return Support(None, bwrap, python, tuple(missing))
    assert bwrap is not None and python is not None
    mode = "root" if os.geteuid() == 0 else "userns"
    failed = _probe(bwrap, python, mode)
    if failed:
        fix = ("as root, check that bwrap can make namespaces here" if mode == "root" else
               "allow unprivileged user namespaces (sysctl user.max_user_namespaces > 0, "
               "kernel.unprivileged_userns_clone=1, kernel.apparmor_restrict_unprivileged_"
               "userns=0), or run the kit as root")
        return Support(None, bwrap, python, (f"bwrap cannot make a sandbox here ({failed}): "
                                             f"{fix}",))
    return Support(mode, bwrap, python)


def with_runtime(view: View) -> View:
    """`view` showing the worker runtime too (its interpreter runs the init)."""
    found = runtime.manifest()
    if found:
        view.program(found["python"]).show(*found["paths"])
    return view


def mode_args(mode: str) -> list[str]:
    """bwrap's privilege arguments: as root, the init's few capabilities; else a user
    namespace the sandbox cannot nest."""
    if mode == "root":
        caps = [arg for cap in INIT_CAPS for arg in ("--cap-add", cap)]
        return ["--cap-drop", "ALL", *caps]
    return ["--unshare-user", "--disable-userns", "--cap-drop", "ALL"]


def missing() -> list[str]:
    """Every axis this machine cannot confine, each with how to get it."""
    found = list(support().missing)
    if os.geteuid() != 0:
        found.append("own user per sandbox: needs root (the kit runs as uid "
                     f"{os.geteuid()}); processes keep the kit's uid in a user namespace")
        found.append("workers' network namespace: needs root (CAP_SYS_ADMIN); workers "
                     "share the host's loopback")
    reason = cgroup.unavailable()
    if reason:
        found.append(f"cgroup (memory, tasks, CPU of a sandbox together): {reason}; only "
                     "per-process rlimits apply")
    return found
