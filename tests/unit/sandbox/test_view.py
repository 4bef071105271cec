"""What a sandbox shows: paths with the symlinks on their way, mounts in an order where
nothing hides what was shown before."""

from __future__ import annotations

import os
from pathlib import Path

from kit.sandbox.view import View, resolve


def test_a_path_is_shown_with_every_symlink_on_its_way(tmp_path: Path) -> None:
    real = tmp_path / "usr" / "lib" / "x86_64"
    real.mkdir(parents=True)
    (real / "ld.so").write_text("")
    (tmp_path / "lib64").symlink_to("usr/lib")  # relative, like merged /usr
    (real / "alias.so").symlink_to(real / "ld.so")  # absolute
    links, found = resolve(str(tmp_path / "lib64" / "x86_64" / "alias.so"))
    assert found == str(real / "ld.so")
    assert links == [(str(tmp_path / "lib64"), "usr/lib"),
                     (str(real / "alias.so"), str(real / "ld.so"))]


def _mounts(args: list[str]) -> list[tuple[str, str]]:
    """(option, destination) of each mount, in bwrap's order."""
    takes_two = {"--bind", "--ro-bind", "--symlink", "--ro-bind-data"}
    found, i = [], 0
    while i < len(args):
        option = args[i]
        if option in ("--perms", "--size"):
            i += 2
            continue
        width = 3 if option in takes_two else 2
        found.append((option, args[i + width - 1]))
        i += width
    return found


def test_a_tmpfs_is_mounted_before_what_is_shown_beneath_it(tmp_path: Path) -> None:
    shown = tmp_path / "runs" / "copy"
    shown.mkdir(parents=True)
    view = View().show(shown, writable=True)
    view.tmpfs[str(tmp_path)] = 1024
    view.files["/etc/hosts"] = "127.0.0.1 localhost\n"
    fds: list[int] = []
    mounts = _mounts(view.args(fds))
    for fd in fds:
        os.close(fd)
    order = [where for _, where in mounts]
    assert order.index(str(tmp_path)) < order.index(str(tmp_path / "runs")) \
        < order.index(str(shown))
    assert ("--tmpfs", str(tmp_path)) in mounts and ("--bind", str(shown)) in mounts
    assert ("--dir", str(tmp_path / "runs")) in mounts  # a searchable parent, made first
    assert ("--ro-bind-data", "/etc/hosts") in mounts and ("--dir", "/etc") in mounts
    assert len(fds) == 1


def test_what_lies_under_a_shown_directory_needs_nothing_more(tmp_path: Path) -> None:
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    (inner / "link").symlink_to("..")
    mounts = _mounts(View().show(tmp_path / "a").show(inner / "link").args([]))
    assert ("--ro-bind", str(tmp_path / "a")) in mounts
    assert not [m for m in mounts if m[0] == "--symlink"]  # the bind brings it along
