"""Budgets per client address: when the next token comes, refusals that say when to come
back, and which addresses count as one."""

from __future__ import annotations

import pickle

import pytest

from draw_dominoes.i18n import LANGUAGES
from draw_dominoes.web.limits import (
    API_GETS,
    HINTS,
    AddressBuckets,
    Budget,
    RateLimiter,
    Refused,
    address_key,
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_says_when_its_next_token_comes() -> None:
    clock = Clock()
    bucket = RateLimiter(rate=2.0, burst=2.0, clock=clock)
    assert bucket.retry_after() == 0.0
    assert bucket.allow() and bucket.allow() and not bucket.allow()
    assert bucket.retry_after() == pytest.approx(0.5)
    clock.now += 0.4
    assert bucket.retry_after() == pytest.approx(0.1)
    clock.now += 0.1
    assert bucket.retry_after() == 0.0 and bucket.allow()


def test_an_address_out_of_tokens_is_refused_with_the_seconds_to_wait() -> None:
    clock = Clock()
    buckets = Budget(rate=0.25, burst=2.0).buckets(clock)
    assert isinstance(buckets, AddressBuckets)
    assert buckets.retry_after("10.0.0.1") == 0.0  # never seen: nothing to wait for
    buckets.take("10.0.0.1")
    buckets.take("10.0.0.1")
    with pytest.raises(Refused) as refused:
        buckets.take("10.0.0.1")
    assert (refused.value.code, refused.value.status, refused.value.retry_after) == (
        "rate_limited",
        429,
        4,
    )
    buckets.take("10.0.0.2")  # another address has its own budget
    clock.now += 4
    buckets.take("10.0.0.1")


def test_a_refusal_rounds_its_wait_up_to_whole_seconds_and_says_why() -> None:
    assert Refused("review_queue_full", 0.2, 503).retry_after == 1
    assert Refused("review_queue_full", 41.01, 503).retry_after == 42
    refused = Refused("review_queue_full", 30, 503)
    assert refused.values == {"seconds": 30}
    for lang in LANGUAGES:
        assert "30" in refused.message(lang)
    no_estimate = Refused("hint_address_busy")
    assert no_estimate.retry_after is None and no_estimate.values == {}
    assert {no_estimate.message(lang) for lang in LANGUAGES} != {""}
    copy = pickle.loads(pickle.dumps(refused))
    assert (copy.code, copy.retry_after, copy.status) == ("review_queue_full", 30, 503)


def test_the_default_budgets_allow_people_and_not_floods() -> None:
    clock = Clock()
    gets = API_GETS.buckets(clock)
    allowed = sum(gets.allow("a") for _ in range(1000))  # 1000 requests at once
    assert allowed == API_GETS.burst
    hints = HINTS.buckets(clock)
    asked = 0
    for _ in range(60):  # one hint asked every second for a minute
        asked += hints.allow("a")
        clock.now += 1
    assert HINTS.burst <= asked <= HINTS.burst + 60 * HINTS.rate + 1


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("127.0.0.1", "127.0.0.1"),
        ("127.0.0.2", "127.0.0.2"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:10.0.0.1", "10.0.0.1"),
        ("testclient", "testclient"),
        ("?", "?"),
    ],
)
def test_ipv6_addresses_count_by_their_network(address: str, key: str) -> None:
    assert address_key(address) == key
