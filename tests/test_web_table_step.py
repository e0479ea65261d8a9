"""The web table as a pure state machine: intents parsed once, ``step`` and ``due`` as
values in and out, every change stored and published by the effects it returns."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from draw_dominoes import Match, parse_action
from draw_dominoes.web.stores.base import SaveAction, SaveMatch, SaveSeat, SaveTable, hash_token
from draw_dominoes.web.stores.sqlite import SqliteStore
from draw_dominoes.web.table import (
    AskBot,
    AskHint,
    Publish,
    Store,
    TableState,
    Timing,
    Transition,
    UserError,
    WakeAt,
    due,
    new_table,
    parse,
    step,
)
from draw_dominoes.web.table import intents as i
from draw_dominoes.web.table.stored import from_row, replay

NOW = 1_000_000.0
TIMING = Timing(round_pause=30.0, away_seconds=60.0, host_grace=10.0)


def table(players: int = 2, bots: dict[str, str] | None = None, seed: int = 7) -> TableState:
    return new_table(
        "t1",
        players,
        "Ann",
        bots or {},
        first_seed=seed,
        token_hash=hash_token("ann"),
        address="127.0.0.1",
        public=False,
        hints=True,
        now=NOW,
        timing=TIMING,
    )


def run(state: TableState, intent: i.Intent, seat: int | None, now: float = NOW) -> Transition:
    return step(state, intent, seat, now, fresh=12345)


def started(players: int = 2, seed: int = 7) -> TableState:
    """Ann and Bea (and Cid, Dan) seated and here, the first match dealt."""
    state = table(players, seed=seed)
    for name in ["Bea", "Cid", "Dan"][: players - 1]:
        state = run(state, i.Join(name, None, hash_token(name), "127.0.0.2"), None).state
    for seat in range(players):
        state = run(state, i.Arrive(), seat).state
    return run(state, i.Start(), 0).state


def effects_of(transition: Transition, kind: type) -> list[object]:
    return [e for e in transition.effects if isinstance(e, kind)]


# ------------------------------------------------------------------ one parse


@pytest.mark.parametrize(
    ("message", "intent"),
    [
        ({"type": "action", "action": "[1|4]@0"}, i.Act(parse_action("[1|4]@0"))),
        ({"type": "action", "action": "draw"}, i.Act(parse_action("draw"))),
        ({"type": "start"}, i.Start()),
        ({"type": "continue"}, i.Continue()),
        ({"type": "rematch"}, i.Rematch(None)),
        ({"type": "visibility", "public": True}, i.SetVisibility(True)),
        ({"type": "hints", "allowed": False}, i.AllowHints(False)),
        ({"type": "hint"}, i.AskHint()),
        ({"type": "seat", "seat": 2, "level": "random"}, i.ConfigureSeat(2, "random")),
        ({"type": "rename", "name": "Bea"}, i.Rename("Bea")),
        ({"type": "ping"}, i.Ping()),
    ],
)
def test_every_client_intent_has_one_typed_value(
    message: dict[str, object], intent: i.Intent
) -> None:
    assert parse(message) == intent


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "action", "action": 5}, "bad_action"),
        ({"type": "action", "action": "[1|4]@0" * 3}, "bad_action"),
        ({"type": "action", "action": "[9|9]"}, "bad_action"),
        ({"type": "visibility", "public": "yes"}, "bad_visibility"),
        ({"type": "hints"}, "bad_hints"),
        ({"type": "nope"}, "unknown_type"),
        ({}, "unknown_type"),
    ],
)
def test_a_malformed_intent_is_refused_by_its_own_code(
    message: dict[str, object], code: str
) -> None:
    with pytest.raises(UserError) as refused:
        parse(message)
    assert refused.value.code == code


def test_intents_cross_processes_as_json_unchanged() -> None:
    for intent in (
        i.Act(parse_action("[2|5]@1")),
        i.BotMove(1, 17, parse_action("pass")),
        i.Join("Bea", 2, "ab" * 32, "127.0.0.9"),
        i.ConfigureSeat(1, None),
        i.Arrive(),
    ):
        assert i.from_json(i.to_json(intent)) == intent


# ------------------------------------------------------------------ R8: refusals change nothing


def test_r8_a_refused_intent_raises_and_leaves_the_state_as_it_was() -> None:
    state = started()
    match = state.match
    assert match is not None
    other = 1 - match.current_player
    history = match.current_round.history
    refusals: list[tuple[i.Intent, int | None, str]] = [
        (i.Act(match.legal_actions()[0]), other, "not_your_turn"),
        (i.Act(match.legal_actions()[0]), None, "not_seated"),
        (i.Start(), 0, "already_started"),
        (i.Continue(), 0, "nothing_to_continue"),
        (i.Rematch(None), 0, "not_over"),
        (i.SetVisibility(True), 1, "host_only"),
        (i.AskHint(), other, "not_your_turn"),
    ]
    for intent, seat, code in refusals:
        with pytest.raises(UserError) as refused:
            run(state, intent, seat)
        assert refused.value.code == code
    illegal = next(
        parse_action(f"{t}@0")
        for t in ("[6|6]", "[0|0]", "[5|5]")
        if parse_action(f"{t}@0") not in match.legal_actions()
    )
    with pytest.raises(UserError) as refused:
        run(state, i.Act(illegal), match.current_player)
    assert refused.value.code in ("illegal", "not_your_turn")
    assert match.current_round.history == history  # the engine's match was not touched


def test_r8_a_move_is_stored_before_it_is_shown_and_the_old_state_stays_whole() -> None:
    state = started()
    match = state.match
    assert match is not None
    seat, action = match.current_player, match.legal_actions()[0]
    moved = run(state, i.Act(action), seat)
    kinds = [type(e) for e in moved.effects]
    assert kinds.index(Store) < kinds.index(Publish)  # the store first, then publish once
    assert kinds.count(Publish) == 1 and effects_of(moved, Publish)[0] == Publish(True)
    writes = moved.writes
    assert writes[0] == SaveAction(0, 0, str(action)) and isinstance(writes[-1], SaveTable)
    assert moved.state.version == state.version + 1 and moved.state.seq == 1
    assert match.current_round.history == ()  # the state before it is unchanged
    assert moved.state.match is not match


def test_a_late_bot_move_is_dropped_without_a_change() -> None:
    state = table(2, {"1": "random"})
    state = run(run(state, i.Arrive(), 0).state, i.Start(), 0).state
    match = state.match
    assert match is not None
    stale = run(state, i.BotMove(0, state.seq + 3, match.legal_actions()[0]), 1)
    assert stale.state is state and not stale.writes


# ------------------------------------------------------------------ the round's end, away, host


def finish_round(state: TableState, rng: random.Random) -> TableState:
    match = state.match
    assert match is not None
    rounds = len(match.rounds)
    while match is not None and len(match.rounds) == rounds and not match.is_over:
        state = run(state, i.Act(rng.choice(match.legal_actions())), match.current_player).state
        match = state.match
    return state


def test_a_rounds_end_waits_for_everyone_here_to_continue_or_for_its_time() -> None:
    state = finish_round(started(), random.Random(1))
    assert state.pause_until == pytest.approx(NOW + TIMING.round_pause)
    waiting = state.waiting_at_round_end()
    assert waiting, "whoever did not make the last move has not seen the end yet"
    match = state.match
    assert match is not None
    with pytest.raises(UserError) as refused:
        run(state, i.Act(match.legal_actions()[0]), match.current_player)
    assert refused.value.code == "round_end"
    for seat in waiting:
        state = run(state, i.Continue(), seat).state
    assert state.pause_until is None  # nobody waits: the next round goes on at once
    again = finish_round(started(), random.Random(1))
    assert again.deadline() == again.pause_until
    ended = due(again, again.pause_until or 0.0, fresh=1)
    assert ended.state.pause_until is None and effects_of(ended, Publish)


def test_a_person_away_on_their_turn_is_played_for_after_away_seconds() -> None:
    state = started()
    match = state.match
    assert match is not None
    mover = match.current_player
    gone = run(state, i.Leave(), mover, NOW + 5).state
    assert gone.away_due() == NOW + 5 + TIMING.away_seconds
    assert effects_of(run(state, i.Leave(), mover, NOW + 5), WakeAt) == [
        WakeAt(NOW + 5 + TIMING.away_seconds)
    ]
    early = due(gone, NOW + 30, fresh=1)
    assert early.state is gone
    late = due(gone, NOW + 66, fresh=1)
    assert mover in late.state.away and effects_of(late, AskBot)
    match = late.state.match
    assert match is not None
    played = run(
        late.state, i.BotMove(0, late.state.seq, match.legal_actions()[0]), mover, NOW + 67
    )
    assert played.state.away_moves[mover] == 1  # counted, so that they are told on return
    back = run(played.state, i.Arrive(), mover, NOW + 70)
    assert mover not in back.state.away  # the bot stops playing for them
    assert back.state.away_moves[mover] == 1


def test_a_host_gone_from_the_lobby_hands_over_after_the_grace() -> None:
    state = table(3)
    state = run(state, i.Join("Bea", None, hash_token("b"), "10.0.0.2"), None).state
    state = run(run(state, i.Arrive(), 0).state, i.Arrive(), 1).state
    state = run(state, i.Leave(), 0, NOW + 1).state
    assert state.host_due() == NOW + 1 + TIMING.host_grace
    assert due(state, NOW + 5, fresh=1).state.host == 0
    assert due(state, NOW + 12, fresh=1).state.host == 1


def test_r21_a_rematch_is_dealt_from_a_fresh_seed_once_everyone_here_agreed() -> None:
    state, rng = started(seed=3), random.Random(3)
    while state.status != "over":
        state = finish_round(state, rng)
        for seat in state.waiting_at_round_end():
            state = run(state, i.Continue(), seat).state
    first = state.seed_of(0)
    asked = run(state, i.Rematch(None), 0).state
    assert asked.status == "over" and asked.rematch_votes == {0}
    agreed = step(asked, i.Rematch(None), 1, NOW, fresh=999)
    assert agreed.state.status == "playing" and agreed.state.seed_of(1) == 12345
    assert agreed.state.next_seed == 999 and first != 12345
    assert any(isinstance(w, SaveMatch) and w.number == 1 for w in agreed.writes)


def test_hints_are_asked_for_by_an_effect_only_at_the_seat_to_move() -> None:
    state = started()
    match = state.match
    assert match is not None
    asked = run(state, i.AskHint(), match.current_player)
    assert asked.state is state and not asked.writes
    assert effects_of(asked, AskHint) == [AskHint(match.current_player, 0, 0)]


# ------------------------------------------------------------------ stored, and followed


def test_every_field_of_the_table_survives_the_store(tmp_path: Path) -> None:
    """Round's end, votes, away seats, deadlines: a restart sees the table as it was."""
    store = SqliteStore(tmp_path / "t.sqlite3")
    state = table(3)
    store.create_table(state.row())
    rng = random.Random(4)
    transitions = []
    setup: list[tuple[i.Intent, int | None]] = [
        (i.Join("Bea", None, hash_token("b"), "10.0.0.2"), None),
        (i.ConfigureSeat(2, "greedy"), 0),
        (i.Arrive(), 0),
        (i.Arrive(), 1),
        (i.Start(), 0),
    ]
    for intent, seat in setup:
        transitions.append(run(state, intent, seat))
        state = transitions[-1].state
    for _ in range(300):
        match = state.match
        assert match is not None
        if state.pause_until is not None or match.is_over:
            break
        transitions.append(
            run(state, i.Act(rng.choice(match.legal_actions())), match.current_player)
        )
        state = transitions[-1].state
    transitions.append(run(state, i.Leave(), 1, NOW + 3))
    state = transitions[-1].state
    version = 0
    for transition in transitions:
        if transition.writes:
            store.commit("t1", version, transition.writes)
            version += 1
    row = store.load_table("t1")
    assert row is not None
    loaded = from_row(row, TIMING, NOW + 500)
    kept = ("seats", "host", "seen", "pause_until", "rematch_votes", "away", "left_at")
    for name in (*kept, "turn_since", "seq", "version", "addresses", "next_seed"):
        assert getattr(loaded, name) == getattr(state, name), name
    assert loaded.match is not None and state.match is not None
    assert loaded.match.current_round.history == state.match.current_round.history


def test_a_relay_follows_the_owners_commits_to_the_same_table() -> None:
    owner = table(2)
    mirror = owner
    rng = random.Random(5)
    intents: list[tuple[i.Intent, int | None]] = [
        (i.Join("Bea", None, hash_token("b"), "10.0.0.2"), None),
        (i.Arrive(), 0),
        (i.Start(), 0),
    ]
    for intent, seat in intents:
        moved = run(owner, intent, seat)
        owner = moved.state
        mirror = replay(mirror, moved.writes, owner.version) if moved.writes else mirror
    for _ in range(60):
        match = owner.match
        assert match is not None
        if owner.pause_until is not None or match.is_over:
            break
        moved = run(owner, i.Act(rng.choice(match.legal_actions())), match.current_player)
        owner = moved.state
        mirror = replay(mirror, moved.writes, owner.version)
    for name in ("seats", "seq", "version", "seen", "host", "pause_until", "away"):
        assert getattr(mirror, name) == getattr(owner, name), name
    assert mirror.match is not None and owner.match is not None
    assert mirror.match.view(1) == owner.match.view(1)
    assert dataclasses.replace(mirror, present=owner.present).present == owner.present


def test_a_new_table_is_refused_field_by_field() -> None:
    for players, bots, code in [
        (5, {}, "bad_players"),
        (2, {"1": "no-such-bot"}, "bad_level"),
        (2, {"2": "random"}, "bad_seat"),
        (2, [], "bad_request"),
    ]:
        with pytest.raises(UserError) as refused:
            new_table(
                "x", players, "Ann", bots, first_seed=1, token_hash="h", address=None,
                public=False, hints=False, now=NOW, timing=TIMING,
            )  # fmt: skip
        assert refused.value.code == code
    assert Match.new(2, seed=7).seed == table().next_seed
    assert [type(w) for w in run(table(), i.Rename("Anna"), 0).writes] == [SaveSeat, SaveTable]


def clocked(seconds: int = 15) -> TableState:
    """Ann and Bea at a table with ``seconds`` a move, both here, the match dealt."""
    state = dataclasses.replace(table(), move_seconds=seconds)
    state = run(state, i.Join("Bea", None, hash_token("Bea"), "127.0.0.2"), None).state
    for seat in range(2):
        state = run(state, i.Arrive(), seat).state
    return run(state, i.Start(), 0).state


def test_a_clock_runs_out_and_the_medium_bot_makes_that_one_move() -> None:
    state = clocked(15)
    match = state.match
    assert match is not None
    mover = match.current_player
    assert state.clock_due() == NOW + 15 and state.deadline() == NOW + 15
    assert due(state, NOW + 10, fresh=1).state is state  # time left: nothing happens
    ran_out = due(state, NOW + 15, fresh=1)
    assert ran_out.state.timed_out == mover and ran_out.state.clock_due() is None
    (ask,) = effects_of(ran_out, AskBot)
    assert isinstance(ask, AskBot) and ask.seat == mover and ask.level == "heuristic"
    assert effects_of(ran_out, Publish)  # everyone is told the time ran out
    chosen = match.legal_actions()[0]
    moved = run(ran_out.state, i.BotMove(0, ran_out.state.seq, chosen), mover, NOW + 16)
    after = moved.state
    assert after.timed_out is None and after.seq == state.seq + 1  # one move, then theirs again
    assert after.clock_due() == NOW + 16 + 15  # the next seat's time starts with its turn
    assert mover not in after.away  # not away: the next turn is theirs again
    assert after.clock_moves[mover] == 1  # and they are told so for the rest of the match


def test_a_clock_is_chosen_at_creation_and_kept_by_the_store(tmp_path: Path) -> None:
    for bad in [10, "30", True, -1]:
        with pytest.raises(UserError) as refused:
            new_table(
                "t",
                2,
                "Ann",
                {},
                first_seed=1,
                token_hash="x",
                address=None,
                public=False,
                hints=False,
                now=NOW,
                timing=TIMING,
                move_seconds=bad,
            )
        assert refused.value.code == "bad_clock"
    made = new_table(
        "t1",
        2,
        "Ann",
        {},
        first_seed=1,
        token_hash="x",
        address=None,
        public=False,
        hints=False,
        now=NOW,
        timing=TIMING,
        move_seconds=30,
        rated=True,
    )
    store = SqliteStore(tmp_path / "t.sqlite3")
    store.create_table(made.row())
    row = store.load_table("t1")
    assert row is not None
    loaded = from_row(row, TIMING, NOW)
    assert (loaded.move_seconds, loaded.rated, loaded.timed_out) == (30, True, None)
    store.close()


def test_quick_chat_is_set_phrases_from_seats_and_not_too_fast() -> None:
    state = started()
    assert i.parse({"type": "chat", "phrase": "good_game"}) == i.Chat("good_game")
    bad_phrases: list[dict[str, object]] = [
        {"type": "chat", "phrase": "you are bad"},
        {"type": "chat"},
        {"type": "chat", "phrase": 5},
    ]
    for bad in bad_phrases:
        with pytest.raises(UserError) as refused:
            i.parse(bad)
        assert refused.value.code == "bad_phrase"
    with pytest.raises(UserError) as watching:
        run(state, i.Chat("hello"), None)
    assert watching.value.code == "not_seated"
    said = run(state, i.Chat("hello"), 1, NOW + 1)
    assert said.state.chat == ((1, "hello", NOW + 1),) and effects_of(said, Publish)
    with pytest.raises(UserError) as fast:
        run(said.state, i.Chat("oops"), 1, NOW + 2)
    assert fast.value.code == "chat_too_fast"
    other = run(said.state, i.Chat("thanks"), 0, NOW + 2).state  # the other seat may
    chatty = other
    for n in range(6):
        chatty = run(chatty, i.Chat("oops"), 0, NOW + 10 + 4 * n).state if n < 5 else chatty
    with pytest.raises(UserError):  # six in a minute, at most
        run(chatty, i.Chat("oops"), 0, NOW + 40)
    assert len(chatty.chat) == 6  # the table keeps the latest few
    stored = from_row(
        dataclasses.replace(chatty.row(), state=chatty.stored_json()), TIMING, NOW + 50
    )
    assert stored.chat == chatty.chat
