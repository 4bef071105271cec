"""The first process of every sandbox (PID 1 of its namespace): it prepares the workspace,
starts the confined command as the sandbox's user, forwards stop signals to it, reaps
orphans, and tells the kit exactly how the command ended.

It runs inside the sandbox, from this source (passed with -c: no file of the kit is shown),
under the worker runtime's interpreter with the standard library only. Being PID 1, it
receives only signals it handles (and SIGKILL from the kit), and it is not dumpable, so the
confined command cannot kill, trace or impersonate it. When it exits, the kernel kills
every process left in the sandbox.

argv[1] is a descriptor to read a JSON spec from: status_fd, uid, gid (the user to become,
or null to stay), copy ([source, workspace] or null), own (paths to hand to the user), cwd,
argv and env (the command's environment; this process runs with PATH only). Lines
written on status_fd: "ready" just before the command starts (or "failed <why>" when the
workspace could not be prepared), then "exit <code>" or "signal <number>".
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import shutil
import signal
import sys

FORWARD = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1,
           signal.SIGUSR2)
PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 4, 24, 38
libc = ctypes.CDLL(None, use_errno=True)


def prepare(spec: dict) -> None:
    """Copy the solution into the workspace and hand the writable places to the user."""
    if spec["copy"]:
        source, workspace = spec["copy"]
        shutil.copytree(source, workspace, symlinks=True, dirs_exist_ok=True)
    if spec["uid"] is None:
        return
    for top in spec["own"]:
        device = os.lstat(top).st_dev
        os.chown(top, spec["uid"], spec["gid"], follow_symlinks=False)
        for root, dirs, files in os.walk(top):
            # Never what is mounted beneath (a host file or directory the sandbox shows).
            dirs[:] = [d for d in dirs if os.lstat(os.path.join(root, d)).st_dev == device]
            for path in (os.path.join(root, name) for name in dirs + files):
                if os.lstat(path).st_dev == device:
                    os.chown(path, spec["uid"], spec["gid"], follow_symlinks=False)


def become(spec: dict) -> None:
    """In the child: drop to the sandbox's user for good, then run the command."""
    for sig in FORWARD:
        signal.signal(sig, signal.SIG_DFL)
    if spec["uid"] is not None:
        with open("/proc/sys/kernel/cap_last_cap") as handle:
            last = int(handle.read())
        for cap in range(last + 1):
            if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
                print("sandbox: cannot drop capabilities", file=sys.stderr, flush=True)
                os._exit(125)
        os.setgroups([])
        os.setresgid(spec["gid"], spec["gid"], spec["gid"])
        os.setresuid(spec["uid"], spec["uid"], spec["uid"])
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))
    try:
        os.chdir(spec["cwd"])
        os.execvpe(spec["argv"][0], spec["argv"], spec["env"])
    except OSError as exc:
        print(f"sandbox: cannot run {spec['argv'][0]}: {exc}", file=sys.stderr, flush=True)
    os._exit(127)


def describe(status: int) -> tuple[str, int]:
    """The status line for a wait status."""
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}", 128 + os.WTERMSIG(status)
    code = os.waitstatus_to_exitcode(status)
    return f"exit {code}", code


def main() -> None:
    source = int(sys.argv[1])
    with os.fdopen(source, "rb") as handle:
        spec = json.loads(handle.read())
    out = spec["status_fd"]
    child = 0
    pending = []

    def forward(sig: int, frame: object) -> None:
        if child:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, sig)
        else:
            pending.append(sig)

    for sig in FORWARD:  # before anything else: PID 1 drops unhandled signals
        signal.signal(sig, forward)
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    try:
        prepare(spec)
    except OSError as exc:
        print(f"sandbox: cannot prepare the workspace: {exc}", file=sys.stderr, flush=True)
        os.write(out, f"failed preparing the workspace: {exc}\n".encode())
        os._exit(126)
    os.write(out, b"ready\n")
    child = os.fork()
    if child == 0:
        become(spec)
    for sig in pending:
        os.kill(child, sig)
    while True:
        pid, status = os.wait()  # also reaps orphans the command leaves
        if pid == child:
            line, code = describe(status)
            os.write(out, (line + "\n").encode())
            os._exit(code)


if __name__ == "__main__":
    main()
