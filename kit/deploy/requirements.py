"""Whose fault an unmet version requirement is, read from Terraform's own init diagnostic.

Two requirements a configuration states and `terraform init` checks (Terraform,
"Version Constraints": https://developer.hashicorp.com/terraform/language/expressions/version-constraints,
the same grammar for `required_providers` and `required_version`): a provider constraint
of the root or any module that no version in the kit's mirror meets ("no available
releases match the given constraints"), and a `required_version` the kit's Terraform does
not meet ("Unsupported Terraform Core version"). Terraform decides the match; this module
only names the provider and the versions and decides whose fault it is:

- `promised` (a scenario run: the prompt names the versions the kit offers, `~> 6.0` of
  hashicorp/aws): a constraint that excludes the offered version the mirror has is the
  solution's own mistake (`fail`), else any solution could reach `error` by writing one;
  the kit's `error` only when the mirror lacks its own version.
- not promised (a stack written for AWS, the fidelity bench): nothing told its author
  which versions the kit has, so a constraint the kit cannot meet is the kit's `error`
  naming what it has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kit import settings, toolchain

# Terraform wraps its diagnostics at 78 columns: the provider's name, the constraint and
# every word between may each start a new line.
_NO_MATCH = re.compile(
    r"available\s+versions\s+for\s+provider\s+(?:registry\.[a-z.]+/)?([\w-]+)/([\w-]+):"
    r"\s+no\s+available\s+releases\s+match\s+the\s+given\s+constraints\s+(.+?)\s*(?:\n\s*\n|\Z)",
    re.S)
_LOCKED = re.compile(r"locked\s+provider\s+registry\.\S+/(hashicorp)/([\w-]+)\s+(\S+)\s+does"
                     r"\s+not\s+match")
# A HashiCorp provider the mirror holds no version of at all (http, cloudinit: the module
# proxy serves no release of them and the kit has no stand-in, docs/toolchain.md).
_ABSENT = re.compile(r"provider\s+registry\.terraform\.io/hashicorp/([\w-]+)\s+was\s+not"
                     r"\s+found\s+in\s+any\s+of\s+the\s+search\s+locations")
_CORE = re.compile(r"^Error: Unsupported Terraform Core version$", re.M)
_CORE_WANTED = re.compile(r'required_version\s*=\s*"([^"]*)"')
_CORE_RUNNING = re.compile(r"does\s+not\s+support\s+Terraform\s+version\s+(\S+?)\.(?:\s|$)")
# Terraform 1.12 CHANGELOG (v1.12.0, ENHANCEMENTS): "Logical binary operators can now
# short-circuit". Before it, both operands of || and && are evaluated, so a guard such as
# `var.x == null || length(var.x) > 0` fails on the null it guards against: the
# diagnostic's source line (`  5:     condition = ... || ...`) and its "<x> is null".
_UNGUARDED = re.compile(r"^\s*\d+:.*(?:\|\||&&).*\n(?:.*\n){0,6}?\s*│?\s*\S+ is null$", re.M)


@dataclass(frozen=True)
class Unmet:
    """An unmet requirement: whose fault (`kit`) and the message naming the versions."""

    kit: bool
    message: str


def unmet(text: str, promised: bool = True) -> Unmet | None:
    """The unmet provider constraint or Terraform version in an init's diagnostics, if any."""
    return _provider(text, promised) or _absent(text, promised) or _core(text, promised)


def short_circuit(text: str) -> Unmet | None:
    """A failure Terraform 1.12+ would not have: an operand of || or && that a
    short-circuit guards was null (the kit's gap; only for a stack with no prompt, which
    could not know the kit's Terraform)."""
    if _UNGUARDED.search(text) is None:
        return None
    return Unmet(True, "the stack needs Terraform 1.12 or later: an operand of || or && "
                 "guarded by the other was null, and the kit's Terraform (before 1.12) does "
                 "not short-circuit logical operators (docs/toolchain.md)")


def _provider(text: str, promised: bool) -> Unmet | None:
    found = _NO_MATCH.search(text) or _LOCKED.search(text)
    if found is None:
        return None
    namespace, name = found.group(1).lower(), found.group(2).lower()
    constraint = " ".join(found.group(3).split()) if found.re is _NO_MATCH else ""
    specs = settings.provider_specs()
    if namespace != "hashicorp" or name not in specs:
        return None  # a provider the kit does not build: the gate's business
    have = ", ".join(toolchain.mirror_versions(name)) or "none"
    offered = specs[name]["version"]
    wanted = f" ({constraint})" if constraint else ""
    if offered not in toolchain.mirror_versions(name):
        return Unmet(True, f"the provider mirror has no hashicorp/{name} version matching "
                     f"the constraint{wanted}, nor the kit's own ({offered}); the mirror "
                     f"has: {have}")
    if promised:
        return Unmet(False, f"the solution's constraint on hashicorp/{name}{wanted} excludes "
                     f"the version the kit offers ({offered}, as the prompt says); the "
                     f"mirror has: {have}")
    return Unmet(True, f"the stack's constraint on hashicorp/{name}{wanted} excludes every "
                 f"version in the kit's provider mirror, which has: {have}")


def _absent(text: str, promised: bool) -> Unmet | None:
    """A stack written for AWS (not `promised`) that needs a HashiCorp provider the mirror
    lacks: the kit's gap, naming it. A solution's is the gate's business (its prompt names
    the providers it may use), so it stays Terraform's diagnostic."""
    names = sorted({name.lower() for name in _ABSENT.findall(text)})
    if promised or not names:
        return None
    held = ", ".join(f"hashicorp/{name}" for name in settings.provider_specs())
    return Unmet(True, f"the stack needs {', '.join(f'hashicorp/{n}' for n in names)}, which "
                 f"the kit's provider mirror does not hold (it holds {held}; the Go module "
                 "proxy serves no release of hashicorp/http or cloudinit: "
                 "docs/toolchain.md)")


def _core(text: str, promised: bool) -> Unmet | None:
    start = _CORE.search(text)
    if start is None:
        return None
    after = text[start.end():]
    wanted = _CORE_WANTED.search(after)
    running = _CORE_RUNNING.search(after)
    constraint = f" ({wanted.group(1)})" if wanted else ""
    version = running.group(1) if running else "unknown"
    if promised:
        return Unmet(False, f"the solution's required_version{constraint} excludes the "
                     f"Terraform the kit runs ({version})")
    return Unmet(True, f"the stack needs another Terraform{constraint}: the kit runs "
                 f"Terraform {version} (docs/toolchain.md)")
