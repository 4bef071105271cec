"""Context keys known only by their range: judging a condition for every value it may take.

A static check cannot know the time of a later call, the address it will come from, or the
tags of a principal it has never seen; the kit's gateway (kit/gateway/authz.py) sets them
at run time. Such a key is given to the Context as a Range, and a condition on it holds
statically only when it holds for every value of the range (and for its absence, where
the key may be absent): a condition anyone satisfies at any time is no restriction, one
that fails for some value is one.

"For every value" is decided on finitely many samples. The truth of an operator over one
key changes only at the policy's own values (a date, a number, a network's ends, a string
or pattern), so each range samples its ends plus the points just around the policy values
that fall inside it: every stretch where the answer is constant then holds a sample.
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from kit.iam.conditions import Condition

Sample = tuple[str, ...] | None  # the key's values in one request; None: the key is absent
OTHER_VALUE = "kit-any-value"  # a value no policy names
LAST_MOMENT = 253402300799  # 9999-12-31T23:59:59Z: ISO 8601 dates end there


class Range(Protocol):
    """The values a context key may take in a request the static check cannot see."""

    @property
    def default(self) -> str | None:
        """The value a policy variable `${key}` resolves to (None: unresolvable)."""

    def samples(self, condition: Condition) -> list[Sample]:
        """Values of the key that together decide `condition` for the whole range."""


@dataclass(frozen=True, slots=True)
class TimeRange:
    """aws:CurrentTime (ISO 8601, seconds) or aws:EpochTime (integer seconds) between
    `since` and `until`: the gateway stamps each request of the run with its clock."""

    since: float
    until: float
    epoch: bool = False  # aws:EpochTime's spelling

    @property
    def default(self) -> str | None:
        """The time at `since`."""
        return self._text(self.since)

    def _text(self, moment: float) -> str:
        if self.epoch:
            return str(int(moment))
        return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    def samples(self, condition: Condition) -> list[Sample]:
        """Both ends, and the seconds around each policy date or number between them."""
        start, end = math.floor(self.since), min(math.ceil(self.until), LAST_MOMENT)
        moments = {start, max(start, end)}
        for value in condition.compiled:
            if isinstance(value, float) and math.isfinite(value):
                whole = math.floor(value)
                moments |= {m for m in (whole - 1, whole, whole + 1) if start <= m <= end}
        return [(self._text(m),) for m in sorted(moments)]


@dataclass(frozen=True, slots=True)
class AddressRange:
    """aws:SourceIp: any address of `network` (the gateway listens on loopback only, and a
    client may connect from any loopback address)."""

    network: str = "127.0.0.0/8"
    usual: str = "127.0.0.1"  # the address an SDK connects from

    @property
    def default(self) -> str | None:
        """The usual address."""
        return self.usual

    def samples(self, condition: Condition) -> list[Sample]:
        """The range's first and last host, and the ends of each policy network (and the
        addresses just outside them) that fall inside it."""
        net = ipaddress.ip_network(self.network)
        first, last = int(net.network_address) + 1, int(net.broadcast_address) - 1
        points = {first, last, int(ipaddress.ip_address(self.usual))}
        for value in condition.compiled:
            if isinstance(value, ipaddress.IPv4Network | ipaddress.IPv6Network) \
                    and value.version == net.version:
                low, high = int(value.network_address), int(value.broadcast_address)
                points |= {low - 1, low, high, high + 1}
        for text in condition.values:  # string operators on the address
            try:
                points.add(int(ipaddress.ip_address(text.strip())))
            except ValueError:
                continue
        make = ipaddress.ip_address
        return [(str(make(p)),) for p in sorted(points) if first <= p <= last
                and make(p).version == net.version]


@dataclass(frozen=True, slots=True)
class OpenRange:
    """Any string, or no value at all: e.g. aws:PrincipalTag/* of a principal the kit does
    not know, who may tag itself as it likes or not at all."""

    @property
    def default(self) -> str | None:
        """Unresolvable: the value is not known."""
        return None

    def samples(self, condition: Condition) -> list[Sample]:
        """Absent, empty, a value no policy names, and each policy value (a pattern's
        shortest match, too)."""
        values: set[str] = {"", OTHER_VALUE, "true", "false"}
        for text in condition.values:
            values |= {text, text.replace("*", "").replace("?", "x"),
                       text.replace("*", OTHER_VALUE).replace("?", "x")}
        return [None, *((v,) for v in sorted(values))]


@dataclass(frozen=True, slots=True)
class PrefixedRange:
    """Any string that starts with `prefix`, always present: aws:userid of a role session
    is the role's unique id, a colon and a session name its caller chose."""

    prefix: str = ""

    @property
    def default(self) -> str | None:
        """Unresolvable: the session name is not known."""
        return None

    def samples(self, condition: Condition) -> list[Sample]:
        """The prefix with an empty, an unnamed and each policy value's suffix."""
        suffixes: set[str] = {"", OTHER_VALUE}
        for text in condition.values:
            for shaped in (text, text.replace("*", "").replace("?", "x"),
                           text.replace("*", OTHER_VALUE).replace("?", "x")):
                if shaped.startswith(self.prefix):
                    suffixes.add(shaped[len(self.prefix):])
        return [(self.prefix + suffix,) for suffix in sorted(suffixes)]
