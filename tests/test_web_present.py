"""What a connection is shown: the encoded state equals the plain encoding, and it is built
once for every connection alike."""

from __future__ import annotations

import dataclasses
import json
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from draw_dominoes import Match
from draw_dominoes.web import present
from draw_dominoes.web.runtime.live import LiveTable
from draw_dominoes.web.table import TableSeat, TableState


def table_after(seed: int, moves: int) -> LiveTable:
    match = Match.new(2, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if match.is_over:
            break
        match.apply(rng.choice(match.legal_actions()))
    seats = (TableSeat(0, "human", "Ann"), TableSeat(1, "bot", "Bot 2 (random)", "random"))
    return LiveTable(TableState("t", 2, seed, 0.0, seats, (match,), seq=moves))


@settings(deadline=None)  # the first example draws lines into empty caches
@given(
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 120),
    seat=st.sampled_from([0, 1, None]),
    lang=st.sampled_from(["en", "de"]),
    width=st.sampled_from(present.LINE_WIDTHS),
)
def test_the_spliced_encoding_is_the_plain_encoding(
    seed: int, moves: int, seat: int | None, lang: str, width: int
) -> None:
    table = table_after(seed, moves).state
    message = present.state_message(table, seat, lang, width, (True, True))
    assert json.loads(present.encode_state(message)) == json.loads(present.encode(message))


class Watcher:
    def __init__(self, seat: int | None, lang: str = "en") -> None:
        self.seat, self.lang, self.width, self.height = seat, lang, 800, None
        self.texts: list[str] = []

    def deliver(self, text: str, slot: str | None = None) -> None:
        self.texts.append(text)


def test_connections_alike_share_one_encoded_state() -> None:
    table = table_after(3, 20)
    watchers = [Watcher(None) for _ in range(50)] + [Watcher(None, "de"), Watcher(0)]
    table.connections |= set(watchers)  # type: ignore[arg-type]
    texts = {present.encoded_state(table, w, announce=False) for w in watchers}  # type: ignore[arg-type]
    assert len(texts) == 3 and len(table.encoded) == 3
    table.state = dataclasses.replace(table.state, public=True)  # any new state
    assert table.cached((None, "en", 800, None, (False, True), False)) is None
    assert not table.encoded


def test_encoding_never_fails_on_what_a_client_sent() -> None:
    text = present.encode({"type": "error", "id": "a\ud800"})
    assert text.encode("utf-8") and json.loads(text)["id"] == "a\ud800"


def test_states_encoded_move_by_move_equal_their_plain_encoding() -> None:
    """The history and placements kept encoded between states (they only grow within a
    round) give the same JSON as encoding each state whole, across rounds too."""
    table = table_after(11, 0)
    match = table.state.match
    assert match is not None
    rng = random.Random(11)
    watchers = [Watcher(0), Watcher(None, "de")]
    moves = 0
    while not match.is_over and moves < 400:
        for watcher in watchers:
            text = present.encoded_state(table, watcher, announce=False)  # type: ignore[arg-type]
            connected = table.state.connected_seats()
            plain = present.state_message(table.state, watcher.seat, watcher.lang, 800, connected)
            assert json.loads(text) == json.loads(present.encode(plain))
        match.apply(rng.choice(match.legal_actions()))
        table.state = dataclasses.replace(table.state, seq=table.state.seq + 1)
        moves += 1
    assert len(match.rounds) >= 2  # the cached lists started afresh with each round


TILE_TEXT = re.compile(r"\[\d\|\d\]")


@settings(deadline=None, max_examples=60)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 160), lang=st.sampled_from(["en", "de"]))
def test_a_spectator_is_shown_the_public_view_alone(seed: int, moves: int, lang: str) -> None:
    """R21: a spectator's state holds no hand, no drawn tile and nothing of the boneyard,
    even when the seats' states (whose draws name their tiles) were encoded first."""
    table = table_after(seed, moves)
    match = table.state.match
    assert match is not None
    texts = {
        seat: present.encoded_state(table, Watcher(seat, lang), announce=True)  # type: ignore[arg-type]
        for seat in (0, 1, None)
    }
    for seat in (0, 1):
        history = json.loads(texts[seat])["view"]["history"]
        drawn = {n: entry["tile"] for n, entry in enumerate(history) if "tile" in entry}
        assert drawn == {n: str(t) for n, t in match.view(seat).own_draws.items()}
    message = json.loads(texts[None])
    view = message["view"]
    assert message["you"] is None and view == match.view(None).to_dict()
    assert view["hand"] == [] and view["legal_actions"] == [] and "boneyard" not in view
    assert all("tile" not in entry for entry in view["history"])
    current = match.current_round
    if not current.is_over:
        hidden = {str(t) for t in current.boneyard}
        for seat in range(match.players):
            hidden |= {str(t) for t in current.hand(seat)}
        public = {k: v for k, v in message.items() if k not in ("rounds", "last_round")}
        assert not set(TILE_TEXT.findall(json.dumps(public))) & hidden
