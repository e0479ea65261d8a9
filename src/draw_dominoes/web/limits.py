"""Rate limits for clients: token buckets per connection and per address, and flood cut-off."""

from __future__ import annotations

import collections
import time
from collections.abc import Callable

__all__ = ["AddressBuckets", "FloodWindow", "RateLimiter"]


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
