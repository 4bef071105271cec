"""The emulator versions the kit's fixes were written for, and the check that refuses others.

The fidelity fixes (kit/sandbox/fidelity/, kit/sandbox/moto_*.py) patch moto's private
internals: a new moto release can change them under the kit (moto 5.2.6 began to set
`performance_insights_enabled` on DBInstance, where the kit's fix for 5.2.5 had put a
read-only property, and every RDS run became the kit's `error`). So the fixes name the exact
release they were written and tested for, here, and every command that starts a sandbox
checks the installed one first: another release is one line naming both and the command
that fixes it, before anything starts, never a run's `emulator gap`. LocalStack's release
is pinned by kit/toolchain/localstack_install.py.

Moving to a new release is: port the fixes, change WRITTEN_FOR, `make lock` (which keeps the
lock's moto at WRITTEN_FOR), and the suite (tests/unit/toolchain/test_lock.py holds the lock to it).
"""

from __future__ import annotations

from importlib import metadata

from kit.errors import ToolchainError

# distribution -> the one release the kit's fixes to it were written and tested for
WRITTEN_FOR = {"moto": "5.2.6"}
FIX = "make venv  (installs the locked versions; outside a checkout: pip install {pins})"


def installed(name: str) -> str | None:
    """The installed release of a distribution (None: not installed)."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def drift() -> list[str]:
    """One line for each emulator installed at a release its fixes were not written for."""
    pins = " ".join(f"'{name}[server]=={version}'" for name, version in WRITTEN_FOR.items())
    lines = []
    for name, version in WRITTEN_FOR.items():
        found = installed(name)
        if found != version:
            lines.append(f"{name} {found or 'not installed'} is installed; the kit's fixes "
                         f"to {name} are written for {name} {version}: run "
                         + FIX.format(pins=pins))
    return lines


def found() -> str | None:
    """What `kit doctor` shows: the emulator releases, when each is the one expected."""
    if drift():
        return None
    return ", ".join(f"{name} {version}" for name, version in WRITTEN_FOR.items())


def require() -> None:
    """Refuse (ToolchainError) when an emulator is not the release its fixes expect."""
    lines = drift()
    if lines:
        raise ToolchainError("\n".join(lines))
