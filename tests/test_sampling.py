"""Determinization: re-dealing what a seat cannot see, uniformly and consistently."""

from __future__ import annotations

import random
from collections import Counter
from math import comb

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import play_randomly
from draw_dominoes import ALL_TILES, VALUE_MASKS, Round, ViewSampler, sample_from_view
from draw_dominoes.round import _deal_exact


@settings(max_examples=80, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 80))
def test_samples_agree_with_everything_the_seat_has_seen(
    players: int, seed: int, steps: int
) -> None:
    game = Round.new(players, seed=seed)
    rng = random.Random(seed)
    play_randomly(game, rng, steps)
    seat = rng.randrange(players)
    sample = game.sample_hidden(seat, rng)
    assert sample.view(seat) == game.view(seat)
    held = [t for p in range(players) for t in sample.hand(p)]
    assert sorted(held + list(sample.boneyard) + list(sample.line.tiles)) == list(ALL_TILES)
    for other in range(players):
        assert sample.hand_size(other) == game.hand_size(other)
        for value in game.lacking(other):
            assert not any(value in (t.low, t.high) for t in sample.hand(other))
    # the sample is a playable round
    play_randomly(sample, rng)
    assert sample.is_over


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 80))
def test_a_prepared_sampler_draws_as_sample_from_view_does(
    players: int, seed: int, steps: int
) -> None:
    # Search bots prepare one sampler a move and draw from it thousands of times: every
    # draw must agree with the view, and drawing (and playing the drawn round on) must
    # not change what later draws give.
    game = Round.new(players, seed=seed)
    rng = random.Random(seed)
    play_randomly(game, rng, steps)
    seat = rng.randrange(players)
    view = game.view(seat)
    sampler = ViewSampler(view)
    for draw in range(3):
        sample = sampler.sample(random.Random(draw))
        again = sample_from_view(view, random.Random(draw))
        assert sample.view(seat) == view
        assert [sample.hand(p) for p in range(players)] == [again.hand(p) for p in range(players)]
        assert sample.boneyard == again.boneyard
        play_randomly(sample, rng)
        assert sample.is_over
    assert sampler.sample(random.Random(0)).view(seat) == view


def test_samples_depend_only_on_the_view() -> None:
    from test_view import swapped_twin

    a = Round.new(3, seed=12)
    b = swapped_twin(a, 2, random.Random(1))
    sa = a.sample_hidden(0, random.Random(5))
    sb = b.sample_hidden(0, random.Random(5))
    assert [sa.hand(p) for p in range(3)] == [sb.hand(p) for p in range(3)]
    assert sa.boneyard == sb.boneyard


def test_samples_are_uniform_over_consistent_deals() -> None:
    # When the boneyard is first down to its last two tiles, the opponent's hand is
    # any k of the k + 2 tiles seat 0 cannot see; nobody has passed yet.
    game = Round.new(2, seed=4, leader=0)
    rng = random.Random(4)
    while game.boneyard_size > 2:
        play_randomly(game, rng, 1)
    assert not game.is_over and game.view(0).lacking == (frozenset(), frozenset())
    view = game.view(0)
    hidden = 28 - len(view.hand) - len(view.line.tiles)
    k = view.hand_sizes[1]
    expected_count = comb(hidden, k)
    counts = Counter(sample_from_view(view, rng).hand(1) for _ in range(200 * expected_count))
    assert len(counts) == expected_count
    assert all(abs(c - 200) < 5 * 200**0.5 for c in counts.values())


def test_the_exact_sampler_is_uniform_under_tight_constraints() -> None:
    # Six hidden tiles, two hands of two (one lacking 0, one lacking 1), two in the boneyard.
    hidden = [t for t in ALL_TILES if t.low in (0, 1) and t.high <= 3 and t.high >= t.low][:6]
    forbidden = [VALUE_MASKS[0], VALUE_MASKS[1]]
    rng = random.Random(1)
    counts = Counter(tuple(_deal_exact(hidden, [2, 2], forbidden, rng)) for _ in range(6000))
    consistent = set()
    for a in range(1 << 6):
        for b in range(1 << 6):
            mask_a = sum(t.bit for i, t in enumerate(hidden) if a >> i & 1)
            mask_b = sum(t.bit for i, t in enumerate(hidden) if b >> i & 1)
            sizes_fit = (bin(a).count("1"), bin(b).count("1")) == (2, 2) and not a & b
            if sizes_fit and not mask_a & forbidden[0] and not mask_b & forbidden[1]:
                consistent.add((mask_a, mask_b))
    assert set(counts) == consistent
    mean = 6000 / len(consistent)
    assert all(abs(c - mean) < 5 * mean**0.5 for c in counts.values())
