"""What the kit takes from a solution directory, judged before anything reads a file of it.

The kit runs as root and copies the solution (kit/deploy/terraform.py) before Terraform,
confined, reads the copy; the gate (kit/deploy/gate.py) parses the solution itself. So the
directory is walked first, without following a single link, and what is refused here is
refused before any byte of the solution is read:
- a symbolic link whose target (resolved all the way) is outside the solution, or inside a
  part of it the kit does not copy (below): a privileged process following it would read,
  for the solution, what its own user may not (a root-only file, the golden solution).
  Links that stay inside the copied solution are kept as links in the copy, so a link must
  also resolve in the copy to what it resolves to here: an absolute one (back into the
  solution, which the copy is not) and a relative one that climbs above the solution's top
  on the way (`../<its name>/main.tf`) are refused, even when they end inside;
- anything but regular files, directories and links (a FIFO would hang the copy, a device
  node would be read as root);
- files that change what Terraform reads besides the solution's `*.tf`/`*.tf.json`
  (REFUSED): override files (merged over the other files, also over the kit's provider
  override: e.g. moving the provider's region), variable files (values the gate and the
  inspections do not see; the contract's variables are the only ones), CLI configuration
  files, `terraform.d/` (an implied local provider mirror: a provider the kit did not
  build).

Neutralised instead (kit/deploy/hcl.py NOT_COPIED: never copied, never read by the gate):
`.terraform/` (the modules and providers of an earlier init; init makes its own),
`.terraform.lock.hcl` (init writes a fresh one from the kit's mirror), `terraform.tfstate*`
(the run starts from no state), `.git/`, `__pycache__/` and `.kit/` (a team repository's
scenarios, variants and module cache: the kit's input, not the code under test). An agent
that ran Terraform itself leaves them behind, and they have no effect; a link into them is
refused like a link out of the solution.
"""

from __future__ import annotations

import fnmatch
import os
import stat
from pathlib import Path

from kit.deploy.gate import Violation
from kit.deploy.hcl import not_copied

_MERGED = "Terraform merges an override file over the others, the kit's provider file too"
_VARIABLES = "variable values come from the scenario's contract only"
REFUSED = {
    "override.tf": _MERGED,
    "override.tf.json": _MERGED,
    "*_override.tf": _MERGED,
    "*_override.tf.json": _MERGED,
    "*.tfvars": _VARIABLES,  # terraform.tfvars and *.auto.tfvars are loaded unasked
    "*.tfvars.json": _VARIABLES,
    ".terraformrc": "Terraform's CLI configuration is the kit's",
    "terraform.rc": "Terraform's CLI configuration is the kit's",
    "terraform.d": "an implied local provider mirror: providers come from the kit's mirror",
}


def refusals(solution: Path) -> list[Violation]:
    """Every entry of the solution the kit refuses to take (empty when it may be copied);
    reads no file's content and follows no link."""
    root = Path(os.path.realpath(solution))
    found: list[Violation] = []
    for here, dirs, files in os.walk(solution, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not not_copied(d))
        for name in [*dirs, *sorted(files)]:
            if not_copied(name):
                continue
            path = Path(here) / name
            problem = _problem(path, root, len(path.parent.relative_to(solution).parts))
            if problem:
                found.append(Violation(str(path.relative_to(solution)), *problem))
    return found


def _problem(path: Path, root: Path, depth: int) -> tuple[str, str] | None:
    """(construct, why) when one entry (`depth` directories below the top) is refused."""
    mode = path.lstat().st_mode
    if stat.S_ISLNK(mode):
        return _link_problem(path, root, depth)
    reason = _refused_name(path.name)
    if reason:
        return f"{'directory' if stat.S_ISDIR(mode) else 'file'} {path.name}", reason
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        return ("special file", "a solution holds regular files, directories and links only")
    return None


def _link_problem(path: Path, root: Path, depth: int) -> tuple[str, str] | None:
    """Why a link is refused: its target leaves what the kit copies, or would resolve to
    another place in the copy (or it is a refused name itself)."""
    written = os.readlink(path)
    construct = f"symbolic link to {written}"
    target = Path(os.path.realpath(path))
    # Each hop too (its target as written): a chain through a place outside could be
    # turned to another file between this check and a read.
    hop = Path(os.path.normpath(Path(os.path.realpath(path.parent)) / os.readlink(path)))
    if not (target.is_relative_to(root) and hop.is_relative_to(root)):
        return construct, "links out of the solution are not followed"
    if any(not_copied(part) for part in target.relative_to(root).parts):
        return construct, "it leads into a part of the solution the kit does not copy"
    if os.path.isabs(written) or _climbs(written, depth):
        return construct, ("it would resolve to another file in the kit's copy than here: a "
                           "link may only climb within the solution, by a relative path")
    reason = _refused_name(path.name)
    return (construct, reason) if reason else None


def _climbs(written: str, depth: int) -> bool:
    """Whether a relative link's path, from `depth` directories below the top, goes above
    the top at some step (read as text: what the copy would resolve it against)."""
    for part in Path(written).parts:
        depth += -1 if part == ".." else 0 if part == "." else 1
        if depth < 0:
            return True
    return False


def _refused_name(name: str) -> str | None:
    """Why a file of this name is refused (None: it is not)."""
    return next((why for pattern, why in REFUSED.items()
                 if fnmatch.fnmatchcase(name, pattern)), None)
