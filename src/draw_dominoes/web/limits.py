"""Rate limits for clients: token buckets per connection and per address, flood cut-off,
and the budgets that share the server's CPU fairly between addresses.

Every bucket here lives in the memory of one server process: with several processes
behind one address (or one database), each keeps its own, so an address may use each
budget once per process. The operator's proxy (``limit_req`` in nginx) is the place for
a limit across processes.
"""

from __future__ import annotations

import collections
import ipaddress
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ..i18n import translate

__all__ = [
    "API_GETS",
    "HINTS",
    "AddressBuckets",
    "Budget",
    "FloodWindow",
    "RateLimiter",
    "Refused",
    "address_key",
]


class Refused(Exception):
    """A request refused so that others get their share: ``code`` names the
    ``web.error_<code>`` message, ``status`` the HTTP status a route answers with, and
    ``retry_after`` the whole seconds after which asking again may succeed (the
    ``Retry-After`` header; ``None``: no estimate)."""

    def __init__(self, code: str, retry_after: float | None = None, status: int = 429) -> None:
        super().__init__(code)
        self.code = code
        self.status = status
        self.retry_after = None if retry_after is None else max(1, math.ceil(retry_after))

    @property
    def values(self) -> dict[str, int]:
        """What the message's template may name (``{seconds}``)."""
        return {} if self.retry_after is None else {"seconds": self.retry_after}

    def message(self, lang: str) -> str:
        return translate(f"web.error_{self.code}", lang, **self.values)

    def __reduce__(self) -> tuple[type[Refused], tuple[str, int | None, int]]:
        return (type(self), (self.code, self.retry_after, self.status))


def address_key(address: str) -> str:
    """The key a client address is limited by: an IPv4 address itself, an IPv6 address by
    its /64 network (one subscriber usually holds a whole /64 and may use any address in
    it); anything else (a test client's name, ``?``) as it is."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        mapped = parsed.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


class RateLimiter:
    """A token bucket: ``rate`` events a second, bursts up to ``burst``.

    ``clock`` gives the time in seconds (``time.monotonic`` unless a test brings its own).
    """

    def __init__(
        self,
        rate: float = 15.0,
        burst: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst = rate, burst
        self.clock = clock
        self.tokens = burst
        self.stamp = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def empty(self) -> bool:
        """No token left now (without taking one)."""
        return self.tokens + (self.clock() - self.stamp) * self.rate < 1

    def full(self) -> bool:
        """Refilled to its burst: a bucket that may be forgotten without giving anything away."""
        return self.tokens + (self.clock() - self.stamp) * self.rate >= self.burst

    def retry_after(self) -> float:
        """Seconds until a token is there (0 if one is there now)."""
        missing = 1 - (self.tokens + (self.clock() - self.stamp) * self.rate)
        if missing <= 0:
            return 0.0
        return math.inf if self.rate <= 0 else missing / self.rate


class AddressBuckets:
    """One token bucket per client address, so many connections from one place share a limit.

    Full buckets are forgotten now and then, so the table stays as small as the set of
    recently busy addresses.
    """

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.buckets: dict[str, RateLimiter] = {}
        self._checks = 0

    def allow(self, address: str) -> bool:
        bucket = self.buckets.get(address)
        if bucket is None:
            bucket = self.buckets[address] = RateLimiter(self.rate, self.burst, self.clock)
        self._checks += 1
        if self._checks % 1024 == 0:
            self.buckets = {a: b for a, b in self.buckets.items() if not b.full() or a == address}
        return bucket.allow()

    def empty(self, address: str) -> bool:
        """The address has used up its tokens (asking takes none)."""
        bucket = self.buckets.get(address)
        return bucket is not None and bucket.empty()

    def retry_after(self, address: str) -> float:
        """Seconds until the address has a token again (0: it has one now)."""
        bucket = self.buckets.get(address)
        return 0.0 if bucket is None else bucket.retry_after()

    def take(self, address: str, code: str = "rate_limited") -> None:
        """Take a token for the address, or raise ``Refused(code)`` (HTTP 429) with the
        seconds until the next token."""
        if not self.allow(address):
            raise Refused(code, self.retry_after(address), 429)


@dataclass(frozen=True)
class Budget:
    """How often one address may do something: ``rate`` a second on average, ``burst``
    at once after a quiet spell."""

    rate: float
    burst: float

    def buckets(self, clock: Callable[[], float] = time.monotonic) -> AddressBuckets:
        """Fresh buckets for this budget, one per address (per process)."""
        return AddressBuckets(self.rate, self.burst, clock)


API_GETS: Final = Budget(rate=20.0, burst=60.0)
"""``GET /api/...`` requests per address: a replay page stepping through a match with a
key held down stays well inside; forty connections repeating a request do not."""
HINTS: Final = Budget(rate=0.25, burst=8.0)
"""Hints per address (15 a minute, 8 at once): each costs up to ``advice.HINT_SECONDS``
of a worker; a few people behind one address asking every turn stay inside."""


class FloodWindow:
    """Counts refusals in a sliding window: a client refused ``limit`` times within
    ``seconds`` is flooding and gets disconnected, however its tokens refill."""

    def __init__(
        self, limit: int = 50, seconds: float = 10.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit, self.seconds, self.clock = limit, seconds, clock
        self.refusals: collections.deque[float] = collections.deque()

    def refused(self) -> bool:
        """Note one refusal; True when the client has now been refused too often."""
        now = self.clock()
        self.refusals.append(now)
        while self.refusals and self.refusals[0] < now - self.seconds:
            self.refusals.popleft()
        return len(self.refusals) >= self.limit
