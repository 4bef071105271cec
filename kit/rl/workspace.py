"""A session's workspace: file reads, writes and listings confined to one directory.

A path is refused (WorkspaceRefusal, whose message is the observation) when it is
absolute, holds `..`, names the workspace itself, or passes through a symbolic link, or
when it resolves outside the workspace: a solution must not read or write the host
through the environment."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from kit.intake import files

MAX_FILE_BYTES = 1_000_000  # one write or read: a solution's file, not a data dump
MAX_FILES = 500


class WorkspaceRefusal(Exception):
    """A file action the workspace refuses; the message says which path and why."""


class Workspace:
    """One directory the agent's file actions are confined to."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.root.mkdir(parents=True, exist_ok=True)

    def resolve(self, rel: str) -> Path:
        """The path inside the workspace that `rel` names; WorkspaceRefusal if it leaves."""
        if not rel or "\x00" in rel:
            raise WorkspaceRefusal(f"path {rel!r} refused: give a non-empty relative path")
        pure = PurePosixPath(rel)
        if pure.is_absolute():
            raise WorkspaceRefusal(f"path {rel!r} refused: absolute paths leave the "
                                   "workspace; give a path relative to it")
        if ".." in pure.parts:
            raise WorkspaceRefusal(f"path {rel!r} refused: `..` leaves the workspace")
        parts = [p for p in pure.parts if p != "."]
        if not parts:
            raise WorkspaceRefusal(f"path {rel!r} refused: it names the workspace itself")
        current = self.root
        for part in parts:
            current = current / part
            if current.is_symlink():
                raise WorkspaceRefusal(f"path {rel!r} refused: {current.relative_to(self.root)}"
                                       " is a symbolic link (it may point out of the "
                                       "workspace)")
        if not current.resolve().is_relative_to(self.root):
            raise WorkspaceRefusal(f"path {rel!r} refused: it resolves outside the workspace")
        return current

    def write(self, rel: str, content: str) -> str:
        """Write a file (parents made); the observation's text."""
        if len(content.encode()) > MAX_FILE_BYTES:
            raise WorkspaceRefusal(f"write {rel!r} refused: over {MAX_FILE_BYTES} bytes")
        target = self.resolve(rel)
        if target.is_dir():
            raise WorkspaceRefusal(f"write {rel!r} refused: it is a directory")
        if len(self.files()) >= MAX_FILES and not target.exists():
            raise WorkspaceRefusal(f"write {rel!r} refused: the workspace holds {MAX_FILES} "
                                   "files already")
        # Every component by descriptor, none followed: a link made since resolve() is not.
        try:
            files.replace(self.root, target.relative_to(self.root), content.encode())
        except files.Taken:
            raise WorkspaceRefusal(f"write {rel!r} refused: a name on the way is a file or a "
                                   "link, not a directory") from None
        return f"wrote {rel} ({len(content)} characters)"

    def read(self, rel: str) -> str:
        """A file's text."""
        target = self.resolve(rel)
        if not target.is_file():
            raise WorkspaceRefusal(f"read {rel!r}: no such file in the workspace")
        data = files.read_regular(self.root, target.relative_to(self.root), MAX_FILE_BYTES)
        if data is None:
            raise WorkspaceRefusal(f"read {rel!r} refused: over {MAX_FILE_BYTES} bytes, or "
                                   "not a regular file")
        return data.decode("utf-8", errors="replace")

    def delete(self, rel: str) -> str:
        """Remove a file."""
        target = self.resolve(rel)
        if not files.remove(self.root, target.relative_to(self.root)):
            raise WorkspaceRefusal(f"delete {rel!r}: no such file in the workspace")
        return f"deleted {rel}"

    def files(self) -> list[str]:
        """Every file's path, relative to the workspace (links listed, never followed)."""
        out = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            base = Path(dirpath)
            out += [(base / f).relative_to(self.root).as_posix() for f in filenames]
            out += [(base / d).relative_to(self.root).as_posix() for d in dirnames
                    if (base / d).is_symlink()]
        return sorted(out)

    def snapshot(self) -> dict[str, str]:
        """Every regular file's text (the observation after reset)."""
        return {rel: self.read(rel) for rel in self.files()
                if not (self.root / rel).is_symlink()}
