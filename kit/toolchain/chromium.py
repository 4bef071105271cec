"""Headless Chromium: the browser the HTML report's test opens report.html in (a dev tool,
as actionlint is: no run of the kit needs a browser).

Debian's `chromium` package, with `fonts-dejavu-core` so that a screenshot shows text
(without recommends: Chromium's pull in systemd and a hundred more). `kit setup` installs
both where it can (root, apt-get); elsewhere it says how and goes on, because nothing but
that test needs them. The test drives it with Playwright's bundled driver and never
downloads a browser of its own.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from kit.toolchain import Log, Piece, install_debian

PACKAGES = ("chromium", "fonts-dejavu-core")
FIX = "apt-get update && apt-get install -y --no-install-recommends " + " ".join(PACKAGES)
# Headless, and without the background services that would try the network (component
# updates, sync, field trials, QUIC): the machine reaches no host but its registries.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


def binary() -> Path | None:
    """The Chromium to use: KIT_CHROMIUM, else `chromium` on PATH; None when missing."""
    found = os.environ.get("KIT_CHROMIUM") or shutil.which("chromium")
    return Path(found) if found and Path(found).is_file() else None


def installable() -> str | None:
    """Why the kit cannot install Chromium here (None: it can, as root with apt-get)."""
    if not shutil.which("apt-get"):
        return "no apt-get on this machine (not Debian)"
    if os.geteuid() != 0:
        return "not running as root"
    return None


def piece() -> Piece:
    """Chromium as doctor reports it (optional: only the HTML report's test needs it)."""
    found = binary()
    return Piece("chromium (optional: the HTML report's browser test)",
                 str(found) if found else None, FIX)


def install(log: Log) -> Path | None:
    """Install Chromium and its font where missing and possible; else say how."""
    found = binary()
    if found:
        return found
    why = installable()
    if why:
        log(f"chromium is missing ({why}): the HTML report's browser test will skip; "
            f"to add it: {FIX}")
        return None
    install_debian(PACKAGES[0], "Chromium (the HTML report's browser test)", log,
                   also=PACKAGES[1:])
    return binary()
