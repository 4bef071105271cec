"""Where the kit keeps its caches and which Terraform binary it drives."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

# The kit's own root of scenarios/, golden/, variants/, modules/ and providers/:
# kit/_shipped/ in an installed wheel (setup.py copies them there), else the checkout
# beside the package.
SHIPPED = Path(__file__).resolve().parent / "_shipped"
ROOT = SHIPPED if SHIPPED.is_dir() else Path(__file__).resolve().parent.parent

# Pinned provider builds. The module proxy reachable here serves only a few revisions of
# terraform-provider-aws; v5.82.1 (commit ba4eee9c) is refused with 403, so the kit pins the
# served revision below and names it by the version its CHANGELOG announces.
AWS_PROVIDER = {
    "version": "6.48.0",
    "module": "github.com/hashicorp/terraform-provider-aws",
    "revision": "v1.60.1-0.20260602190131-5f2286d6d836",
}
RANDOM_PROVIDER = {
    "version": "3.9.0",
    "module": "github.com/terraform-providers/terraform-provider-random",  # its go.mod path
    "revision": "v1.3.2-0.20260824155315-e1092b0cfc07",
}
# HashiCorp's utility providers, built the same way into the mirror (a scenario's
# `allowed_providers` decides which a solution may use). Each is the revision of the
# release named by `version` that the module proxy serves: its tags past v1 are not Go
# module versions (no /vN suffix), so the release commit is named by its pseudo-version.
# null, archive, http and cloudinit: the proxy serves no revision of a release (docs/toolchain.md).
UTILITY_PROVIDERS = {
    "time": {"version": "0.14.2", "module": "github.com/hashicorp/terraform-provider-time",
             "revision": "v0.14.2"},
    "local": {"version": "2.9.0",
              "module": "github.com/terraform-providers/terraform-provider-local",
              "revision": "v1.4.1-0.20260513075820-3561e410f9fe"},
    "tls": {"version": "4.2.1", "module": "github.com/hashicorp/terraform-provider-tls",
            "revision": "v1.2.1-0.20260130152455-857b38cda3fc"},
}


# The kit's own stand-ins for two of those (providers/ in the checkout: Go source written
# here, one main package each, built with the Go module proxy's plugin framework), under
# the version of the release whose documented schema each serves (providers/README.md).
STAND_IN_PROVIDERS = {
    "null": {"version": "3.2.4", "package": "./null"},
    "archive": {"version": "2.7.1", "package": "./archive"},
}


def utility_specs() -> dict[str, dict[str, str]]:
    """The utility providers the mirror holds, from the module proxy or the kit's own."""
    return {**UTILITY_PROVIDERS, **STAND_IN_PROVIDERS}


def provider_specs() -> dict[str, dict[str, str]]:
    """Every hashicorp provider the kit builds into the mirror, by name."""
    return {"aws": AWS_PROVIDER, "random": RANDOM_PROVIDER, **utility_specs()}


def stand_in_source() -> Path:
    """The Go module of the kit's stand-in providers."""
    return ROOT / "providers"


def stand_in_fingerprint() -> str:
    """A short hash of the stand-ins' Go source (names and contents): a change rebuilds them."""
    digest = hashlib.sha256()
    root = stand_in_source()
    for path in sorted(p for p in root.rglob("*")
                       if p.name in ("go.mod", "go.sum") or p.suffix == ".go"):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


# A dev tool, not a run's: the tests lint action.yml and the example workflow with it.
ACTIONLINT = {"module": "github.com/rhysd/actionlint/cmd/actionlint", "version": "v1.7.7"}
TOXIPROXY = {"module": "github.com/Shopify/toxiproxy/v2/cmd/server", "version": "v2.12.0"}
REGISTRY_HOSTS = ("registry.terraform.io", "registry.opentofu.org")


def cache_dir() -> Path:
    """Root of the kit's caches, outside the repository (KIT_CACHE or ~/.cache/kit)."""
    return Path(os.environ.get("KIT_CACHE") or Path.home() / ".cache" / "kit")


def mirror_dir() -> Path:
    """Filesystem mirror of Terraform providers, unpacked layout."""
    return cache_dir() / "mirror"


def bin_dir() -> Path:
    """Binaries the kit built (toxiproxy-server, tofu)."""
    return cache_dir() / "bin"


def cli_config_file() -> Path:
    """The Terraform CLI config the kit writes; it never reads ~/.terraformrc."""
    return cache_dir() / "terraform.rc"


def terraform_binary() -> str | None:
    """The Terraform-compatible binary: KIT_TF_BINARY, else terraform, else tofu, on PATH
    or built into the cache."""
    wanted = os.environ.get("KIT_TF_BINARY")
    names = [wanted] if wanted else ["terraform", "tofu"]
    for name in names:
        found = shutil.which(name) or shutil.which(name, path=str(bin_dir()))
        if found:
            return found
    return None
TOFU_VERSION = "v1.10.10"
