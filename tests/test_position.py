"""Position texts, checks, undo and what each view holds (R8, R21), over random rounds."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import play_randomly
from draw_dominoes import (
    ALL_TILES,
    DRAW,
    PASS,
    Action,
    Draw,
    IllegalActionError,
    InvalidActionError,
    InvalidTileError,
    Match,
    Place,
    PlayerView,
    Round,
    Tile,
    bots,
    parse_action,
    play,
)
from draw_dominoes.actions import ACTION_IDS, action_for_id
from draw_dominoes.cli import main
from draw_dominoes.notation import PositionError

games = st.tuples(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 120))
CACHES = {"_line", "_line_at"}
"""Round slots that only cache what the others hold (the line built from the actions)."""


def played(players: int, seed: int, steps: int) -> Round:
    round_ = Round.new(players, seed=seed)
    play_randomly(round_, random.Random(seed), steps)
    return round_


def fields_of(round_: Round) -> dict[str, Any]:
    """Every field of the round, private ones included, copied (the line as its value)."""
    state = {
        name: (lambda v: v[:] if isinstance(v, list) else v)(getattr(round_, name))
        for name in Round.__slots__
        if name not in CACHES
    }
    state["line"] = round_.line
    return state


# ------------------------------------------------------------------ position text


@settings(max_examples=120, deadline=None)
@given(games)
def test_the_position_text_round_trips_every_field(args: tuple[int, int, int]) -> None:
    round_ = played(*args)
    text = round_.to_text()
    again = Round.from_text(text)
    assert fields_of(again) == fields_of(round_)
    assert again.to_text() == text
    for seat in [None, *range(round_.players)]:
        assert again.view(seat) == round_.view(seat)


@settings(max_examples=120, deadline=None)
@given(games)
def test_r21_a_views_text_round_trips_and_says_what_the_seat_knows(
    args: tuple[int, int, int],
) -> None:
    round_ = played(*args)
    for seat in [None, *range(round_.players)]:
        view = round_.view(seat)
        text = view.to_text()
        assert PlayerView.from_text(text) == view
        if not round_.is_over and seat is not None:
            # Nobody else's tiles and no boneyard: only the seat's hand, its draws, the line.
            named = {Tile(int(pair[0]), int(pair[1])) for pair in _pairs(text)}
            known = set(view.hand) | set(view.drawn_tiles) | set(round_.line.tiles)
            assert named <= known


def _pairs(text: str) -> list[str]:
    """Every two-digit tile token of a view's text (hand, moves, draws)."""
    fields = text.split()
    tokens = [fields[4]] + [m.lstrip("d").split("@")[0] for m in fields[8].split(",")]
    return [t[i : i + 2] for t in tokens if t not in ("-", "p", "") for i in range(0, len(t), 2)]


def test_a_position_text_reads_as_documented() -> None:
    """The example of docs/engine.md: seat 0 opens with [1|4], seat 1 draws [1|5]."""
    seat0 = ["[0|0]", "[0|1]", "[1|1]", "[1|4]", "[2|2]", "[3|3]", "[5|6]"]
    seat1 = ["[0|2]", "[0|3]", "[0|4]", "[0|5]", "[0|6]", "[1|2]", "[1|3]"]
    boneyard = [t for t in map(str, ALL_TILES) if t not in seat0 + seat1]
    round_ = Round.from_deal([seat0, seat1], boneyard, 0, seed=7)
    round_.apply(Place(Tile(1, 4), None))
    round_.apply(DRAW)
    assert round_.to_text() == (
        "2 0 0,0 000111223356/0203040506121315 16232425263435364445465566 1-4 14,d15 1 7"
    )
    assert round_.view(1).to_text() == "2 1 0 0,0 0203040506121315 6,8 13 1-4 14,d15 1 -"
    assert round_.view(0).to_text() == "2 0 0 0,0 000111223356 6,8 13 1-4 14,d 1 -"
    assert round_.view(None).to_text() == "2 - 0 0,0 - 6,8 13 1-4 14,d 1 -"


@pytest.mark.parametrize(
    ("damage", "part"),
    [
        (lambda f: f[:-1], "fields"),
        (lambda f: ["5", *f[1:]], "players"),
        (lambda f: [f[0], "9", *f[2:]], "leader"),
        (lambda f: [*f[:2], "0", *f[3:]], "scores"),
        (lambda f: [*f[:3], f[3] + "7", *f[4:]], "hands"),
        (lambda f: [*f[:3], f[3].replace("/", "//"), *f[4:]], "hands"),
        (lambda f: [*f[:4], "x" + f[4], *f[5:]], "boneyard"),
        (lambda f: [*f[:5], "6-6", *f[6:]], "line"),
        (lambda f: [*f[:6], "14,zz", *f[7:]], "moves"),
        (lambda f: [*f[:6], f[6].replace(",", "@0,", 1), *f[7:]], "moves"),
        (lambda f: [*f[:7], "0", f[8]], "seat to move"),
        (lambda f: [*f[:8], "seven"], "seed"),
    ],
)
def test_a_damaged_position_text_is_an_error_naming_the_part(damage: Any, part: str) -> None:
    round_ = Round.new(2, seed=3, leader=0)
    opening = max(round_.hand(0), key=lambda t: t.index)
    round_.apply(Place(opening, None))
    round_.apply(DRAW)
    damaged = " ".join(damage(round_.to_text().split()))
    with pytest.raises(PositionError, match=rf"^position text, {part}"):
        Round.from_text(damaged)


@pytest.mark.parametrize(
    ("damage", "part"),
    [
        (lambda f: f[:5], "fields"),
        (lambda f: [f[0], "7", *f[2:]], "seat"),
        (lambda f: [*f[:4], "6666", *f[5:]], "hand"),
        (lambda f: [*f[:6], "3", *f[7:]], "hand sizes"),
        (lambda f: [*f[:8], f[8].replace(",d", ",d66"), *f[9:]], "moves"),
        (lambda f: [*f[:8], "d66," + f[8], *f[9:]], "moves"),
        (lambda f: [*f[:7], "-", *f[8:]], "line"),
    ],
)
def test_a_damaged_view_text_is_an_error_naming_the_part(damage: Any, part: str) -> None:
    round_ = Round.new(2, seed=3, leader=0)
    round_.apply(Place(round_.hand(0)[0], None))
    round_.apply(DRAW)
    damaged = " ".join(damage(round_.view(0).to_text().split()))
    with pytest.raises(PositionError, match=rf"^position text, {part}"):
        PlayerView.from_text(damaged)


def test_a_sampled_round_has_no_position_text() -> None:
    round_ = played(3, 5, 12)
    with pytest.raises(ValueError, match="sampled"):
        round_.sample_hidden(0, random.Random(1)).to_text()


# ------------------------------------------------------------------ views


@settings(max_examples=100, deadline=None)
@given(games)
def test_r21_the_public_view_holds_no_hand_no_draws_and_no_boneyard_order(
    args: tuple[int, int, int],
) -> None:
    round_ = played(*args)
    public = round_.view(None)
    assert public.hand == () and public.drawn_tiles == () and public.legal_actions == ()
    assert all("tile" not in entry for entry in public.to_dict()["history"])
    data = json.dumps(public.to_dict()) + public.to_text()
    hidden = set(round_.boneyard) if not round_.is_over else set()
    if not round_.is_over:
        hidden |= {t for seat in range(round_.players) for t in round_.hand(seat)}
    assert not [t for t in hidden if str(t) in data]


@settings(max_examples=100, deadline=None)
@given(games)
def test_r21_a_seat_sees_its_own_draws_and_nobody_elses(args: tuple[int, int, int]) -> None:
    round_ = played(*args)
    boneyard = list(round_.deal[1])
    drawn_by: dict[int, list[Tile]] = {seat: [] for seat in range(round_.players)}
    for seat, action in round_.history:
        if isinstance(action, Draw):
            drawn_by[seat].append(boneyard.pop(0))
    for seat in range(round_.players):
        view = round_.view(seat)
        assert view.drawn_tiles == tuple(drawn_by[seat])
        assert list(view.own_draws.values()) == drawn_by[seat]
        assert view.dealt_hand == round_.deal[0][seat]
        tiles_told = [e["tile"] for e in view.to_dict()["history"] if "tile" in e]
        assert tiles_told == [str(t) for t in drawn_by[seat]]


def test_a_sampled_round_knows_the_samplers_draws() -> None:
    round_ = played(2, 11, 30)
    seat = next((s for s in range(2) if round_.drawn_tiles(s)), None)
    if seat is None:
        pytest.skip("no draws in this round")
    sampled = round_.sample_hidden(seat, random.Random(2))
    assert sampled.view(seat).drawn_tiles == round_.view(seat).drawn_tiles


# ------------------------------------------------------------------ check


@settings(max_examples=100, deadline=None)
@given(games)
def test_r8_check_agrees_with_the_legal_actions_on_every_action_id(
    args: tuple[int, int, int],
) -> None:
    round_ = played(*args)
    legal = set(round_.legal_actions())
    candidates = {action_for_id(i, False) for i in range(ACTION_IDS)}
    candidates |= {Place(tile, None) for tile in ALL_TILES}
    for action in candidates:
        refusal = round_.check(action)
        assert (refusal is None) == (action in legal), action
        if refusal is not None:
            before = fields_of(round_)
            with pytest.raises(IllegalActionError) as raised:
                round_.apply(action)
            assert (raised.value.code, str(raised.value)) == (refusal.code, str(refusal))
            assert fields_of(round_) == before


def test_check_names_what_is_not_an_action() -> None:
    refusal = Round.new(2, seed=1).check("draw")
    assert refusal is not None and refusal.code == "not_an_action"


def test_bad_notation_is_its_own_error() -> None:
    for text in ("drw", "[1|9]", "[1|4]@2", "[1|4", ""):
        with pytest.raises(InvalidActionError):
            parse_action(text)
    with pytest.raises(InvalidTileError):
        Tile.parse("[7|1]")
    assert issubclass(InvalidActionError, ValueError) and issubclass(InvalidTileError, ValueError)


# ------------------------------------------------------------------ undo


@settings(max_examples=80, deadline=None)
@given(games)
def test_undo_restores_the_exact_previous_state(args: tuple[int, int, int]) -> None:
    players, seed, steps = args
    round_ = Round.new(players, seed=seed)
    rng = random.Random(seed)
    states, actions = [fields_of(round_)], list[Action]()
    while not round_.is_over and len(actions) < steps:
        action = rng.choice(round_.legal_actions())
        round_.apply(action)
        actions.append(action)
        states.append(fields_of(round_))
        if rng.random() < 0.3:  # take back and play it again, mid-round
            assert round_.undo() is action
            assert fields_of(round_) == states[-2]
            round_.apply(action)
            assert fields_of(round_) == states[-1]
    while actions:
        assert round_.undo() is actions.pop()
        states.pop()
        assert fields_of(round_) == states[-1]
    with pytest.raises(IllegalActionError, match="no action to take back"):
        round_.undo()


def test_undo_of_a_sampled_round_stops_at_the_sample() -> None:
    sampled = played(2, 4, 10).sample_hidden(0, random.Random(3))
    while not sampled.is_over and len(sampled.actions) < 11:
        sampled.apply(sampled.legal_actions()[0])
    while len(sampled.actions) > 10:
        sampled.undo()
    with pytest.raises(IllegalActionError, match="no action to take back"):
        sampled.undo()


def test_a_match_undoes_back_over_finished_rounds_to_its_start() -> None:
    """Take-backs over a round's end reopen it, take its credits off and undeal the next
    round, which the same seed deals again (R19)."""
    match = Match.new(2, seed=8)
    texts: list[tuple[str, tuple[int, ...], int]] = []
    actions = []
    seats = [bots.create("greedy", seed=1), bots.create("greedy", seed=2)]
    for _, action in play(match, seats):
        actions.append(action)
        assert match.ply() == len(actions)
        texts.append((match.current_round.to_text(), match.scores, len(match.rounds)))
    assert match.is_over and len(match.rounds) > 1
    replay = Match.new(2, seed=8)
    for action in actions:
        replay.apply(action)
    while actions:
        assert match.undo() is actions.pop()
        assert match.ply() == len(actions)
        if texts[:-1]:
            texts.pop()
            assert (match.current_round.to_text(), match.scores, len(match.rounds)) == texts[-1]
    assert match.scores == (0, 0) and not match.rounds
    assert match.current_round.to_text() == Match.new(2, seed=8).current_round.to_text()
    for _ in play(match, seats):
        pass
    assert match.scores == replay.scores  # dealt again from the same seed


def test_a_match_checks_as_its_round_does() -> None:
    match = Match.new(3, seed=2)
    assert match.check(PASS) is not None and match.check(DRAW) is None
    assert match.check(DRAW) is None and match.current_round.check(DRAW) is None


# ------------------------------------------------------------------ the analyse command

EXAMPLE = "2 0 0,0 000111223356/0203040506121315 16232425263435364445465566 1-4 14,d15 1 7"


def test_analyse_prints_every_legal_action_of_a_position(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["analyse", EXAMPLE, "--iterations", "200", "--lang", "en"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("seat 1 to move · line 1-4 · hand [0|2]")
    listed = {line.split()[0] for line in out[2:]}
    assert listed == {str(a) for a in Round.from_text(EXAMPLE).legal_actions()}
    assert "[0|4] on the 4" in "\n".join(out)


def test_analyse_reads_a_view_and_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    view_text = Round.from_text(EXAMPLE).view(1).to_text()
    assert main(["analyse", view_text, "--iterations", "200", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["view"] == view_text and len(data["entries"]) == 5
    # The same analysis from the round's text: it only ever sees the mover's view (R21).
    assert main(["analyse", EXAMPLE, "--iterations", "200", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == data


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (EXAMPLE.replace("1-4", "4-1"), "position text, line"),
        ("2 0 0,0", "position text, fields"),
        (Round.from_text(EXAMPLE).view(0).to_text(), "not player 0's turn"),
    ],
)
def test_analyse_refuses_a_bad_position_in_one_line(
    text: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", text]) == 2
    out = capsys.readouterr().out
    assert said in out and len(out.splitlines()) == 1


def test_undo_leaves_the_matches_cloned_before_it_as_they_were() -> None:
    """Finished rounds are shared between a match and its clones: taking back the action
    that finished one reopens a copy."""
    match = Match.new(2, seed=3)
    seats = [bots.create("greedy", seed=1), bots.create("greedy", seed=2)]
    clones = []
    for _ in play(match, seats):
        if match.current_round.ply() == 0 and match.rounds:
            clones.append((match.clone(), match.rounds[-1].to_text(), match.scores))
    clones.append((match.clone(), match.rounds[-1].to_text(), match.scores))
    assert match.is_over and len(clones) > 1
    while match.ply():
        match.undo()
    for clone, last_round, scores in clones:
        assert clone.rounds[-1].to_text() == last_round and clone.scores == scores
