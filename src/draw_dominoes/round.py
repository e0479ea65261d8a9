"""Round: one deal of Draw from the shuffle to the settlement (R2–R18), on bitmasks."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from operator import attrgetter
from typing import Final, NamedTuple

from .actions import DRAW, PASS, Action, Draw, IllegalActionError, Pass, Place, action_for_id
from .legal import AFTER, BY_ENDS, EMPTY, LAST_DRAW, PLAYABLE, ends_code, ends_values, legal_actions
from .line import Line
from .notation import (
    NONE,
    Move,
    PositionError,
    integer,
    integers,
    line_text,
    move_text,
    moves_text,
    parse_moves,
    parse_tiles,
    tiles_text,
)
from .rules import RULES
from .tiles import (
    ALL_TILES,
    TILE_COUNT,
    VALUE_MASKS,
    VALUES,
    Tile,
    pips_of_mask,
    shuffled_tiles,
    tiles_of_mask,
)
from .view import Outcome, PlayerView, Termination, settle, target_for

__all__ = [
    "Round",
    "RoundFields",
    "ViewSampler",
    "check_players",
    "deal_order",
    "hand_size_for",
    "new_seed",
    "sample_from_view",
]


def hand_size_for(players: int) -> int:
    """Seven tiles each with two or three players, six with four (R2)."""
    return RULES.hand_size(players)


def check_players(players: object) -> int:
    """``players`` if the rules allow that many (2 to 4), else ValueError."""
    return RULES.check_players(players)


def new_seed() -> int:
    """A fresh seed from the operating system, so that an unseeded game can still be replayed."""
    return random.SystemRandom().randrange(2**63)


_BIT: Final = attrgetter("bit")
_INDEX: Final = attrgetter("index")
_NO_SCORES: Final = {n: (0,) * n for n in RULES.player_counts}
TILES: Final = TILE_COUNT


def _shuffle(rng: random.Random, n: int, leader: int | None) -> tuple[list[Tile], int]:
    """What ``Round.new`` draws from ``rng``: the tiles in deal order, then the leader by
    lot (R4) when it is not given."""
    tiles = shuffled_tiles(rng)
    return tiles, rng.randrange(n) if leader is None else leader


def deal_order(players: int, seed: int) -> tuple[list[Tile], int]:
    """The tiles in deal order (the hands, then the boneyard) and the leader of
    ``Round.new(players, seed=seed)``, without the round: for batches that keep rounds
    as arrays."""
    return _shuffle(random.Random(seed), check_players(players), None)


def _tile(value: Tile | str) -> Tile:
    if isinstance(value, Tile):
        return value
    if isinstance(value, str):
        return Tile.parse(value)
    raise ValueError(f"not a tile: {value!r}")


class RoundFields(NamedTuple):
    """``Round.fields()``: a round's state as numbers (hands as tile bitmasks, the ends as
    their code ``7 × left + right``, or ``EMPTY`` before the opening; ``drawn`` counts the
    tiles taken from the stock, the deal included; ``line`` is the bitmask of the tiles on
    the line and ``draws`` the tiles each seat has drawn this round)."""

    players: int
    hands: tuple[int, ...]
    outcome: Outcome | None
    scores: tuple[int, ...]
    lacks: tuple[int, ...]
    ends: int
    drawn: int
    current: int
    leader: int
    line: int
    draws: tuple[int, ...]


_new_fields: Final = tuple.__new__


class Round:
    """One round: deal, turns, settlement. Mutable: ``apply`` changes it in place.

    Hands are bitmasks over the 28 tiles; the boneyard is an ordered stack
    (``boneyard[0]`` is drawn first) of which the last two are never drawn.
    """

    __slots__ = (
        "_actions",
        "_current",
        "_dealt",
        "_drawn",
        "_draws",
        "_ends",
        "_hands",
        "_lacks",
        "_leader",
        "_line",
        "_line_at",
        "_line_mask",
        "_n",
        "_outcome",
        "_sample",
        "_scores",
        "_seed",
        "_stock",
    )

    _n: int
    _hands: list[int]
    _stock: list[Tile]
    _drawn: int
    _ends: int
    _actions: list[Action]
    _current: int
    _leader: int
    _lacks: list[int]
    _outcome: Outcome | None
    _scores: tuple[int, ...]
    _dealt: int
    _seed: int | None
    _line: Line | None
    _line_at: int
    _line_mask: int
    _draws: list[int]
    _sample: tuple[int, int | None] | None
    """``None`` for a dealt round; a sampled one's actions before the sample (which cannot
    be taken back) and the seat it was sampled for (the only one whose draws it knows)."""

    # ----------------------------------------------------------------- creation

    @classmethod
    def new(
        cls,
        players: int,
        seed: int | None = None,
        leader: int | None = None,
        *,
        rng: random.Random | None = None,
        scores: Sequence[int] | None = None,
    ) -> Round:
        """Shuffle and deal a round (R2); the leader is drawn by lot when not given (R4).

        Pass ``seed`` (or your own ``rng``); with neither, a fresh seed is chosen and
        kept in ``round.seed`` so the round can be replayed.
        """
        n = check_players(players)
        if rng is None:
            if seed is None:
                seed = new_seed()
            rng = random.Random(seed)
        tiles, leader = _shuffle(rng, n, leader)
        return cls._start(n, tiles, leader, scores, seed)

    @classmethod
    def from_deal(
        cls,
        hands: Sequence[Sequence[Tile | str]],
        boneyard: Sequence[Tile | str],
        leader: int,
        *,
        scores: Sequence[int] | None = None,
        seed: int | None = None,
    ) -> Round:
        """Start from a given deal: every one of the 28 tiles exactly once, hands sized by R2.

        ``boneyard[0]`` is the first tile drawn. ``seed`` records the seed the deal came
        from (``Round.new(players, seed=seed, leader=leader)`` deals it), when known.
        """
        n = check_players(len(hands))
        hand_tiles = [[_tile(t) for t in hand] for hand in hands]
        stock = [_tile(t) for t in boneyard]
        size = hand_size_for(n)
        for seat, hand in enumerate(hand_tiles):
            if len(hand) != size:
                raise ValueError(
                    f"hand {seat} has {len(hand)} tiles; with {n} players each hand has {size} (R2)"
                )
        seen: set[Tile] = set()
        for tile in [t for hand in hand_tiles for t in hand] + stock:
            if tile in seen:
                raise ValueError(f"{tile} is dealt twice")
            seen.add(tile)
        missing = [str(t) for t in ALL_TILES if t not in seen]
        if missing:
            raise ValueError(
                f"the deal lacks {', '.join(missing)}: all {TILES} tiles must be dealt"
            )
        if seed is not None and type(seed) is not int:
            raise ValueError(f"a seed is an integer, not {seed!r}")
        dealt = [t for hand in hand_tiles for t in hand] + stock
        return cls._start(n, dealt, leader, scores, seed)

    @classmethod
    def _start(
        cls,
        n: int,
        tiles: list[Tile],
        leader: int,
        scores: Sequence[int] | None,
        seed: int | None = None,
    ) -> Round:
        """A fresh round from the 28 tiles in deal order: the hands, then the boneyard."""
        if type(leader) is not int or not 0 <= leader < n:
            raise ValueError(f"the leader is a seat from 0 to {n - 1}, not {leader!r}")
        if scores is None:
            score_tuple = _NO_SCORES[n]
        else:
            score_tuple = tuple(scores)
            if len(score_tuple) != n or any(type(s) is not int or s < 0 for s in score_tuple):
                raise ValueError(f"scores must be {n} non-negative integers, not {scores!r}")
        size = hand_size_for(n)
        dealt = n * size
        # Each hand's slots in tile order: the order within a hand is no part of the
        # position, so that a round read back from its text is the same in every field.
        for i in range(0, dealt, size):
            tiles[i : i + size] = sorted(tiles[i : i + size], key=_INDEX)
        return cls._make(
            n=n,
            hands=[sum(map(_BIT, tiles[i : i + size])) for i in range(0, dealt, size)],
            stock=tiles,
            drawn=n * size,
            ends=EMPTY,
            actions=[],
            current=leader,
            leader=leader,
            lacks=[0] * n,
            outcome=None,
            scores=score_tuple,
            dealt=n * size,
            seed=seed,
            line=None,
            line_at=-1,
            line_mask=0,
            draws=[0] * n,
        )

    @classmethod
    def _make(
        cls,
        *,
        n: int,
        hands: list[int],
        stock: list[Tile],
        drawn: int,
        ends: int,
        actions: list[Action],
        current: int,
        leader: int,
        lacks: list[int],
        outcome: Outcome | None,
        scores: tuple[int, ...],
        dealt: int,
        seed: int | None,
        line: Line | None,
        line_at: int,
        line_mask: int,
        draws: list[int],
        sample: tuple[int, int | None] | None = None,
    ) -> Round:
        """The one place that sets every field: a new field is added here, or nowhere.

        ``line_mask`` (the tiles on the line) and ``draws`` (tiles each seat has drawn) are
        public facts kept move by move, so that encoders need not replay the history."""
        self = object.__new__(cls)
        self._n = n
        self._hands = hands
        self._stock = stock
        self._drawn = drawn
        self._ends = ends
        self._actions = actions
        self._current = current
        self._leader = leader
        self._lacks = lacks
        self._outcome = outcome
        self._scores = scores
        self._dealt = dealt
        self._seed = seed
        self._line = line
        self._line_at = line_at
        self._line_mask = line_mask
        self._draws = draws
        self._sample = sample
        return self

    def __init__(self) -> None:
        raise TypeError(
            "a Round is dealt, not built: use Round.new(players, seed=...) or "
            "Round.from_deal(hands, boneyard, leader)"
        )

    def clone(self) -> Round:
        """An independent copy (for search), of the same class."""
        return type(self)._make(
            n=self._n,
            hands=self._hands[:],
            stock=self._stock,
            drawn=self._drawn,
            ends=self._ends,
            actions=self._actions[:],
            current=self._current,
            leader=self._leader,
            lacks=self._lacks[:],
            outcome=self._outcome,
            scores=self._scores,
            dealt=self._dealt,
            seed=self._seed,
            line=self._line,
            line_at=self._line_at,
            line_mask=self._line_mask,
            draws=self._draws[:],
            sample=self._sample,
        )

    @classmethod
    def template_from_view(cls, view: PlayerView, known_hands: list[int]) -> Round:
        """The position of ``view`` with only ``known_hands`` (one mask a seat) and no
        boneyard: not playable until a sampler completes it with ``with_hidden``."""
        n = view.players
        values = view.line.end_values
        outcome = view.outcome
        credits = outcome.credits if outcome else (0,) * n
        stock = [ALL_TILES[0]] * TILES  # the drawn slots the viewer knows, the rest filler
        slot, drawn = n * hand_size_for(n), iter(view.drawn_tiles)
        for seat, action in view.history:
            if type(action) is Draw:
                if seat == view.player:
                    stock[slot] = next(drawn)
                slot += 1
        return cls._make(
            n=n,
            hands=known_hands,
            stock=stock,
            drawn=TILES,
            ends=ends_code(values[0], values[1]) if values else EMPTY,
            actions=[action for _, action in view.history],
            current=view.current_player,
            leader=view.leader,
            lacks=[sum(1 << v for v in lacked) for lacked in view.lacking],
            outcome=outcome,
            scores=tuple(s - c for s, c in zip(view.scores, credits, strict=True)),
            dealt=-1,
            seed=None,
            line=view.line,
            line_at=len(view.history),
            line_mask=sum(tile.bit for tile in view.line.tiles),
            draws=list(view.draws),
            sample=(len(view.history), view.player),
        )

    def with_hidden(self, hands: dict[int, int], boneyard: list[Tile]) -> Round:
        """A copy with the hidden ``hands`` (seat: mask) and the ``boneyard`` (in draw
        order) filled in; of the drawn part of the stock only the viewer's draws are known."""
        other = self.clone()
        for seat, mask in hands.items():
            other._hands[seat] = mask
        other._drawn = drawn = TILES - len(boneyard)
        other._stock = self._stock[:drawn] + boneyard
        return other

    # ----------------------------------------------------------------- state

    @property
    def players(self) -> int:
        return self._n

    @property
    def leader(self) -> int:
        return self._leader

    @property
    def current_player(self) -> int:
        """The seat to act; once the round is over, the seat that acted last."""
        return self._current

    @property
    def seed(self) -> int | None:
        """The seed this round was dealt from, if it was dealt by ``new`` with a seed."""
        return self._seed

    @property
    def deal(self) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]]:
        """The initial hands (sorted) and boneyard order, for records."""
        if self._dealt < 0:
            raise ValueError("a sampled round has no known deal")
        size, tiles = self._dealt // self._n, self._stock
        hands = tuple(tuple(sorted(tiles[i * size : i * size + size])) for i in range(self._n))
        return hands, tuple(tiles[self._dealt :])

    @property
    def scores(self) -> tuple[int, ...]:
        """The match scores at the start of this round (zeros outside a match)."""
        return self._scores

    @property
    def target(self) -> int:
        return target_for(self._n)

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        """``None`` while the round runs; then how it ended and what it scored."""
        return self._outcome

    @property
    def line(self) -> Line:
        """The line, kept up to date by placing only the tiles played since it was last
        asked for: actions are only ever appended, so the cached line stays a prefix."""
        line = self._line
        done = self._line_at
        if line is None or done < 0:
            line, done = Line(), 0
        if line is not self._line or done != len(self._actions):
            for action in self._actions[done:]:
                if isinstance(action, Place):
                    line = line.place(action.tile, action.end)
            self._line = line
            self._line_at = len(self._actions)
        return line

    @property
    def end_values(self) -> tuple[int, ...]:
        """The two values the line accepts; empty before the opening."""
        return ends_values(self._ends)

    @property
    def boneyard_size(self) -> int:
        return TILES - self._drawn

    @property
    def drawable(self) -> int:
        """Tiles that can still be drawn (R2)."""
        return max(0, LAST_DRAW - self._drawn)

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """The remaining boneyard in draw order: hidden information (R21)."""
        return tuple(self._stock[self._drawn :])

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """Every ``(seat, action)`` so far; draws carry no tile, so this is public (R21)."""
        seat, n, out = self._leader, self._n, []
        for action in self._actions:
            out.append((seat, action))
            if type(action) is not Draw:
                seat = (seat + 1) % n
        return tuple(out)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action so far, in order (the history without seats)."""
        return tuple(self._actions)

    def ply(self) -> int:
        """Actions taken in this round so far."""
        return len(self._actions)

    @property
    def consecutive_passes(self) -> int:
        count = 0
        for action in reversed(self._actions):
            if type(action) is not Pass:
                break
            count += 1
        return count

    def hand(self, player: int) -> tuple[Tile, ...]:
        """The tiles seat ``player`` holds, in tile order (hidden from the others, R21)."""
        return tiles_of_mask(self._hands[self._seat(player)])

    def hand_mask(self, player: int) -> int:
        return self._hands[self._seat(player)]

    def hand_size(self, player: int) -> int:
        return self._hands[self._seat(player)].bit_count()

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(map(int.bit_count, self._hands))

    def lacking(self, player: int) -> frozenset[int]:
        """Values ``player`` is known not to hold: the end values it passed on."""
        mask = self._lacks[self._seat(player)]
        return frozenset(v for v in range(VALUES) if mask >> v & 1)

    @property
    def lack_masks(self) -> tuple[int, ...]:
        """Per seat, bit ``v`` set when it is known to lack value ``v``: ``lacking`` as
        bitmasks, public (R5), for encoders that must not rebuild a view."""
        return tuple(self._lacks)

    @property
    def is_opening(self) -> bool:
        """No tile is on the line yet: the next placement opens it (R7, R9)."""
        return self._ends == EMPTY

    def fields(self) -> RoundFields:
        """The state as plain numbers, in one call, for encoders that run on every step
        (the research environments): a copy, so nothing done with it changes the round.
        It holds every hand: what a seat may see is the caller's to choose (R21)."""
        return _new_fields(  # RoundFields(...) without its __new__'s Python frame
            RoundFields,
            (
                self._n,
                tuple(self._hands),
                self._outcome,
                self._scores,
                tuple(self._lacks),
                self._ends,
                self._drawn,
                self._current,
                self._leader,
                self._line_mask,
                tuple(self._draws),
            ),
        )

    def _seat(self, player: int) -> int:
        if type(player) is not int or not 0 <= player < self._n:
            raise ValueError(f"no seat {player!r}: seats are 0 to {self._n - 1}")
        return player

    # ----------------------------------------------------------------- turns

    def legal_actions(self) -> list[Action]:
        """Exactly the legal actions (R5–R7), in a fixed order.

        Placements at end 0 (by tile), then at end 1 (by tile), then draw or pass;
        an opening lists every hand tile.
        """
        if self._outcome is not None:
            return []
        ends = self._ends
        if ends == EMPTY:  # the opening: rare, so the general function
            return legal_actions(self._hands[self._current], ends, self._drawn)
        # ``legal.legal_actions`` inlined: this is the hottest call of every search.
        hand = self._hands[self._current]
        at0, mask0, at1, mask1 = BY_ENDS[ends]
        return at0[hand & mask0] + at1[self._drawn < LAST_DRAW][hand & mask1] or [PASS]

    def legal_action_ids(self) -> list[int]:
        """The legal actions' ids (``action.id``, 0 … 57), ascending: the integer fast path
        for search and learning, with ``apply_id``."""
        return sorted(action.id for action in self.legal_actions())

    def apply_id(self, action_id: int) -> None:
        """``apply`` the action with id ``action_id`` (on an empty line, an even id opens)."""
        self.apply(action_for_id(action_id, self._ends == EMPTY))

    def draw_tile(self, tile: Tile) -> None:
        """The current player draws ``tile``, which must be in the boneyard: for a chance
        node that chooses the tile drawn. The boneyard is reordered to put it on top, so
        the round no longer comes from its seed."""
        if self._outcome is not None:
            raise IllegalActionError("the round is over", "round_over")
        drawn, stock = self._drawn, self._stock
        if drawn >= LAST_DRAW:
            self.apply(DRAW)  # refused as any draw from a closed boneyard (R2)
        at = next((i for i in range(drawn, TILES) if stock[i] is tile), -1)
        if at < 0:
            raise IllegalActionError(
                f"{tile} is not in the boneyard", "not_in_boneyard", tile=str(tile)
            )
        if at != drawn:
            stock = stock[:]  # clones share the stock: reorder a copy of it
            stock[drawn], stock[at] = stock[at], stock[drawn]
            self._stock = stock
            self._seed = None
        self.apply(DRAW)

    def check(self, action: object) -> IllegalActionError | None:
        """Why ``action`` may not be played now (the error ``apply`` would raise), or
        ``None`` when it may: a refusal's reason without trying it on a copy."""
        if self._outcome is not None:
            return IllegalActionError("the round is over", "round_over")
        match action:
            case Place(tile=tile, index=index):
                if self._hands[self._current] & tile.bit and AFTER[index][self._ends] >= 0:
                    return None
                return self._why_not(action)
            case Draw():
                if self._drawn >= LAST_DRAW:
                    left = TILES - self._drawn
                    return IllegalActionError(
                        f"no drawing: the boneyard is down to {left} tiles, which stay undrawn",
                        "no_draw",
                        left=left,
                    )
                return None
            case Pass():
                if self._drawn < LAST_DRAW:
                    return IllegalActionError(
                        "no passing while you can draw: draw or place", "pass_can_draw"
                    )
                if self._hands[self._current] & PLAYABLE[self._ends]:
                    return IllegalActionError(
                        "no passing with a playable tile: place it", "pass_can_place"
                    )
                return None
        return IllegalActionError(f"not an action: {action!r}", "not_an_action", thing=repr(action))

    def apply(self, action: Action) -> None:
        """Play ``action`` for the current player; IllegalActionError changes nothing (R8)."""
        if self._outcome is not None:
            raise IllegalActionError("the round is over", "round_over")
        seat = self._current
        # ``type(action) is`` rather than ``match``: type checkers narrow it alike, and
        # class patterns cost this hottest line of every search twice the time.
        if type(action) is Place:
            hand, bit = self._hands[seat], action.tile.bit
            ends = AFTER[action.index][self._ends]
            if not hand & bit or ends < 0:
                raise self._why_not(action)
            self._ends = ends
            hand ^= bit
            self._hands[seat] = hand
            self._line_mask |= bit
            self._actions.append(action)
            if hand:
                self._current = (seat + 1) % self._n
            else:
                self._settle(Termination.DOMINO)
        elif type(action) is Draw:
            drawn = self._drawn
            if drawn >= LAST_DRAW:
                raise self._refusal(action)
            self._hands[seat] |= self._stock[drawn].bit
            self._drawn = drawn + 1
            self._draws[seat] += 1
            self._actions.append(action)
        elif type(action) is Pass:
            if self._drawn < LAST_DRAW or self._hands[seat] & PLAYABLE[self._ends]:
                raise self._refusal(action)
            end0, end1 = ends_values(self._ends)
            self._lacks[seat] |= (1 << end0) | (1 << end1)
            self._actions.append(action)
            if self.consecutive_passes >= self._n:
                self._settle(Termination.BLOCKED)
            else:
                self._current = (seat + 1) % self._n
        else:
            raise self._refusal(action)

    def undo(self) -> Action:
        """Take back the last action and return it, restoring the exact state before it
        (python-chess's ``pop``); a finished round is open again. Nothing to take back
        (or, in a sampled round, an action from before the sample) is an error."""
        if len(self._actions) <= (0 if self._sample is None else self._sample[0]):
            raise IllegalActionError("there is no action to take back", "nothing_to_undo")
        action = self._actions.pop()
        finished, self._outcome = self._outcome is not None, None
        seat = self._current if finished else (self._current - 1) % self._n
        match action:
            case Place(tile=tile, end=end):
                self._hands[seat] |= tile.bit
                self._line_mask ^= tile.bit
                if end is None:
                    self._ends = EMPTY
                else:
                    values = list(ends_values(self._ends))
                    values[end] = tile.other(values[end])
                    self._ends = ends_code(values[0], values[1])
                if self._line_at > len(self._actions):
                    self._line, self._line_at = None, -1
            case Draw():
                seat = self._current
                self._drawn -= 1
                self._hands[seat] ^= self._stock[self._drawn].bit
                self._draws[seat] -= 1
            case Pass():
                self._lacks[seat] = self._passed_on(seat)
        self._current = seat
        return action

    def _why_not(self, action: Place) -> IllegalActionError:
        """The error for a placement that does not fit."""
        tile, end, seat = action.tile, action.end, self._current
        if not self._hands[seat] & tile.bit:
            return IllegalActionError(
                f"player {seat} does not hold {tile}", "not_held", player=seat, tile=str(tile)
            )
        if self._ends == EMPTY:
            return IllegalActionError(
                f"the line is empty: {tile} opens it, written {tile}, not {action}",
                "opening_written",
                tile=str(tile),
                action=str(action),
            )
        if end is None:
            return IllegalActionError(
                f"the line is open: say which end, {tile}@0 or {tile}@1",
                "which_end",
                tile=str(tile),
            )
        value = ends_values(self._ends)[end]
        return IllegalActionError(
            f"{tile} does not match end {end}, which shows {value}",
            "no_match",
            tile=str(tile),
            end=end,
            value=value,
        )

    def _refusal(self, action: object) -> IllegalActionError:
        """The error for an action already found illegal."""
        error = self.check(action)
        if error is None:
            raise AssertionError(f"{action} was found illegal and legal at once")
        return error

    def _passed_on(self, player: int) -> int:
        """The values ``player`` passed on this round, from the history (R5): what
        ``lacking`` holds, worked out again after a pass is taken back."""
        ends, lacks = EMPTY, 0
        for seat, action in self.history:
            if type(action) is Place:
                ends = AFTER[action.index][ends]
            elif type(action) is Pass and seat == player:
                end0, end1 = ends_values(ends)
                lacks |= (1 << end0) | (1 << end1)
        return lacks

    def _settle(self, kind: Termination) -> None:
        self._outcome = settle(kind, tuple(map(pips_of_mask, self._hands)), self._current)

    # ----------------------------------------------------------------- information

    def view(self, player: int | None) -> PlayerView:
        """What seat ``player`` may see (R21); all hands once the round is over. ``None``:
        the public view, what anyone watching may see (no hand, no legal actions)."""
        seat = None if player is None else self._seat(player)
        outcome = self._outcome
        over = outcome is not None
        return PlayerView(
            player=seat,
            players=self._n,
            leader=self._leader,
            current_player=self._current,
            hand=() if seat is None else tiles_of_mask(self._hands[seat]),
            line=self.line,
            boneyard_size=TILES - self._drawn,
            hand_sizes=self.hand_sizes,
            scores=self._scores if outcome is None else _plus(self._scores, outcome.credits),
            target=target_for(self._n),
            history=self.history,
            legal_actions=tuple(self.legal_actions()) if seat == self._current else (),
            outcome=self._outcome,
            revealed_hands=tuple(tiles_of_mask(h) for h in self._hands) if over else (),
            drawn_tiles=() if seat is None else self.drawn_tiles(seat),
        )

    def drawn_tiles(self, player: int) -> tuple[Tile, ...]:
        """The tiles seat ``player`` drew this round, in order: its own to know, hidden
        from the others (R21). A sampled round knows another seat's draws only from
        after the sample."""
        seat, known_from = self._seat(player), 0
        if self._sample is not None and self._sample[1] != seat:
            known_from = self._sample[0]
        who, n, slot, stock, out = (
            self._leader,
            self._n,
            self._n * hand_size_for(self._n),
            self._stock,
            [],
        )
        for number, action in enumerate(self._actions):
            if type(action) is Draw:
                if who == seat and number >= known_from:
                    out.append(stock[slot])
                slot += 1
            else:
                who = (who + 1) % n
        return tuple(out)

    # ----------------------------------------------------------------- position text

    def to_text(self) -> str:
        """The position as one line of text (python-chess's ``fen``): players, leader,
        scores, every hand, the boneyard in draw order, the line, the moves (each draw with
        its tile), the seat to move and the seed; ``Round.from_text`` reads it back.
        A sampled round has none: the tiles others drew before the sample are unknown."""
        if self._dealt < 0:
            raise ValueError("a sampled round has no position text: earlier draws are unknown")
        moves: list[Move] = []
        slot = self._dealt
        for action in self._actions:
            moves.append((action, self._stock[slot] if type(action) is Draw else None))
            slot += type(action) is Draw
        return " ".join(
            (
                str(self._n),
                str(self._leader),
                ",".join(map(str, self._scores)),
                "/".join(tiles_text(tiles_of_mask(hand)) for hand in self._hands),
                tiles_text(self.boneyard),
                line_text(self.line),
                moves_text(moves),
                str(self._current),
                NONE if self._seed is None else str(self._seed),
            )
        )

    @classmethod
    def from_text(cls, text: str) -> Round:
        """The round of a ``to_text`` position, replayed from the deal it implies, so that
        every field is as it was; a damaged text is a ``PositionError`` naming the part."""
        fields = text.split() if isinstance(text, str) else []
        if len(fields) != 9:
            raise PositionError(
                "fields",
                "a round's position has 9 fields (players, leader, scores, hands, boneyard,"
                f" line, moves, seat to move, seed), not {len(fields)}",
            )
        n = integer(fields[0], "players", RULES.min_players, RULES.max_players)
        leader = integer(fields[1], "leader", 0, n - 1)
        scores = integers(fields[2], "scores", n)
        hand_texts = fields[3].split("/")
        if len(hand_texts) != n:
            raise PositionError("hands", f"{len(hand_texts)} hands for {n} players")
        hands = [parse_tiles(t, f"hands (seat {seat})") for seat, t in enumerate(hand_texts)]
        boneyard = parse_tiles(fields[4], "boneyard")
        moves = parse_moves(fields[6])
        seed = None if fields[8] == NONE else integer(fields[8], "seed")
        placed: list[set[Tile]] = [set() for _ in range(n)]
        drawn: list[list[Tile]] = [[] for _ in range(n)]
        seat = leader
        for number, (action, tile) in enumerate(moves, 1):
            if type(action) is Draw:
                if tile is None:
                    raise PositionError(f"moves (move {number})", "a draw names its tile: d25")
                drawn[seat].append(tile)
                continue
            if type(action) is Place:
                placed[seat].add(action.tile)
            seat = (seat + 1) % n
        dealt = []
        for seat in range(n):
            held = set(hands[seat])
            if len(held) != len(hands[seat]) or held & placed[seat]:
                raise PositionError(f"hands (seat {seat})", "a tile stands twice")
            if not set(drawn[seat]) <= held | placed[seat]:
                raise PositionError(
                    f"hands (seat {seat})", "a tile it drew is neither held nor placed"
                )
            dealt.append(sorted((held | placed[seat]) - set(drawn[seat])))
        try:
            round_ = cls.from_deal(
                dealt, [t for _, t in moves if t] + list(boneyard), leader, scores=scores, seed=seed
            )
        except ValueError as error:
            raise PositionError("hands and boneyard", str(error)) from None
        for number, (action, tile) in enumerate(moves, 1):
            refusal = round_.check(action)
            if refusal is not None:
                raise PositionError(
                    f"moves (move {number}, {move_text(action, tile)})", str(refusal)
                )
            round_.apply(action)
        if line_text(round_.line) != fields[5]:
            raise PositionError(
                "line", f"the moves lay out {line_text(round_.line)}, not {fields[5]}"
            )
        if fields[7] != str(round_.current_player):
            raise PositionError(
                "seat to move", f"after the moves seat {round_.current_player} is to move"
            )
        return round_

    def sample_hidden(self, player: int, rng: random.Random) -> Round:
        """A copy whose hidden tiles are re-dealt uniformly among deals ``player`` cannot rule out.

        Built from ``self.view(player)`` alone, so it cannot leak what the player may not see.
        """
        return sample_from_view(self.view(player), rng)

    def __repr__(self) -> str:
        state = "over" if self._outcome else f"player {self._current} to act"
        left = TILES - self._drawn
        return f"<Round {self._n} players, {state}, line {self.line}, boneyard {left}>"


# --------------------------------------------------------------------- determinization


def sample_from_view(view: PlayerView, rng: random.Random) -> Round:
    """A full round consistent with ``view``, drawn uniformly from all consistent ones.

    The hidden tiles (everything outside the viewer's hand and the line) are dealt to
    the other hands by size, no hand getting a value its owner is known to lack
    (it passed on it), and the rest form the boneyard in random order. To draw many
    rounds from one view, prepare a ``ViewSampler`` once instead.
    """
    return ViewSampler(view).sample(rng)


class ViewSampler:
    """Draws full rounds consistent with one view, preparing what every draw shares once.

    Search bots determinize the same view thousands of times a move; the hidden tiles,
    the hand sizes and what each seat lacks do not change between those draws.
    ``ViewSampler(view).sample(rng)`` gives exactly what ``sample_from_view(view, rng)``
    gives for the same ``rng`` state.
    """

    __slots__ = (
        "_finished",
        "_forbidden",
        "_hidden",
        "_hidden_bits",
        "_others",
        "_sizes",
        "_template",
    )

    def __init__(self, view: PlayerView) -> None:
        n = view.players
        outcome = view.outcome
        lacking = view.lacking
        if outcome is not None:
            # After the round nothing is hidden but the boneyard order, which no longer matters.
            hands = [sum(t.bit for t in h) for h in view.revealed_hands]
            known = sum(hands) | sum(t.bit for t in view.line.tiles)
            self._others: list[int] = []
            self._sizes: list[int] = []
            self._forbidden: list[int] = []
        else:
            if view.player is None:
                raise ValueError("the public view has no seat to sample the hidden tiles for")
            own = sum(t.bit for t in view.hand)
            known = own | sum(t.bit for t in view.line.tiles)
            hands = [0] * n
            hands[view.player] = own
            self._others = [seat for seat in range(n) if seat != view.player]
            self._sizes = [view.hand_sizes[seat] for seat in self._others]
            self._forbidden = [_values_mask(lacking[seat]) for seat in self._others]
        # The round every draw starts from: the view's position with only the known hands.
        self._template = Round.template_from_view(view, hands)
        self._finished = outcome is not None
        self._hidden = [t for t in ALL_TILES if not known & t.bit]
        self._hidden_bits = [t.bit for t in self._hidden]
        if outcome is None and len(self._hidden) != sum(self._sizes) + view.boneyard_size:
            raise ValueError("inconsistent view: hidden tiles do not match hand and boneyard sizes")

    def sample(self, rng: random.Random) -> Round:
        """One full round, drawn uniformly from those consistent with the view."""
        hidden = self._hidden
        hands: dict[int, int] = {}
        if self._finished:
            stock = hidden[:]
        else:
            dealt = _deal_hidden(hidden, self._hidden_bits, self._sizes, self._forbidden, rng)
            dealt_mask = 0
            for seat, mask in zip(self._others, dealt):
                hands[seat] = mask
                dealt_mask |= mask
            stock = [t for t in hidden if not dealt_mask & t.bit]
        rng.shuffle(stock)
        return self._template.with_hidden(hands, stock)


def _values_mask(values: frozenset[int]) -> int:
    """The tiles showing any of ``values`` (masks overlap, so OR them, never add)."""
    mask = 0
    for value in values:
        mask |= VALUE_MASKS[value]
    return mask


_REJECTION_TRIES: Final = 50


def _deal_hidden(
    hidden: list[Tile], bits: list[int], sizes: list[int], forbidden: list[int], rng: random.Random
) -> list[int]:
    """Uniformly deal hands of ``sizes`` from ``hidden``; hand i gets no tile in ``forbidden[i]``.

    ``bits`` are the hidden tiles' bits. Rejection sampling is uniform and fast when
    few values are known missing; when it keeps failing, an exact count of completions
    takes over.
    """
    pool = bits[:]
    constrained = any(forbidden)
    for _ in range(_REJECTION_TRIES if constrained else 1):
        rng.shuffle(pool)
        masks, start = [], 0
        for size in sizes:
            masks.append(sum(pool[start : start + size]))
            start += size
        if not constrained or not any(mask & banned for mask, banned in zip(masks, forbidden)):
            return masks
    return _deal_exact(hidden, sizes, forbidden, rng)


def _deal_exact(
    hidden: list[Tile], sizes: list[int], forbidden: list[int], rng: random.Random
) -> list[int]:
    """Exact uniform sampling: tile by tile, each destination weighted by its completions."""
    k = len(sizes)
    # Destinations 0..k-1 are the hands, k is the boneyard (which takes anything).
    allowed = [tuple(d for d in range(k) if not forbidden[d] & t.bit) + (k,) for t in hidden]
    capacity = tuple(sizes) + (len(hidden) - sum(sizes),)

    @cache
    def completions(i: int, caps: tuple[int, ...]) -> int:
        if i == len(hidden):
            return 1
        total = 0
        for d in allowed[i]:
            if caps[d]:
                total += completions(i + 1, caps[:d] + (caps[d] - 1,) + caps[d + 1 :])
        return total

    caps = capacity
    if completions(0, caps) == 0:
        raise ValueError("inconsistent view: no deal satisfies what the opponents lack")
    masks = [0] * k
    for i, tile in enumerate(hidden):
        pick = rng.randrange(completions(i, caps))
        for d in allowed[i]:
            if not caps[d]:
                continue
            nxt = caps[:d] + (caps[d] - 1,) + caps[d + 1 :]
            weight = completions(i + 1, nxt)
            if pick < weight:
                if d < k:
                    masks[d] |= tile.bit
                caps = nxt
                break
            pick -= weight
    return masks


def _plus(scores: tuple[int, ...], credits: tuple[int, ...]) -> tuple[int, ...]:
    """The scores with a finished round's credits added."""
    return tuple(score + credit for score, credit in zip(scores, credits, strict=True))
