"""Bindings: the names scenario.yaml uses for values the kit only knows at run time.

A binding is a dotted name. Its first part says where the value comes from:

| binding                     | value                                                      |
|-----------------------------|------------------------------------------------------------|
| `outputs.<name>`            | a Terraform output of the solution (listed in contract)    |
| `baseline.<name>`           | an output of the scenario's baseline (applied first)       |
| `kit.harness_arn`           | the principal that runs the producer and the workers       |
| `kit.region`, `kit.account` | the sandbox's region and account id                        |
| `workload.<param>`          | a workload parameter (workload.params)                     |
| `<kind>.<name>.<attribute>` | an attribute of a declared resource (`queue.orders.url`)   |

Resource kinds and their attributes (`resources` in scenario.yaml binds the first one of
each kind from an output, or reads it from the state by Terraform `address`:
kit/deploy/addresses.py; the others are derived by the kit):

| kind       | attributes                                                               |
|------------|--------------------------------------------------------------------------|
| `queue`    | url (declared), arn, name                                                |
| `role`     | arn (declared), name                                                     |
| `database` | instance (declared: the DB instance identifier), url (the workers' libpq |
|            | URL of the database bound to it: the instance's own server when the      |
|            | scenario has the RDS data plane), arn                                    |
| `bucket`   | name (declared), arn                                                     |
| `key`      | arn (declared)                                                           |
| `secret`   | arn (declared)                                                           |
| `topic`    | arn (declared)                                                           |
| `table`    | name (declared: a DynamoDB table), arn                                   |
| `policy`   | arn (declared: a customer managed IAM policy, e.g. a baseline boundary)  |
| `function` | arn (declared: a Lambda function), name                                  |

Besides these, `endpoint.aws` names the workers' AWS endpoint and `workers` the worker
processes: faults may target them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "queue": ("url", "arn", "name"),
    "role": ("arn", "name"),
    "database": ("instance", "url", "arn"),
    "bucket": ("name", "arn"),
    "key": ("arn",),
    "secret": ("arn",),
    "topic": ("arn",),
    "policy": ("arn",),
    "table": ("name", "arn"),
    "function": ("arn", "name"),
    "rule": ("arn",),  # an EventBridge rule
}
# The AWS services a resource kind lives in (a run of a scenario reaches each of them).
SERVICES: dict[str, tuple[str, ...]] = {
    "queue": ("sqs",), "role": ("iam", "sts"), "database": ("rds",), "bucket": ("s3",),
    "key": ("kms",), "secret": ("secretsmanager",), "topic": ("sns",),
    "table": ("dynamodb",),
    "function": ("lambda",),
    "rule": ("events",),
}
KIT_VALUES = ("harness_arn", "region", "account")
SPECIAL_TARGETS = ("endpoint.aws", "workers")


class BindingError(ValueError):
    """A binding that names nothing the scenario declares (the message says what exists)."""


def declared_attribute(kind: str) -> str:
    """The attribute of a resource kind that scenario.yaml binds to an output."""
    return ATTRIBUTES[kind][0]


def check_resource_name(name: str) -> str:
    """The kind of a resource name `<kind>.<name>`; BindingError lists the kinds."""
    kind, _, rest = name.partition(".")
    if kind not in ATTRIBUTES or not rest or "." in rest:
        raise BindingError(f"{name!r} is not `<kind>.<name>` with a kind among "
                           f"{', '.join(ATTRIBUTES)}")
    return kind


def check(binding: str, *, outputs: Iterable[str], resources: Iterable[str],
          params: Iterable[str], baseline: Iterable[str] = (),
          allowed: tuple[str, ...] = ("outputs", "baseline", "kit", "workload", "resource")
          ) -> None:
    """Raise BindingError (saying what is known) unless `binding` names something."""
    head, _, rest = binding.partition(".")
    known = {"outputs": set(outputs), "baseline": set(baseline), "kit": set(KIT_VALUES),
             "workload": set(params)}
    if head in known:
        if head not in allowed:
            raise BindingError(f"{binding!r}: {head}.* is not available here (only "
                               f"{', '.join(allowed)})")
        if rest not in known[head]:
            raise BindingError(f"unknown binding {binding!r}; {head}.* has: "
                               f"{', '.join(sorted(known[head])) or 'nothing'}")
        return
    if "resource" not in allowed:
        raise BindingError(f"{binding!r}: resources are not known yet here (only "
                           f"{', '.join(allowed)})")
    resource, _, attribute = binding.rpartition(".")
    names = set(resources)
    if resource not in names:
        raise BindingError(f"unknown binding {binding!r}; the scenario declares the "
                           f"resources {', '.join(sorted(names)) or 'none'} (and outputs.*, "
                           "baseline.*, kit.*, workload.*)")
    kind = resource.split(".", 1)[0]
    if attribute not in ATTRIBUTES[kind]:
        raise BindingError(f"unknown binding {binding!r}: a {kind} has "
                           f"{', '.join(ATTRIBUTES[kind])}")


def resolve(binding: str, values: Mapping[str, Any]) -> Any:
    """The run-time value of a checked binding, from a flat map of every known binding."""
    if binding not in values:
        raise KeyError(f"binding {binding!r} has no value in this run")
    return values[binding]
