"""The request context: condition keys and their values, looked up without regard to case.

Condition key names are case-insensitive in IAM (`aws:CurrentTime` is `AWS:currenttime`),
so keys are lower-cased once here. An empty list is the same as a missing key: AWS
documents that a key resolving to an empty data set makes ForAllValues true and
ForAnyValue false, which is exactly how a missing key behaves.

A key may be given as a Range (kit/iam/ranges.py) instead of a value: the static checks do
so for keys the gateway sets at run time with values they cannot know (the time, the
source address, an unknown principal's tags). A key written `prefix/*` gives the range to
every key of that prefix not given otherwise (`aws:PrincipalTag/*`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from kit.iam.ranges import Range

ContextValue = str | bool | int | float | Iterable[str | bool | int | float] | Range


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Context:
    """Request context keys (lower-cased) mapped to a tuple of string values."""

    __slots__ = ("_values", "_ranges", "_prefixes")

    def __init__(self, values: Mapping[str, ContextValue] | None = None) -> None:
        self._values: dict[str, tuple[str, ...]] = {}
        self._ranges: dict[str, Range] = {}
        self._prefixes: dict[str, Range] = {}
        for key, value in (values or {}).items():
            if hasattr(value, "samples"):
                self._add_range(key.lower(), value)  # type: ignore[arg-type]
                continue
            if isinstance(value, str | bool | int | float):
                normalized: tuple[str, ...] = (_text(value),)
            else:
                normalized = tuple(_text(item) for item in value)  # type: ignore[union-attr]
            if normalized:
                self._values[key.lower()] = normalized

    def _add_range(self, key: str, value: Range) -> None:
        if key.endswith("/*"):
            self._prefixes[key[:-1]] = value
            return
        self._ranges[key] = value
        if value.default is not None:
            self._values[key] = (value.default,)

    def range(self, key: str) -> Range | None:
        """The range of a lower-cased key given as one (itself or by its prefix), or None."""
        found = self._ranges.get(key)
        if found is not None or not self._prefixes or key in self._values:
            return found
        return next((r for prefix, r in self._prefixes.items() if key.startswith(prefix)),
                    None)

    def get(self, key: str) -> tuple[str, ...] | None:
        """Return the values of a lower-cased key, or None when the key is absent."""
        return self._values.get(key)

    def variable(self, key: str) -> str | None:
        """Return a single-valued key as a policy variable value; None when unresolvable."""
        # Multivalued keys cannot be used as policy variables (AWS: single-valued vs.
        # multivalued context keys), so a key with several values does not resolve.
        values = self._values.get(key)
        if values is None or len(values) != 1:
            return None
        return values[0]

    def with_defaults(self, defaults: Mapping[str, str]) -> Context:
        """Return a copy where keys absent from this context take the given values."""
        merged = Context()
        merged._values = {key.lower(): (value,) for key, value in defaults.items()
                          if key.lower() not in self._ranges}
        merged._values.update(self._values)
        merged._ranges, merged._prefixes = self._ranges, self._prefixes
        return merged

    def as_dict(self) -> dict[str, tuple[str, ...]]:
        """Return the lower-cased keys and their values."""
        return dict(self._values)
