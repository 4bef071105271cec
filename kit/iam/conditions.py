"""Condition operators with AWS semantics (IAM JSON policy elements: Condition operators).

Rules implemented here, each from the AWS documentation:
- Several operators in one Condition block, and several keys under one operator: AND.
- Several values for one key: OR; for a negated operator (StringNotEquals, NotIpAddress,
  ArnNotLike, ...) the values combine as NOR: the key must match none of them.
- A missing key makes a condition false, except a negated operator (true), `...IfExists`
  (true) and `Null` (it tests presence).
- `ForAllValues:` is true when every request value matches; also when the key is missing or
  empty. `ForAnyValue:` is true when at least one request value matches; false when the key
  is missing or empty (true with `IfExists`).
- Policy variables are substituted in String, Bool and ARN values (policy language
  2012-10-17 only); Numeric, Date, Binary, IpAddress and Null take values literally. A value
  whose variable cannot be resolved matches nothing, and fails a negated operator too.
- A key the context gives as a range (kit/iam/ranges.py: the static checks' view of a key
  the gateway sets at run time) holds only if the condition holds for every value of it.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache

from kit.iam.context import Context
from kit.iam.patterns import ANY, LIT, ONE, arn_pattern, glob, tokenize

# Base operator -> (family, negated). The family picks the comparison.
BASE_OPERATORS: dict[str, tuple[str, bool]] = {
    "StringEquals": ("string", False),
    "StringNotEquals": ("string", True),
    "StringEqualsIgnoreCase": ("string_ci", False),
    "StringNotEqualsIgnoreCase": ("string_ci", True),
    "StringLike": ("string_like", False),
    "StringNotLike": ("string_like", True),
    "NumericEquals": ("numeric_eq", False),
    "NumericNotEquals": ("numeric_eq", True),
    "NumericLessThan": ("numeric_lt", False),
    "NumericLessThanEquals": ("numeric_le", False),
    "NumericGreaterThan": ("numeric_gt", False),
    "NumericGreaterThanEquals": ("numeric_ge", False),
    "DateEquals": ("date_eq", False),
    "DateNotEquals": ("date_eq", True),
    "DateLessThan": ("date_lt", False),
    "DateLessThanEquals": ("date_le", False),
    "DateGreaterThan": ("date_gt", False),
    "DateGreaterThanEquals": ("date_ge", False),
    "Bool": ("bool", False),
    "BinaryEquals": ("binary", False),
    "IpAddress": ("ip", False),
    "NotIpAddress": ("ip", True),
    "ArnEquals": ("arn", False),
    "ArnLike": ("arn", False),
    "ArnNotEquals": ("arn", True),
    "ArnNotLike": ("arn", True),
    "Null": ("null", False),
}
_BASE_BY_LOWER = {name.lower(): name for name in BASE_OPERATORS}
SET_OPERATORS = ("ForAllValues", "ForAnyValue")
_VARIABLE_FAMILIES = {"string", "string_ci", "string_like", "bool", "arn"}


@dataclass(frozen=True, slots=True)
class Operator:
    """A parsed condition operator such as `ForAnyValue:StringLikeIfExists`."""

    name: str  # canonical spelling
    base: str
    family: str
    negated: bool
    if_exists: bool
    set_operator: str | None


@lru_cache(maxsize=1024)
def parse_operator(name: str) -> Operator:
    """Parse an operator name (case-insensitive); raise ValueError naming the valid ones."""
    rest = name
    set_operator = None
    if ":" in rest:
        prefix, rest = rest.split(":", 1)
        matches = [s for s in SET_OPERATORS if s.lower() == prefix.lower()]
        if not matches:
            raise ValueError(
                f"unknown set operator {prefix!r} in {name!r}; use ForAllValues: or ForAnyValue:"
            )
        set_operator = matches[0]
    if_exists = False
    base = _BASE_BY_LOWER.get(rest.lower())
    if base is None and rest.lower().endswith("ifexists"):
        base = _BASE_BY_LOWER.get(rest.lower()[: -len("ifexists")])
        if_exists = True
    if base is None:
        raise ValueError(
            f"unknown condition operator {name!r}; valid operators are "
            f"{', '.join(BASE_OPERATORS)} (optionally with an IfExists suffix and a "
            "ForAllValues:/ForAnyValue: prefix)"
        )
    if base == "Null" and (if_exists or set_operator):
        raise ValueError(f"{name!r}: the Null operator takes neither IfExists nor a set prefix")
    family, negated = BASE_OPERATORS[base]
    canonical = (
        (f"{set_operator}:" if set_operator else "") + base + ("IfExists" if if_exists else "")
    )
    return Operator(canonical, base, family, negated, if_exists, set_operator)


# --- value parsing -------------------------------------------------------------------------

_NUMBER_RE = re.compile(r"^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$")
_EPOCH_RE = re.compile(r"^\s*-?\d+(\.\d+)?\s*$")
_YEAR_MONTH_RE = re.compile(r"^(\d{4})(-(\d{2}))?$")


def parse_number(text: str) -> float | None:
    """Parse a Numeric operator value; None when it is not a number."""
    return float(text) if _NUMBER_RE.match(text) else None


def parse_date(text: str) -> float | None:
    """Parse a W3C ISO 8601 date/time or epoch seconds into epoch seconds; None if neither."""
    text = text.strip()
    if _EPOCH_RE.match(text):
        return float(text)
    short = _YEAR_MONTH_RE.match(text)
    if short:  # the W3C profile allows YYYY and YYYY-MM
        return datetime(int(short[1]), int(short[3] or 1), 1, tzinfo=UTC).timestamp()
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def _parse_ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def _parse_network(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    try:
        # A bare address means /32 (or /128): ip_network does exactly that.
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        return None


def _decode_base64(text: str) -> bytes | None:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None


def _substituted(text: str, variables: bool, context: Context) -> str | None:
    """Resolve policy variables in a value compared literally (no wildcards)."""
    tokens = tokenize(text, variables)
    parts = []
    for kind, token_text, default in tokens:
        if kind == LIT:
            parts.append(token_text)
        elif kind == ANY:
            parts.append("*")
        elif kind == ONE:
            parts.append("?")
        else:
            value = context.variable(token_text)
            if value is None:
                value = default
            if value is None:
                return None
            parts.append(value)
    return "".join(parts)


# --- comparisons: (request value, compiled policy value, context) -> True/False/None -------
# None means "cannot be compared" (unresolvable variable, value of the wrong type): it never
# satisfies the operator, whether the operator is negated or not.

Compare = Callable[[str, object, Context], "bool | None"]


def _cmp_string(value: str, policy: object, context: Context) -> bool | None:
    text, variables = policy  # type: ignore[misc]
    resolved = _substituted(text, variables, context)
    return None if resolved is None else value == resolved


def _cmp_string_ci(value: str, policy: object, context: Context) -> bool | None:
    text, variables = policy  # type: ignore[misc]
    resolved = _substituted(text, variables, context)
    return None if resolved is None else value.lower() == resolved.lower()


def _cmp_like(value: str, policy: object, context: Context) -> bool | None:
    regex = policy.regex_for(context.variable)  # type: ignore[attr-defined]
    return None if regex is None else regex.fullmatch(value) is not None


def _cmp_arn(value: str, policy: object, context: Context) -> bool | None:
    if policy is None:
        return None  # a malformed ARN pattern matches nothing
    regex = policy.regex_for(context.variable)  # type: ignore[attr-defined]
    return None if regex is None else regex.fullmatch(value) is not None


def _numeric(test: Callable[[float, float], bool]) -> Compare:
    def compare(value: str, policy: object, context: Context) -> bool | None:
        number = parse_number(value)
        if number is None or policy is None:
            return None
        return test(number, policy)  # type: ignore[arg-type]

    return compare


def _date(test: Callable[[float, float], bool]) -> Compare:
    def compare(value: str, policy: object, context: Context) -> bool | None:
        moment = parse_date(value)
        if moment is None or policy is None:
            return None
        return test(moment, policy)  # type: ignore[arg-type]

    return compare


def _cmp_bool(value: str, policy: object, context: Context) -> bool | None:
    text, variables = policy  # type: ignore[misc]
    resolved = _substituted(text, variables, context)
    if resolved is None or resolved.lower() not in ("true", "false"):
        return None
    if value.lower() not in ("true", "false"):
        return None
    return value.lower() == resolved.lower()


def _cmp_binary(value: str, policy: object, context: Context) -> bool | None:
    text, decoded = policy  # type: ignore[misc]
    request = _decode_base64(value)
    if decoded is not None and request is not None:
        return request == decoded
    return value == text


def _cmp_ip(value: str, policy: object, context: Context) -> bool | None:
    address = _parse_ip(value)
    if address is None or policy is None:
        return None
    if address.version != policy.version:  # type: ignore[attr-defined]
        return False
    return address in policy  # type: ignore[operator]


_COMPARES: dict[str, Compare] = {
    "string": _cmp_string,
    "string_ci": _cmp_string_ci,
    "string_like": _cmp_like,
    "numeric_eq": _numeric(lambda a, b: a == b),
    "numeric_lt": _numeric(lambda a, b: a < b),
    "numeric_le": _numeric(lambda a, b: a <= b),
    "numeric_gt": _numeric(lambda a, b: a > b),
    "numeric_ge": _numeric(lambda a, b: a >= b),
    "date_eq": _date(lambda a, b: a == b),
    "date_lt": _date(lambda a, b: a < b),
    "date_le": _date(lambda a, b: a <= b),
    "date_gt": _date(lambda a, b: a > b),
    "date_ge": _date(lambda a, b: a >= b),
    "bool": _cmp_bool,
    "binary": _cmp_binary,
    "ip": _cmp_ip,
    "arn": _cmp_arn,
}


def _compile_value(family: str, text: str, variables: bool) -> object:
    """Prepare one policy value once, at parse time."""
    variables = variables and family in _VARIABLE_FAMILIES
    if family in ("string", "string_ci", "bool"):
        return (text, variables)
    if family == "string_like":
        return glob(text, variables=variables)
    if family == "arn":
        pattern = arn_pattern(text, variables=variables)
        return None if pattern.tokens is None and not pattern.match_all else pattern
    if family.startswith("numeric"):
        return parse_number(text)
    if family.startswith("date"):
        return parse_date(text)
    if family == "binary":
        return (text, _decode_base64(text))
    if family == "ip":
        return _parse_network(text)
    return text.lower()  # null: "true" / "false"


@dataclass(frozen=True, slots=True)
class Condition:
    """One operator applied to one context key with its policy values (OR / NOR)."""

    operator: Operator
    key: str  # as written in the policy
    values: tuple[str, ...]
    variables: bool = True  # the policy language version supports policy variables
    lookup_key: str = ""
    compiled: tuple[object, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "lookup_key", self.key.lower())
        family = self.operator.family
        object.__setattr__(
            self, "compiled", tuple(_compile_value(family, v, self.variables) for v in self.values)
        )

    def _single(self, value: str, context: Context) -> bool:
        """Apply the operator to one request value: OR over policy values, NOR if negated."""
        compare = _COMPARES[self.operator.family]
        if self.operator.negated:
            return all(compare(value, policy, context) is False for policy in self.compiled)
        return any(compare(value, policy, context) is True for policy in self.compiled)

    def evaluate(self, context: Context) -> bool:
        """Say whether this condition holds for the request context (for every value of a
        key the context knows only by its range)."""
        known = context.range(self.lookup_key)
        if known is not None:
            return all(self._holds(sample, context) for sample in known.samples(self))
        return self._holds(context.get(self.lookup_key), context)

    def _holds(self, values: tuple[str, ...] | None, context: Context) -> bool:
        """Say whether this condition holds when the key has these values (None: absent)."""
        operator = self.operator
        if operator.family == "null":
            present = values is not None
            return any(
                (policy == "true") != present
                for policy in self.compiled
                if policy in ("true", "false")
            )
        if operator.set_operator == "ForAllValues":
            if values is None:
                return True
            return all(self._single(value, context) for value in values)
        if operator.set_operator == "ForAnyValue":
            if values is None:
                return operator.if_exists
            return any(self._single(value, context) for value in values)
        if values is None:
            return operator.if_exists or operator.negated
        if len(values) == 1:
            return self._single(values[0], context)
        # A multivalued key under a plain operator: AWS says to use a set operator and does
        # not document this case. Read it as "any value matches" (negated: "no value matches").
        if operator.negated:
            return all(self._single(value, context) for value in values)
        return any(self._single(value, context) for value in values)


def conditions_hold(conditions: tuple[Condition, ...], context: Context) -> bool:
    """Say whether every condition of a statement holds (AND)."""
    return all(condition.evaluate(context) for condition in conditions)
