"""Build-time edits to the AWS provider for a strongly consistent local emulator.

The provider's waiters are tuned for real AWS's eventual consistency: an SQS queue is
polled until its attributes read back 6 times in a row, 5 s apart (30 s per queue; 45 s
to delete one), an RDS instance every 10 s. Against moto, which is consistent at once,
that is pure waiting. The edit below lets waiters poll every 100 ms and accept the first
observation of the target state, only when KIT_EMULATOR_WAITERS=1 is set (the kit sets it
for every terraform command). It changes timing, never what is created or checked.

Edits are applied to a copy of the module source (the module cache is never modified);
each edit names an exact anchor and the build fails loudly if the anchor is gone. A
`Patch` may also trim the provider to a set of services (kit/toolchain/provider_trim.py).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from kit.errors import ToolchainError
from kit.toolchain import provider_trim


@dataclass(frozen=True)
class Edit:
    """Replace `anchor` (which must occur exactly once) in `path` with `replacement`."""

    path: str
    anchor: str
    replacement: str


@dataclass(frozen=True)
class Patch:
    """Anchored edits, and the services to keep (empty: every service)."""

    edits: tuple[Edit, ...] = ()
    services: tuple[str, ...] = ()


AWS_EDITS = (
    Edit("internal/retry/state.go", 'import (\n\t"context"\n',
         'import (\n\t"context"\n\t"os"\n'),
    Edit("internal/retry/state.go",
         "\tdelay := backoff.SDKv2HelperRetryCompatibleDelay(conf.Delay, conf.PollInterval, "
         "conf.MinTimeout)\n",
         "\tdelay := backoff.SDKv2HelperRetryCompatibleDelay(conf.Delay, conf.PollInterval, "
         "conf.MinTimeout)\n"
         "\t// kit: a strongly consistent local emulator needs no settling time.\n"
         '\tif os.Getenv("KIT_EMULATOR_WAITERS") == "1" {\n'
         "\t\tdelay = backoff.FixedDelay(100 * time.Millisecond)\n"
         "\t\tconf.ContinuousTargetOccurence = 1\n"
         "\t}\n"),
)


AWS = Patch(AWS_EDITS, provider_trim.SERVICES)
CATALOGUE = "types.json"  # written into the patched source by a trim


def fingerprint(patch: Patch) -> str:
    """A short hash of the patch, stored beside the binary to know when to rebuild."""
    text = json.dumps({"edits": [e.__dict__ for e in patch.edits],
                       "services": list(patch.services)}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def patched_source(module_dir: Path, patch: Patch, workdir: Path) -> Path:
    """A copy of the module source with the patch applied (made once per fingerprint).

    Go refuses `-overlay` on files under the module cache, so the wrapper module points a
    `replace` directive at this copy instead.
    """
    target = workdir / f"src-{fingerprint(patch)}"
    if target.exists():
        return target
    staging = workdir / f"{target.name}.partial"
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(module_dir, staging)
    staging.chmod(0o755)  # the module cache is read-only; the catalogue is written here
    for edit in patch.edits:
        path = staging / edit.path
        original = path.read_text()
        if original.count(edit.anchor) != 1:
            raise ToolchainError(f"provider patch: the anchor in {edit.path} occurs "
                                 f"{original.count(edit.anchor)} times (expected once); the "
                                 "provider revision changed: update "
                                 "kit/toolchain/provider_patches.py")
        path.chmod(0o644)
        path.write_text(original.replace(edit.anchor, edit.replacement))
    if patch.services:
        provider_trim.write_catalogue(provider_trim.trim(staging, patch.services),
                                      staging / CATALOGUE)
    staging.rename(target)
    return target
