"""What a confined process sees of the file system: a fresh, empty root with only the paths
the kit lists, each at its own place, read-only unless said otherwise.

A path is shown with the symlinks met on the way to it (merged-/usr `/lib64 ->
usr/lib64`, a venv's `bin/python -> /usr/bin/python3.11`), so programs find their
interpreter and libraries where they expect them. Everything else of the machine (the
kit's tree, its cache, golden/, variants/, other runs, /root, /home, /etc) is absent.
"""

from __future__ import annotations

import functools
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

MAX_HOPS = 40
PIPE_CAPACITY = 65536  # Linux's default: written before the reader starts, it must fit


def resolve(path: str) -> tuple[list[tuple[str, str]], str]:
    """The symlinks met on the way to `path` as (where, target), and the real path."""
    links: list[tuple[str, str]] = []
    current, todo = "/", list(Path(path).parts[1:])
    while todo:
        name = todo.pop(0)
        if name == "..":
            current = os.path.dirname(current)
            continue
        candidate = os.path.join(current, name)
        if os.path.islink(candidate):
            if len(links) >= MAX_HOPS:
                raise OSError(f"too many symlinks resolving {path}")
            target = os.readlink(candidate)
            links.append((candidate, target))
            todo = list(Path(target).parts[1:] if target.startswith("/")
                        else Path(target).parts) + todo
            current = "/" if target.startswith("/") else current
        else:
            current = candidate
    return links, current


@functools.cache
def libraries(binary: str) -> tuple[str, ...]:
    """The dynamic loader and shared libraries `binary` needs (none for a static one)."""
    done = subprocess.run(["ldd", binary], capture_output=True, text=True, check=False)
    found = []
    for line in done.stdout.splitlines():
        words = line.split()
        path = words[2] if "=>" in words and len(words) > 2 else words[0] if words else ""
        if path.startswith("/"):
            found.append(path)
    return tuple(found)


def _under(path: str, roots: set[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


@dataclass
class View:
    """Host paths to show (read-only or writable), private tmpfs dirs, generated files."""

    readonly: set[str] = field(default_factory=set)
    writable: set[str] = field(default_factory=set)
    links: dict[str, str] = field(default_factory=dict)
    tmpfs: dict[str, int] = field(default_factory=dict)  # sandbox path -> size in bytes
    files: dict[str, str] = field(default_factory=dict)  # sandbox path -> content
    places: dict[str, str] = field(default_factory=dict)  # sandbox path -> host path (ro)

    def show(self, *paths: str | Path, writable: bool = False) -> View:
        """Show each host path (file or directory) at its own place."""
        for path in paths:
            links, real = resolve(os.path.abspath(path))
            self.links.update(links)
            (self.writable if writable else self.readonly).add(real)
        return self

    def program(self, binary: str | Path) -> View:
        """Show a program with the loader and library directories it needs."""
        self.show(binary)
        for lib in libraries(str(binary)):
            self.show(os.path.dirname(lib))
        return self

    def place(self, host: str | Path, inside: str) -> View:
        """Show a host directory read-only at another place (`inside`)."""
        self.places[inside] = str(host)
        return self

    def args(self, data_fds: list[int]) -> list[str]:
        """bwrap arguments building this view; generated files are read from new pipes
        whose read ends are appended to `data_fds` (the caller passes and closes them)."""
        bound = self.readonly | self.writable
        mounts: dict[str, list[str]] = {}  # destination -> its arguments
        for path in bound:
            mounts[path] = ["--bind" if path in self.writable else "--ro-bind", path, path]
        for inside, host in self.places.items():
            mounts[inside] = ["--ro-bind", host, inside]
        for inside, size in self.tmpfs.items():
            mounts[inside] = ["--perms", "0700", "--size", str(size), "--tmpfs", inside]
        for where, target in self.links.items():
            if not _under(where, bound):
                mounts[where] = ["--symlink", target, where]
        for inside, content in self.files.items():
            read = data_fd(content)
            data_fds.append(read)
            mounts[inside] = ["--perms", "0644", "--ro-bind-data", str(read), inside]
        # bwrap (as root) makes missing parents 0700: make them searchable first.
        for parent in {str(p) for path in mounts for p in Path(path).parents} - {"/"}:
            if parent not in mounts and not _under(parent, bound):
                mounts[parent] = ["--perms", "0755", "--dir", parent]
        args = ["--proc", "/proc", "--dev", "/dev"]
        # Parents before children: a tmpfs mounted later would hide what is beneath it.
        for where in sorted(mounts, key=lambda path: Path(path).parts):
            args += mounts[where]
        return args


def data_fd(content: str) -> int:
    """A pipe already holding `content` (and closed for writing): its read end."""
    data = content.encode()
    if len(data) > PIPE_CAPACITY:
        raise ValueError(f"{len(data)} bytes do not fit a pipe ({PIPE_CAPACITY})")
    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    return read


def etc_files(uid: int, gid: int, home: str) -> dict[str, str]:
    """A minimal /etc: the sandbox's own user and group, and localhost."""
    return {
        "/etc/passwd": f"root:x:0:0:root:/:/usr/sbin/nologin\n"
                       f"sandbox:x:{uid}:{gid}:sandbox:{home}:/usr/sbin/nologin\n",
        "/etc/group": f"root:x:0:\nsandbox:x:{gid}:\n",
        "/etc/hosts": "127.0.0.1 localhost\n::1 localhost\n",
        "/etc/nsswitch.conf": "passwd: files\ngroup: files\nhosts: files\n",
    }
