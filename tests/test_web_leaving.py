"""Resigning, leaving a rated match, abandoning and taking back at a web table (W1–W7 in
docs/web.md): the state machine, both stores, and what the state message says."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from draw_dominoes import Draw, parse_action
from draw_dominoes.web import present
from draw_dominoes.web.stores import open_store
from draw_dominoes.web.stores.base import DropActions, Store, hash_token
from draw_dominoes.web.table import (
    AskBot,
    TableState,
    Timing,
    Transition,
    UserError,
    due,
    new_table,
    parse,
    step,
)
from draw_dominoes.web.table import intents as i
from draw_dominoes.web.table.stored import from_row, replay

NOW = 1_000_000.0
TIMING = Timing(round_pause=0.0, away_seconds=60.0, host_grace=10.0)


def run(state: TableState, intent: i.Intent, seat: int | None, now: float = NOW) -> Transition:
    return step(state, intent, seat, now, fresh=4242)


def lobby(
    players: int, bots: dict[str, str] | None = None, *, rated: bool = False, seed: int = 7
) -> TableState:
    """Ann's new table, the given seats bots, the others open."""
    return new_table(
        "t1",
        players,
        "Ann",
        bots or {},
        first_seed=seed,
        token_hash=hash_token("ann"),
        address="127.0.0.1",
        public=False,
        hints=False,
        now=NOW,
        timing=TIMING,
        rated=rated,
    )


def against_bots(players: int = 2, *, rated: bool = False, seed: int = 7) -> TableState:
    """Ann alone against bots, here, the first match dealt."""
    bots = {str(n): "greedy" for n in range(1, players)}
    state = run(lobby(players, bots, rated=rated, seed=seed), i.Arrive(), 0).state
    return run(state, i.Start(), 0).state


def with_people(players: int = 3, *, rated: bool = False) -> TableState:
    """Ann, Bea and (for three or four) Cid, all here, the first match dealt."""
    state = lobby(players, rated=rated, seed=11)
    for name in ["Bea", "Cid", "Dan"][: players - 1]:
        state = run(state, i.Join(name, None, hash_token(name), "10.0.0.2"), None).state
    for seat in range(players):
        state = run(state, i.Arrive(), seat).state
    return run(state, i.Start(), 0).state


def bots_move(state: TableState) -> TableState:
    """Every bot turn (and the medium bot's for a seat that resigned) until a person's."""
    while (seat := state.bot_to_move()) is not None:
        match = state.match
        assert match is not None
        action = sorted(match.legal_actions(), key=str)[0]
        state = run(
            state, i.BotMove(len(state.matches) - 1, state.seq, action, state.takebacks), seat
        ).state
    return state


def my_move(state: TableState, rng: random.Random, *, place: bool = True) -> TableState:
    """Ann's move: a tile if she has one to play (``place``), else what she must."""
    match = state.match
    assert match is not None and match.current_player == 0
    legal = match.legal_actions()
    tiles = [a for a in legal if not isinstance(a, Draw) and str(a) != "pass"]
    return run(state, i.Act(rng.choice(tiles if tiles and place else legal)), 0).state


def test_resign_and_take_back_are_client_intents() -> None:
    assert parse({"type": "resign"}) == i.Resign()
    assert parse({"type": "take_back"}) == i.TakeBack()
    moved = i.BotMove(0, 3, parse_action("draw"), 2)
    assert i.from_json(i.to_json(moved)) == moved


# ------------------------------------------------------------------ resigning


def test_w1_a_resigned_seat_is_played_by_the_medium_bot_for_the_others() -> None:
    state = with_people(3)
    match = state.match
    assert match is not None
    quitter = (match.current_player + 1) % 3
    resigned = run(state, i.Resign(), quitter)
    after = resigned.state
    assert after.resignations == ((0, quitter, state.seq),)
    assert after.status == "playing", "two people still play: the match goes on"
    assert after.plays_itself(quitter) and after.level_of(quitter) == "heuristic"
    assert resigned.writes, "the resignation is stored"
    with pytest.raises(UserError) as twice:
        run(after, i.Resign(), quitter)
    assert twice.value.code == "already_resigned"
    back = run(run(after, i.Leave(), quitter).state, i.Arrive(), quitter).state
    assert back.plays_itself(quitter), "unlike away, a resigned seat is not taken back"
    while (mover := after.match.current_player if after.match else None) != quitter:
        assert after.match is not None
        after = run(after, i.Act(after.match.legal_actions()[0]), mover).state
    assert after.bot_to_move() == quitter and after.match is not None
    with pytest.raises(UserError) as not_yours:  # the bot plays the seat now
        run(after, i.Act(after.match.legal_actions()[0]), quitter)
    assert not_yours.value.code == "already_resigned"
    with pytest.raises(UserError):
        run(after, i.Resign(), None)  # a spectator has nothing to resign


def test_w1_nothing_to_resign_in_the_lobby_or_after_the_match() -> None:
    state = lobby(2)
    with pytest.raises(UserError) as waiting:
        run(state, i.Resign(), 0)
    assert waiting.value.code == "not_playing"


def test_w3_when_nobody_is_left_playing_the_match_ends_at_once() -> None:
    state = against_bots(3)
    over = run(state, i.Resign(), 0)
    after = over.state
    assert after.status == "over" and after.given_up(0)
    assert after.bot_to_move() is None and not any(isinstance(e, AskBot) for e in over.effects)
    assert after.table_write().status == "over", "it no longer counts as a running bot match"
    assert after.deadline() is None
    match = after.match
    assert match is not None and not match.is_over, "the record keeps the rules' moves only (W2)"
    message = present.state_message(after, 0, "en", 800, after.connected_seats(), now=NOW)
    result = message["result"]
    assert result["given_up"] and result["resigned"] == [0]
    assert 0 not in result["winners"] and result["winners"]
    assert "Ann resigned" in result["text"]
    assert message["table"]["finished_matches"] == [], "no replay of an unfinished record"
    rematch = run(after, i.Rematch(None), 0).state
    assert rematch.status == "playing" and len(rematch.matches) == 2
    assert rematch.resigned_in(1) == frozenset() and rematch.resigned_in(0) == {0}


def test_w4_a_seat_that_resigned_cannot_win_even_with_the_highest_score() -> None:
    state = with_people(2)
    match = state.match
    assert match is not None
    both = run(run(state, i.Resign(), 1).state, i.Resign(), 0).state
    assert both.status == "over"
    message = present.state_message(both, None, "de", 800, both.connected_seats(), now=NOW)
    assert sorted(message["result"]["resigned"]) == [0, 1]
    assert "Aufgegeben" in message["result"]["text"]


def test_w5_leaving_a_rated_match_on_ones_turn_resigns_an_unrated_one_is_played_for() -> None:
    for rated in (True, False):
        state = with_people(3, rated=rated)
        match = state.match
        assert match is not None
        mover = match.current_player
        gone = run(state, i.Leave(), mover, NOW + 1).state
        message = present.state_message(gone, mover, "en", 800, gone.connected_seats(), now=NOW)
        assert message["table"]["leaving"]["away_resigns"] is rated  # the warning, before
        late = due(gone, NOW + 62, fresh=1).state
        if rated:
            assert late.resigned_in(0) == {mover} and mover not in late.away
            back = run(late, i.Arrive(), mover, NOW + 70).state
            assert back.plays_itself(mover), "a rated seat left too long stays resigned"
        else:
            assert late.resigned_in(0) == frozenset() and mover in late.away
            back = run(late, i.Arrive(), mover, NOW + 70).state
            assert not back.plays_itself(mover), "unrated: the seat is taken back"


def test_w5_a_rated_match_against_bots_left_too_long_is_over_and_lost() -> None:
    state = against_bots(2, rated=True)
    state = bots_move(state)
    gone = run(state, i.Leave(), 0, NOW + 1).state
    late = due(gone, NOW + 62, fresh=1).state
    assert late.status == "over" and late.given_up(0)


# ------------------------------------------------------------------ take-back


def test_w7_a_take_back_returns_to_before_my_last_move_and_drops_its_actions() -> None:
    rng = random.Random(3)
    state = bots_move(against_bots(3))
    before = state
    moved = bots_move(my_move(state, rng))
    assert moved.match is not None and not moved.match.rounds, "still the first round"
    message = present.state_message(moved, 0, "en", 800, moved.connected_seats(), now=NOW)
    assert message["table"]["leaving"]["take_back"] is True
    taken = run(moved, i.TakeBack(), 0, NOW + 5)
    after = taken.state
    assert after.seq == before.seq and after.takebacks == 1
    assert after.match is not None and before.match is not None
    assert after.match.view(0) == before.match.view(0), "the same position, the same hand"
    assert DropActions(0, before.seq) in taken.writes
    late = i.BotMove(0, after.seq + 1, parse_action("draw"), 0)
    assert run(after, late, 1).state is after, "a bot's answer asked before it is void"


def test_w7_no_take_back_of_a_draw_in_a_rated_match_or_with_people() -> None:
    rng = random.Random(5)
    state = bots_move(against_bots(2))
    for _ in range(200):  # play until Ann must draw
        match = state.match
        assert match is not None and match.current_player == 0
        legal = match.legal_actions()
        draws = [a for a in legal if isinstance(a, Draw)]
        state = run(state, i.Act(draws[0] if draws else rng.choice(legal)), 0).state
        if draws:
            break  # Ann's last move is a draw (she may be to move again)
        state = bots_move(state)
    else:
        pytest.fail("Ann never had to draw")
    with pytest.raises(UserError) as drawn:
        run(state, i.TakeBack(), 0)
    assert drawn.value.code == "take_back_draw"
    rated = bots_move(against_bots(2, rated=True))
    rated = bots_move(my_move(rated, rng))
    with pytest.raises(UserError) as refused:
        run(rated, i.TakeBack(), 0)
    assert refused.value.code == "take_back_rated"
    people = with_people(2)
    match = people.match
    assert match is not None
    mover = match.current_player
    people = run(people, i.Act(match.legal_actions()[0]), mover).state
    with pytest.raises(UserError) as others:
        run(people, i.TakeBack(), mover)
    assert others.value.code == "take_back_people"


def test_w7_nothing_to_take_back_before_ones_first_move_of_the_round() -> None:
    state = bots_move(against_bots(2))
    match = state.match
    assert match is not None and match.current_player == 0
    assert all(player != 0 for player, _ in match.current_round.history)
    with pytest.raises(UserError) as nothing:
        run(state, i.TakeBack(), 0)
    assert nothing.value.code == "nothing_to_take_back"
    message = present.state_message(state, 0, "en", 800, state.connected_seats(), now=NOW)
    assert message["table"]["leaving"]["take_back"] is False


# ------------------------------------------------------------------ stored and followed


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    where = (
        str(tmp_path / "t.sqlite3")
        if request.param == "sqlite"
        else str(request.getfixturevalue("fresh_postgres"))
    )
    opened = open_store(where)
    yield opened
    opened.close()


def test_w2_w7_resignations_and_take_backs_survive_the_store_and_reach_a_relay(
    store: Store,
) -> None:
    rng = random.Random(9)
    state = lobby(3, {"1": "greedy", "2": "greedy"})
    store.create_table(state.row())
    mirror = state
    version = 0

    def commit(transition: Transition) -> TableState:
        nonlocal version, mirror
        if transition.writes:
            store.commit("t1", version, transition.writes)
            version += 1
            mirror = replay(mirror, transition.writes, transition.state.version)
        return transition.state

    state = commit(run(state, i.Arrive(), 0))
    state = commit(run(state, i.Start(), 0))
    for _ in range(3):
        while (seat := state.bot_to_move()) is not None:
            match = state.match
            assert match is not None
            action = sorted(match.legal_actions(), key=str)[0]
            state = commit(run(state, i.BotMove(0, state.seq, action, state.takebacks), seat))
        match = state.match
        assert match is not None
        state = commit(run(state, i.Act(rng.choice(match.legal_actions())), 0))
    if state.bot_to_move() is not None:
        match = state.match
        assert match is not None
        action = sorted(match.legal_actions(), key=str)[0]
        seat = state.bot_to_move()
        state = commit(run(state, i.BotMove(0, state.seq, action, state.takebacks), seat))
    state = commit(run(state, i.TakeBack(), 0, NOW + 1))
    state = commit(run(state, i.Resign(), 0, NOW + 2))
    row = store.load_table("t1")
    assert row is not None
    loaded = from_row(row, TIMING, NOW + 3)
    for name in ("seq", "takebacks", "resignations", "status"):
        assert getattr(loaded, name) == getattr(state, name), name
        assert getattr(mirror, name) == getattr(state, name), name
    assert loaded.match is not None and state.match is not None and mirror.match is not None
    assert loaded.match.current_round.history == state.match.current_round.history
    assert mirror.match.current_round.history == state.match.current_round.history
    stored = [a for a in row.matches[0].actions]
    assert len(stored) == state.seq, "the taken-back actions are gone from the store"
