"""Invariants over random games for two to four players (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from draw_dominoes import ALL_TILES, DRAW, PASS, Action, Line, Match, Place, Round, record

games = st.tuples(st.integers(2, 4), st.integers(0, 2**32))


def reference_legal_actions(game: Round) -> list[Action]:
    """R5–R7 written the slow, obvious way, to check the table-driven engine against."""
    hand = game.hand(game.current_player)
    if not game.line.tiles:
        actions: list[Action] = [Place(t, None) for t in hand]
    else:
        ends = game.line.end_values
        actions = [Place(t, 0) for t in hand if ends[0] in (t.low, t.high)]
        actions += [Place(t, 1) for t in hand if ends[1] in (t.low, t.high)]
    if game.boneyard_size > 2:
        actions.append(DRAW)
    elif not actions:
        actions.append(PASS)
    return actions


@settings(max_examples=150, deadline=None)
@given(games)
def test_round_invariants(game_args: tuple[int, int]) -> None:
    players, seed = game_args
    game = Round.new(players, seed=seed)
    rng = random.Random(seed)
    bottom_two = game.boneyard[-2:]
    while not game.is_over:
        legal = game.legal_actions()
        assert legal == reference_legal_actions(game)
        # 28 tiles always accounted for, each exactly once
        held = [t for p in range(players) for t in game.hand(p)]
        assert sorted(held + list(game.boneyard) + list(game.line.tiles)) == list(ALL_TILES)
        # the last two boneyard tiles are never drawn (R2)
        assert game.boneyard_size >= 2 and game.boneyard[-2:] == bottom_two
        # pass only when R5 allows it, and then alone
        if PASS in legal:
            ends = game.line.end_values
            assert legal == [PASS] and game.boneyard_size <= 2
            assert not any(set(ends) & {t.low, t.high} for t in game.hand(game.current_player))
        before = game.current_player
        action = rng.choice(legal)
        game.apply(action)
        if action is DRAW and not game.is_over:
            assert game.current_player == before  # R6
    outcome = game.outcome
    assert outcome is not None
    if outcome.kind == "domino":
        assert game.hand(outcome.winner) == ()  # type: ignore[arg-type]
    else:
        assert [a for _, a in game.history[-players:]] == [PASS] * players  # R14
    assert outcome.points >= 0 and sum(outcome.credits) == outcome.points


@settings(max_examples=25, deadline=None)
@given(games)
def test_match_invariants_and_replay(game_args: tuple[int, int]) -> None:
    players, seed = game_args
    match = Match.new(players, seed=seed)
    rng = random.Random(seed)
    scores = match.scores
    checkpoints = {rng.randrange(400) for _ in range(3)}
    step = 0
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
        assert all(a <= b for a, b in zip(scores, match.scores, strict=True))  # R18
        scores = match.scores
        step += 1
        if step in checkpoints:
            again = record.loads(record.dumps(match))
            assert isinstance(again, Match)
            assert again.scores == match.scores
            assert again.current_round.history == match.current_round.history
            assert again.current_round.boneyard == match.current_round.boneyard
    again = record.loads(record.dumps(match))
    assert isinstance(again, Match) and again.is_over and again.winners == match.winners


@settings(max_examples=100, deadline=None)
@given(games, st.integers(1, 5))
def test_the_line_kept_up_to_date_is_the_line_built_afresh(
    game_args: tuple[int, int], every: int
) -> None:
    """The round places only new tiles on its cached line; asked for at any pace (and on
    clones), it equals the line built from all placements at once."""
    players, seed = game_args
    game = Round.new(players, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
        if steps % every == 0:
            placed = [(a.tile, a.end) for _, a in game.history if isinstance(a, Place)]
            assert game.line == Line.from_placements(placed)
            assert game.clone().line == game.line
