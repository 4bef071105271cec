"""Unmet version requirements at init, on the exact text Terraform 1.11.4 printed (-no-color,
not a terminal: wrapped at 78 columns). Terraform, "Version Constraints":
https://developer.hashicorp.com/terraform/language/expressions/version-constraints"""

from __future__ import annotations

from pathlib import Path

import pytest

from kit import toolchain
from kit.deploy import requirements
from kit.deploy.command import Completed
from kit.deploy.terraform import DeployFailure, EnvironmentFailure, classify

# The provider's name wrapped onto the next line, the constraint over two lines, and an
# earlier provider (hashicorp/aws) installed in the same output.
WRAPPED = """Initializing provider plugins...
- Finding hashicorp/aws versions matching ">= 5.0.0"...
- Finding hashicorp/random versions matching ">= 2.0.0, != 2.1.0, < 3.0.0"...
- Installing hashicorp/aws v6.48.0...
- Installed hashicorp/aws v6.48.0 (unauthenticated)

Error: Failed to query available provider packages

Could not retrieve the list of available versions for provider
hashicorp/random: no available releases match the given constraints >= 2.0.0,
!= 2.1.0, < 3.0.0

To see which modules are currently depending on hashicorp/random and what
versions are specified, run the following command:
    terraform providers
"""
# The stack: `hashicorp/aws < 6.0` (a module's constraint merges into the same line).
OLD_AWS = """Initializing provider plugins...
- Finding hashicorp/aws versions matching "< 6.0.0"...

Error: Failed to query available provider packages

Could not retrieve the list of available versions for provider hashicorp/aws:
no available releases match the given constraints < 6.0.0
"""
CORE = """Initializing modules...
- m in m

Error: Unsupported Terraform Core version

  on main.tf line 2, in terraform:
   2:   required_version = ">= 1.12.0"

This configuration does not support Terraform version 1.11.4. To proceed,
either choose another supported Terraform version or update this version
constraint. Version constraints are normally set for good reason, so updating
the constraint may lead to other errors or unexpected behavior.
"""
# Terraform 1.11.4's plan of `var.x == null || length(var.x) > 0` with x null.
UNGUARDED = """Planning failed. Terraform encountered an error while generating this plan.


Error: Invalid function argument

  on main.tf line 5, in variable "x":
   5:     condition     = var.x == null || length(var.x) > 0
    ├────────────────
    │ while calling length(value)
    │ var.x is null

Invalid value for "value" parameter: argument must not be null.
"""


@pytest.fixture(autouse=True)
def mirror(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KIT_CACHE", str(tmp_path))
    for name, version in (("aws", "6.48.0"), ("random", "3.9.0"), ("time", "0.14.2")):
        path = toolchain.provider_path(name, version)
        path.parent.mkdir(parents=True)
        path.write_text("")
    return tmp_path


def _init_failed(text: str) -> Completed:
    return Completed(("terraform", "init"), 1, "", text)


def test_a_wrapped_provider_name_is_read_whole_with_its_whole_constraint() -> None:
    found = requirements.unmet(WRAPPED)
    assert found is not None and not found.kit
    assert "hashicorp/random (>= 2.0.0, != 2.1.0, < 3.0.0)" in found.message
    assert "3.9.0" in found.message and "hashicorp/aws" not in found.message


def test_a_stack_excluding_the_mirror_is_the_kits_error_naming_the_mirrors_version() -> None:
    failure = classify("init", _init_failed(OLD_AWS), promised=False)
    assert isinstance(failure, EnvironmentFailure)
    assert "hashicorp/aws (< 6.0.0)" in failure.reason and "has: 6.48.0" in failure.reason


def test_a_solution_excluding_the_prompts_version_is_its_own_fail() -> None:
    # The prompt says `~> 6.0`: a solution asking for < 6.0 must not reach `error`.
    failure = classify("init", _init_failed(OLD_AWS))
    assert isinstance(failure, DeployFailure)
    assert "6.48.0, as the prompt says" in str(failure)


def test_a_required_version_the_kits_terraform_does_not_meet() -> None:
    bench = classify("init", _init_failed(CORE), promised=False)
    assert isinstance(bench, EnvironmentFailure)
    assert "(>= 1.12.0)" in bench.reason and "Terraform 1.11.4" in bench.reason
    assert isinstance(classify("init", _init_failed(CORE)), DeployFailure)


def test_only_inits_diagnostics_and_the_kits_providers_count() -> None:
    # At apply the text may be the solution's own; a provider the kit does not build is
    # the gate's business.
    assert isinstance(classify("apply", _init_failed(OLD_AWS), promised=False), DeployFailure)
    other = OLD_AWS.replace("hashicorp/aws", "cloudposse/awsutils")
    assert requirements.unmet(other) is None
    assert requirements.unmet("Error: Unclosed configuration block") is None


def test_a_guard_terraform_1_12_would_short_circuit_is_the_kits_without_a_prompt() -> None:
    failure = classify("apply", _init_failed(UNGUARDED), promised=False)
    assert isinstance(failure, EnvironmentFailure) and "1.12" in failure.reason
    # A scenario's solution is judged by the kit's Terraform; and no || on the line: its own.
    assert isinstance(classify("apply", _init_failed(UNGUARDED)), DeployFailure)
    plain = UNGUARDED.replace("var.x == null || ", "")
    assert isinstance(classify("apply", _init_failed(plain), promised=False), DeployFailure)


# Terraform 1.11.4's init of a stack needing null, time and archive against the kit's
# mirror (time installed; null and archive absent; archive's name wrapped).
ABSENT = """- Finding latest version of hashicorp/null...
- Finding latest version of hashicorp/time...
- Finding hashicorp/archive versions matching "~> 2.4"...
- Installing hashicorp/time v0.14.2...
- Installed hashicorp/time v0.14.2 (unauthenticated)

Error: Failed to query available provider packages

Could not retrieve the list of available versions for provider
hashicorp/null: provider registry.terraform.io/hashicorp/null was not found
in any of the search locations

  - /root/.cache/kit/mirror

Error: Failed to query available provider packages

Could not retrieve the list of available versions for provider
hashicorp/archive: provider registry.terraform.io/hashicorp/archive was not
found in any of the search locations

  - /root/.cache/kit/mirror
"""


def test_a_stack_needing_a_provider_the_mirror_lacks_is_the_kits_error_naming_it() -> None:
    failure = classify("init", _init_failed(ABSENT), promised=False)
    assert isinstance(failure, EnvironmentFailure)
    assert failure.reason.startswith("the stack needs hashicorp/archive, hashicorp/null, "
                                     "which the kit's provider mirror does not hold")
    assert "hashicorp/time" in failure.reason  # what it holds
    # A solution's providers are the gate's business (its prompt lists them): its own.
    assert isinstance(classify("init", _init_failed(ABSENT)), DeployFailure)
