"""Checker parameters: defaults applied in one place, unknown or mistyped values refused."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kit.errors import InputError


class ParamError(InputError):
    """An invariant's parameters in scenario.yaml are wrong (unknown name, type, range)."""


def resolve(check_id: str, given: Mapping[str, Any] | None,
            defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The defaults overlaid with `given`; ParamError names a bad parameter and the fix."""
    given = dict(given or {})
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        valid = ", ".join(f"{k} (default {v!r})" for k, v in defaults.items()) or "none"
        raise ParamError(f"{check_id}: unknown parameter(s) {', '.join(unknown)}; valid: "
                         f"{valid}. Fix the invariant's params in scenario.yaml.")
    out = dict(defaults)
    for name, value in given.items():
        default = defaults[name]
        if isinstance(default, list | dict):
            # Structured parameters (role allowances, service lists) keep their shape.
            if not isinstance(value, type(default)):
                raise ParamError(f"{check_id}: parameter {name} is {value!r}, expected a "
                                 f"{type(default).__name__} like {default!r}.")
            out[name] = value
            continue
        if isinstance(default, bool):  # a switch (workload.workers_start's keeps_running)
            if not isinstance(value, bool):
                raise ParamError(f"{check_id}: parameter {name} is {value!r}, expected true "
                                 f"or false (default {str(default).lower()}).")
            out[name] = value
            continue
        if isinstance(default, str):  # a name (a resource such as queue.dlq)
            if not isinstance(value, str) or not value:
                raise ParamError(f"{check_id}: parameter {name} is {value!r}, expected a "
                                 f"name like {default!r}.")
            out[name] = value
            continue
        # Every other scalar parameter is a positive number: an int default wants an int (a
        # count, days), a float default takes any number (seconds). bool is not a number.
        wanted: tuple[type, ...] = (int,) if isinstance(default, int) else (int, float)
        if isinstance(value, bool) or not isinstance(value, wanted) or value <= 0:
            kind = "a positive integer" if wanted == (int,) else "a positive number"
            raise ParamError(f"{check_id}: parameter {name} is {value!r}, expected {kind} "
                             f"(default {default!r}).")
        out[name] = value
    return out
