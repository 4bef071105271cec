"""moto's other services beside LocalStack: an EC2 resource of LocalStack's that they cannot
use is the kit's error naming the split, never the solution's.

Besides RDS (kit/sandbox/localstack_split.py), moto serves ELB, ELBv2, Auto Scaling, ECS and
ElastiCache when LocalStack is the primary emulator. They are built into moto's own EC2
(Auto Scaling launches instances in it, ECS makes network interfaces, ELB creates security
groups), so a lookup on LocalStack cannot stand in for it. What the kit keeps is the blame
rule: when one of them looks up a subnet, VPC, security group or launch template that moto's
EC2 lacks, the kit asks LocalStack; if LocalStack holds it, the request is answered with
KitEmulatorFailure naming the split (kit/sandbox/fidelity/errors.py: the kit's `error`); if
LocalStack lacks it too, moto's own answer stands (an id that exists nowhere is the
solution's mistake, so a solution cannot reach `error` with a made-up id).

moto internals touched: moto.ec2.models.EC2Backend.get_subnet, EC2Backend.describe_subnets,
EC2Backend.get_vpc, EC2Backend.get_security_group_from_id,
EC2Backend.describe_security_groups, EC2Backend.get_launch_template,
EC2Backend.get_launch_template_by_name, EC2Backend.account_id, EC2Backend.region_name,
ServiceException.code, _RESTError.error_type (the AWS code of moto's errors).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kit.sandbox.localstack_split import Peer, SplitLookupError, not_found

# The moto backend apps (as moto names them) whose EC2 lookups are watched.
SERVICES = ("autoscaling", "ecs", "elasticache", "elb", "elbv2")
# EC2Backend method -> (what it looks up, the EC2 action and its parameter that ask
# LocalStack, the keyword argument of the ids when there are several).
LOOKUPS: dict[str, tuple[str, str, str, str | None]] = {
    "get_subnet": ("subnet", "describe_subnets", "SubnetIds", None),
    "describe_subnets": ("subnets", "describe_subnets", "SubnetIds", "subnet_ids"),
    "get_vpc": ("VPC", "describe_vpcs", "VpcIds", None),
    "get_security_group_from_id": ("security group", "describe_security_groups", "GroupIds",
                                   None),
    "describe_security_groups": ("security groups", "describe_security_groups", "GroupIds",
                                 "group_ids"),
    "get_launch_template": ("launch template", "describe_launch_templates",
                            "LaunchTemplateIds", None),
    "get_launch_template_by_name": ("launch template", "describe_launch_templates",
                                    "LaunchTemplateNames", None),
}


def _ids(args: tuple[Any, ...], kwargs: dict[str, Any], keyword: str | None) -> list[str]:
    """The ids a lookup was given."""
    if keyword is None:
        return [str(args[0])] if args else []
    given = kwargs.get(keyword, args[0] if args else None)
    return [str(i) for i in given or []]


def _held_by_the_peer(peer: Peer, backend: Any, method: str, ids: list[str]) -> None:
    """Raise SplitLookupError when LocalStack holds what moto's EC2 lacks."""
    what, action, parameter, _ = LOOKUPS[method]
    if not ids:
        return
    answer = peer.call("ec2", backend.account_id, backend.region_name, action,
                       f"{what} {', '.join(ids)}", **{parameter: ids})
    if answer is None or not any(isinstance(v, list) and v for v in answer.values()):
        return
    raise SplitLookupError(
        f"the LocalStack split: LocalStack (which serves EC2) holds the {what} "
        f"{', '.join(ids)}, and the service moto serves beside it (autoscaling, ecs, "
        "elasticache, elb, elbv2) looks in moto's own EC2; the kit's gap, not the solution's")


def _watched(peer: Peer, method: str, original: Callable[..., Any]) -> Callable[..., Any]:
    """`original`, which asks LocalStack before it answers that an id does not exist."""
    keyword = LOOKUPS[method][3]

    def lookup(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            found = original(self, *args, **kwargs)
        except Exception as exc:
            # moto's errors carry the AWS code as `code` (ServiceException) or `error_type`.
            code = getattr(exc, "code", None) or getattr(exc, "error_type", "")
            if isinstance(code, str) and not_found(code):
                _held_by_the_peer(peer, self, method, _ids(args, kwargs, keyword))
            raise
        if found is None:  # get_security_group_from_id answers None for an unknown id
            _held_by_the_peer(peer, self, method, _ids(args, kwargs, keyword))
        return found

    lookup._kit_split = True  # type: ignore[attr-defined]
    return lookup


def lookups_name_the_split(url: str) -> None:
    """moto's EC2 lookups, made for the other services moto serves, name the split when
    LocalStack (at `url`) holds what they look up."""
    from moto.ec2.models import EC2Backend

    if getattr(EC2Backend.get_subnet, "_kit_split", False):
        return
    peer = Peer(url)
    for method in LOOKUPS:
        setattr(EC2Backend, method, _watched(peer, method, getattr(EC2Backend, method)))
