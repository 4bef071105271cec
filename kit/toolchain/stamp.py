"""The toolchain's stamp: one key that changes whenever what `kit setup` builds changes.

CI caches ~/.cache/kit under this key (action.yml): a kit upgrade that pins another
provider, Terraform or Toxiproxy, edits the provider, or locks another worker runtime or
LocalStack (kit/toolchain/locks/) gets a fresh cache instead of a stale one, and an
unchanged toolchain is restored instead of rebuilt."""

from __future__ import annotations

import hashlib
import json
import platform
import sys

from kit import settings
from kit.toolchain import localstack_install, lockfile, provider_patches, runtime

PREFIX = "kit-toolchain"


def pins() -> dict[str, object]:
    """Everything the cache's contents are built from."""
    return {
        **settings.provider_specs(),
        "aws_edits": provider_patches.fingerprint(provider_patches.AWS),
        "stand_ins": settings.stand_in_fingerprint(),
        "tofu": settings.TOFU_VERSION, "toxiproxy": settings.TOXIPROXY,
        "actionlint": settings.ACTIONLINT, "runtime": lockfile.digest(runtime.LOCK),
        "localstack": lockfile.digest(localstack_install.LOCK),
        "machine": platform.machine(), "python": f"{sys.version_info[0]}.{sys.version_info[1]}",
    }


def key() -> str:
    """The cache key: a readable prefix and a hash of `pins()`."""
    digest = hashlib.sha256(json.dumps(pins(), sort_keys=True).encode()).hexdigest()[:16]
    return f"{PREFIX}-{platform.machine()}-{digest}"
