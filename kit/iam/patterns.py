"""IAM string patterns: `*` and `?` wildcards, policy variables, ARN-segment matching.

Every pattern is tokenized and compiled once (lru_cache) because the evaluator runs on every
request of an HTTP gateway. A substituted variable value is always literal text: `${*}`
stands for a real asterisk, and a user name containing `*` is not a wildcard.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

# Token kinds. A token is (kind, text, default): text is the literal text for LIT and the
# lower-cased context key for VAR; default is a VAR's `${key, 'default'}` value or None.
LIT, ANY, ONE, VAR = "lit", "any", "one", "var"
Token = tuple[str, str, str | None]

# Looks a policy variable up in the request context: lower-cased key -> value or None.
Lookup = Callable[[str], "str | None"]

_SPECIAL_VARIABLES = {"*": "*", "?": "?", "$": "$"}
_DEFAULT_RE = re.compile(r"^\s*(?P<key>[^,]+?)\s*,\s*'(?P<default>[^']*)'\s*$")


@lru_cache(maxsize=16384)
def tokenize(text: str, variables: bool) -> tuple[Token, ...]:
    """Split a policy string into literal, wildcard and variable tokens."""
    tokens: list[Token] = []
    literal: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "*" or ch == "?":
            if literal:
                tokens.append((LIT, "".join(literal), None))
                literal = []
            tokens.append((ANY if ch == "*" else ONE, ch, None))
            i += 1
            continue
        # Policy variables exist only in policy language 2012-10-17; earlier versions read
        # `${...}` as literal text (IAM policy elements: Variables and tags).
        if variables and ch == "$" and text.startswith("${", i):
            end = text.find("}", i + 2)
            if end != -1:
                inner = text[i + 2 : end]
                if inner in _SPECIAL_VARIABLES:
                    literal.append(_SPECIAL_VARIABLES[inner])
                else:
                    if literal:
                        tokens.append((LIT, "".join(literal), None))
                        literal = []
                    found = _DEFAULT_RE.match(inner)
                    if found:
                        tokens.append((VAR, found["key"].lower(), found["default"]))
                    else:
                        tokens.append((VAR, inner.strip().lower(), None))
                i = end + 1
                continue
        literal.append(ch)
        i += 1
    if literal:
        tokens.append((LIT, "".join(literal), None))
    return tuple(tokens)


@lru_cache(maxsize=16384)
def _compile(source: str, flags: int) -> re.Pattern[str]:
    return re.compile(source, flags)


def _source(
    tokens: tuple[Token, ...], lookup: Lookup | None, any_re: str, one_re: str
) -> str | None:
    parts: list[str] = []
    for kind, text, default in tokens:
        if kind == LIT:
            parts.append(re.escape(text))
        elif kind == ANY:
            parts.append(any_re)
        elif kind == ONE:
            parts.append(one_re)
        else:
            value = lookup(text) if lookup is not None else None
            if value is None:
                value = default
            if value is None:
                return None  # an unresolvable variable: this value cannot match anything
            parts.append(re.escape(value))
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class Glob:
    """A whole-string wildcard pattern (StringLike, Action, Principal-free strings)."""

    text: str
    tokens: tuple[Token, ...]
    flags: int
    exact: str | None  # the literal to compare with when there are no wildcards or variables
    regex: re.Pattern[str] | None  # precompiled when there are no variables

    def regex_for(self, lookup: Lookup | None) -> re.Pattern[str] | None:
        """Return the compiled pattern after variable substitution, or None if unresolvable."""
        if self.regex is not None:
            return self.regex
        source = _source(self.tokens, lookup, ".*", ".")
        return None if source is None else _compile(source, self.flags)

    def matches(self, value: str, lookup: Lookup | None = None) -> bool:
        """Say whether value matches the whole pattern."""
        if self.exact is not None:
            if self.flags & re.IGNORECASE:
                return value.lower() == self.exact
            return value == self.exact
        regex = self.regex_for(lookup)
        return regex is not None and regex.fullmatch(value) is not None


@lru_cache(maxsize=16384)
def glob(text: str, *, variables: bool = False, ignore_case: bool = False) -> Glob:
    """Compile a wildcard pattern matched against a whole string."""
    tokens = tokenize(text, variables)
    flags = re.DOTALL | (re.IGNORECASE if ignore_case else 0)
    if all(kind == LIT for kind, _, _ in tokens):
        literal = "".join(text for _, text, _ in tokens)
        return Glob(text, tokens, flags, literal.lower() if ignore_case else literal, None)
    if any(kind == VAR for kind, _, _ in tokens):
        return Glob(text, tokens, flags, None, None)
    return Glob(text, tokens, flags, None, _compile(_source(tokens, None, ".*", ".") or "", flags))


def _split_segments(tokens: tuple[Token, ...]) -> list[list[Token]]:
    """Split tokens on the literal colons that separate ARN segments (not inside variables)."""
    segments: list[list[Token]] = [[]]
    for token in tokens:
        if token[0] != LIT or ":" not in token[1]:
            segments[-1].append(token)
            continue
        pieces = token[1].split(":")
        for index, piece in enumerate(pieces):
            if index:
                segments.append([])
            if piece:
                segments[-1].append((LIT, piece, None))
    return segments


@dataclass(frozen=True, slots=True)
class ArnPattern:
    """An ARN pattern matched segment by segment, as ArnLike and the Resource element do.

    A wildcard in the partition, service, region or account segment stays inside its
    segment; in the resource segment (everything after the fifth colon) it may span colons
    and slashes. A pattern with fewer than six segments never matches, except `*` alone and
    a short pattern ending in `*` (its missing segments are read as `*`).
    """

    text: str
    tokens: tuple[Token, ...] | None  # None: the pattern can never match
    match_all: bool
    regex: re.Pattern[str] | None

    def regex_for(self, lookup: Lookup | None) -> re.Pattern[str] | None:
        """Return the compiled pattern after variable substitution, or None if unresolvable."""
        if self.regex is not None or self.tokens is None:
            return self.regex
        return _arn_regex(self.tokens, lookup)

    def matches(self, value: str, lookup: Lookup | None = None) -> bool:
        """Say whether the ARN value matches this pattern."""
        if self.match_all:
            return True
        regex = self.regex_for(lookup)
        return regex is not None and regex.fullmatch(value) is not None


def _arn_regex(tokens: tuple[Token, ...], lookup: Lookup | None) -> re.Pattern[str] | None:
    segments = _split_segments(tokens)
    head = segments[:5]
    # Everything after the fifth colon is the resource segment, colons included.
    resource: list[Token] = []
    for index, segment in enumerate(segments[5:]):
        if index:
            resource.append((LIT, ":", None))
        resource.extend(segment)
    parts = []
    for segment in head:
        source = _source(tuple(segment), lookup, "[^:]*", "[^:]")
        if source is None:
            return None
        parts.append(source)
    source = _source(tuple(resource), lookup, ".*", ".")
    if source is None:
        return None
    parts.append(source)
    return _compile(":".join(parts), re.DOTALL)


@lru_cache(maxsize=16384)
def arn_pattern(text: str, *, variables: bool = False, pad_short: bool = False) -> ArnPattern:
    """Compile an ARN pattern (Resource element, ArnLike, ArnEquals)."""
    if text == "*":
        return ArnPattern(text, None, True, None)
    tokens = tokenize(text, variables)
    segments = _split_segments(tokens)
    if len(segments) < 6:
        # A short pattern such as `arn:aws:sqs:*` reads as `arn:aws:sqs:*:*:*` in the Resource
        # element; for ArnLike (pad_short False) it is malformed and matches nothing.
        ends_with_any = bool(tokens) and tokens[-1][0] == ANY
        if not (pad_short and ends_with_any):
            return ArnPattern(text, None, False, None)
        tokens = tokens + ((LIT, ":", None), (ANY, "*", None)) * (6 - len(segments))
    if any(kind == VAR for kind, _, _ in tokens):
        return ArnPattern(text, tokens, False, None)
    return ArnPattern(text, tokens, False, _arn_regex(tokens, None))


def has_wildcard(text: str) -> bool:
    """Say whether text holds an IAM wildcard."""
    return "*" in text or "?" in text
