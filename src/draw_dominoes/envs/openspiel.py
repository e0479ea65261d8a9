"""OpenSpiel game ``python_draw_dominoes``: one round of Draw, registered on import.

Chance nodes: the lot for the leader (R4), then the deal one tile at a time (seat 0's
hand first), then one chance node after every ``draw``, choosing which boneyard tile
comes up, uniformly. Player actions use the shared ids of ``encoding``. Returns are
zero-sum: a seat's credited points minus the average credited to the others (with two
players, plus or minus the points of the round). An action that is not legal here, or
not one of the chance outcomes at a chance node, raises ``IllegalActionError`` and
changes nothing (R8).

Information states and observations are built from ``round.view(player)`` alone (R21):
the string and tensor give the seat's hand and the public history, so two histories that
differ only in the order in which the seat drew its own tiles share an information state
(the order changes nothing that follows). The public-only observer
(``private_info=NONE``) gives the leader, scores and history, never a hand tile, the
deal included. ``resample_from_infostate`` deals the hidden tiles again with
``draw_dominoes.sample_from_view``, which is what OpenSpiel's ISMCTS bot needs.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from ..actions import Draw, IllegalActionError, Place
from ..round import Round, hand_size_for, sample_from_view
from ..rules import RULES
from ..tiles import ALL_TILES, Tile
from ..view import PlayerView
from ._table import rewards_for
from .encoding import (
    DRAW_ID,
    MAX_SEATS,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    action_id,
    action_name,
    id_to_action,
    observation,
)

__all__ = ["GAME_TYPE", "DrawDominoesGame", "DrawDominoesState", "max_player_actions"]

_TOTAL_PIPS = sum(tile.pips for tile in ALL_TILES)  # 168: no round can credit more


def max_player_actions(players: int) -> int:
    """An upper bound on the decisions in one round.

    At most 26 placements (two tiles stay in the boneyard) and 28 - 2 - dealt draws; fewer
    than ``players`` passes in a row between placements, then the blocking passes (R14).
    """
    dealt = players * hand_size_for(players)
    placements, draws = 26, 28 - 2 - dealt
    return placements + draws + players * (placements + 1)


GAME_TYPE = pyspiel.GameType(
    short_name="python_draw_dominoes",
    long_name="Python Draw dominoes",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2},
)


class DrawDominoesGame(pyspiel.Game):  # type: ignore[misc]
    """One round of Draw for ``players`` (2–4) seats."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = params or {}
        players = int(params.get("players", 2))
        RULES.check_players(players)
        self.players = players
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=len(ALL_TILES),
            num_players=players,
            min_utility=-float(_TOTAL_PIPS) / (players - 1),
            max_utility=float(_TOTAL_PIPS),
            utility_sum=0.0,
            max_game_length=max_player_actions(players),
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> DrawDominoesState:
        return DrawDominoesState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> DrawObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return DrawObserver(self, iig_obs_type)


class DrawDominoesState(pyspiel.State):  # type: ignore[misc]
    """Chance deals and draws on top of a core ``Round``; the rules stay in the core."""

    def __init__(self, game: DrawDominoesGame) -> None:
        super().__init__(game)
        self._n = game.players
        self._size = hand_size_for(self._n)
        self._leader: int | None = None
        self._dealt: list[Tile] = []
        self._drawn: list[Tile] = []
        self._round: Round | None = None
        self._drawing = False

    # ----------------------------------------------------------------- core access

    @property
    def round(self) -> Round:
        """The core round (after the deal)."""
        if self._round is None:
            raise ValueError("the tiles are still being dealt")
        return self._round

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see (R21)."""
        return self.round.view(player)

    def _hidden_pool(self) -> list[Tile]:
        """Tiles in nobody's hand and not on the line: the boneyard, as a set."""
        held = sum(self.round.hand_mask(p) for p in range(self._n))
        placed = sum(t.bit for t in self.round.line.tiles)
        return [t for t in ALL_TILES if not (held | placed) & t.bit]

    # ----------------------------------------------------------------- OpenSpiel API

    def current_player(self) -> int:
        if self._round is not None and self._round.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._round is None or self._drawing:
            return int(pyspiel.PlayerId.CHANCE)
        return self._round.current_player

    def is_terminal(self) -> bool:
        return self._round is not None and self._round.is_over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._leader is None:
            return [(seat, 1.0 / self._n) for seat in range(self._n)]
        if self._round is None:
            taken = {t.index for t in self._dealt}
            left = [i for i in range(len(ALL_TILES)) if i not in taken]
        else:
            left = [t.index for t in self._hidden_pool()]
        return [(i, 1.0 / len(left)) for i in left]

    def _legal_actions(self, player: int) -> list[int]:
        if self._round is None or self._drawing or player != self._round.current_player:
            return []
        return sorted(action_id(a) for a in self._round.legal_actions())

    def _apply_action(self, action: int) -> None:
        """Apply ``action``; one that is not a legal action or chance outcome here is refused.

        A refused action raises ``IllegalActionError`` and changes nothing (R8), so the
        state never reaches a node it cannot leave (a draw from a closed boneyard, a leader
        who is not at the table, a tile dealt twice).
        """
        self._check_legal(action)
        if self._leader is None:
            self._leader = action
        elif self._round is None:
            self._dealt.append(ALL_TILES[action])
            if len(self._dealt) == self._n * self._size:
                hands = [self._dealt[i * self._size : (i + 1) * self._size] for i in range(self._n)]
                rest = [t for t in ALL_TILES if t not in self._dealt]
                self._round = Round.from_deal(hands, rest, self._leader)
        elif self._drawing:
            self._draw(ALL_TILES[action])
        elif action == DRAW_ID:
            self._drawing = True
        else:
            self._round.apply(id_to_action(action, not self._round.end_values))

    def _check_legal(self, action: int) -> None:
        player = self.current_player()
        if player == pyspiel.PlayerId.TERMINAL:
            raise IllegalActionError(f"the round is over: action {action} is not legal")
        if player == pyspiel.PlayerId.CHANCE:
            if action not in {outcome for outcome, _ in self.chance_outcomes()}:
                raise IllegalActionError(
                    f"{action} is not a chance outcome here; the outcomes are "
                    f"{[outcome for outcome, _ in self.chance_outcomes()]}"
                )
        elif action not in self._legal_actions(player):
            raise IllegalActionError(
                f"action {action} is not legal for player {player}; "
                f"the legal actions are {self._legal_actions(player)}"
            )

    def _draw(self, tile: Tile) -> None:
        """Let the drawing seat take ``tile``, the chance outcome: no round is rebuilt."""
        self.round.draw_tile(tile)
        self._drawn.append(tile)
        self._drawing = False

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._leader is None:
                return f"leader {action}"
            return f"{'draw' if self._round is not None else 'deal'} {ALL_TILES[action]}"
        return action_name(action)

    def returns(self) -> list[float]:
        if self._round is None or self._round.outcome is None:
            return [0.0] * self._n
        return list(rewards_for(self._round.outcome, "relative"))

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> DrawDominoesState:
        """A state ``player_id`` cannot tell from this one, hidden tiles dealt anew."""
        if self._round is None:
            raise ValueError("resampling needs a dealt round")
        rng = random.Random(int(probability_sampler() * 2**53))
        sampled = sample_from_view(self._round.view(player_id), rng)
        hands, drawn = _a_deal_behind(sampled, self._size)
        state = DrawDominoesState(self.get_game())
        state.take_over(sampled, [t for hand in hands for t in hand], drawn, self._drawing)
        return state

    def take_over(self, round_: Round, dealt: list[Tile], drawn: list[Tile], drawing: bool) -> None:
        """Continue from ``round_``, as if ``dealt`` had been dealt and ``drawn`` drawn."""
        self._leader = round_.leader
        self._dealt = dealt
        self._drawn = drawn
        self._round = round_
        self._drawing = drawing

    @property
    def is_dealt(self) -> bool:
        """Whether the chance nodes of the deal are behind us and a round is being played."""
        return self._round is not None

    def describe(self, player: int) -> str:
        """The view of ``player`` as text: own hand, then the public facts and history (R21)."""
        return f"{self.private_text(player)}; {self.public_text()}"

    def private_text(self, player: int) -> str:
        """What only ``player`` knows: its hand (while dealing, the tiles dealt to it so far)."""
        if player < 0:
            raise ValueError(f"no information state for player {player}")
        if self._round is None:
            size = self._size
            mine = self._dealt[player * size : (player + 1) * size]
            return f"p{player} dealing, hand {' '.join(map(str, mine))}"
        return f"p{player} hand {' '.join(map(str, self.view(player).hand))}"

    def public_text(self) -> str:
        """What every seat knows: the leader, the scores and the history; no hand tile (R21)."""
        if self._round is None:
            leader = "not drawn" if self._leader is None else self._leader
            return f"dealing; leader {leader}; dealt {len(self._dealt)}"
        round_ = self._round
        history = " ".join(f"{seat}:{action}" for seat, action in round_.history)
        return f"leader {round_.leader}; scores {list(round_.scores)}; history {history}" + (
            "; drawing" if self._drawing else ""
        )

    def information_state_string(self, player: int | None = None) -> str:
        return self.describe(self.current_player() if player is None else player)

    def observation_string(self, player: int | None = None) -> str:
        return self.describe(self.current_player() if player is None else player)

    def __str__(self) -> str:
        if self._round is None:
            return f"dealing: {' '.join(map(str, self._dealt))}"
        hands = " | ".join(" ".join(map(str, self._round.hand(p))) for p in range(self._n))
        return f"hands: {hands}; {self._round!r}" + ("; drawing" if self._drawing else "")


def _a_deal_behind(sampled: Round, size: int) -> tuple[list[list[Tile]], list[Tile]]:
    """A deal and draw order that lead to ``sampled``'s position through its public history.

    Each seat's drawn tiles are taken from its current hand first; if it drew more tiles
    than it still holds, the ones it placed last were drawn, matched to its earliest draws
    so that every tile was in hand before it was placed.
    """
    history = sampled.history
    n = sampled.players
    hands: list[list[Tile]] = []
    drawn_at: dict[int, Tile] = {}
    for seat in range(n):
        slots = [i for i, (s, a) in enumerate(history) if s == seat and isinstance(a, Draw)]
        placed = [
            (i, a.tile) for i, (s, a) in enumerate(history) if s == seat and isinstance(a, Place)
        ]
        holding = list(sampled.hand(seat))
        from_hand = holding[: len(slots)]
        extra = len(slots) - len(from_hand)
        late = sorted(placed[len(placed) - extra :]) if extra else []
        chosen = [tile for _, tile in late] + from_hand
        for slot, tile in zip(slots, chosen):
            drawn_at[slot] = tile
        drawn_set = set(chosen)
        ever = holding + [tile for _, tile in placed]
        hands.append([t for t in ever if t not in drawn_set])
        if len(hands[-1]) != size:
            raise AssertionError("a rebuilt hand has the wrong size")
    drawn = [drawn_at[i] for i in sorted(drawn_at)]
    return hands, drawn


class DrawObserver:
    """OpenSpiel's Python observer: the shared observation vector, and the history for recall.

    ``perfect_recall=True`` (the information state) appends one row per decision so far:
    the acting seat relative to the viewer (4) and the action id (58), one-hot.
    """

    def __init__(self, game: DrawDominoesGame, iig_obs_type: Any) -> None:
        self._private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self._public = bool(iig_obs_type.public_info)
        self._recall = bool(iig_obs_type.perfect_recall)
        pieces: list[tuple[str, int, tuple[int, ...]]] = [
            ("observation", OBSERVATION_SIZE, (OBSERVATION_SIZE,))
        ]
        if self._recall:
            rows = max_player_actions(game.players)
            pieces.append(
                ("history", rows * (MAX_SEATS + NUM_ACTIONS), (rows, MAX_SEATS + NUM_ACTIONS))
            )
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        index = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[index : index + size].reshape(shape)
            index += size

    def set_from(self, state: DrawDominoesState, player: int) -> None:
        self.tensor.fill(0)
        if not state.is_dealt:
            return
        view = state.view(player)
        vector = observation(view)
        if not self._private:
            vector[: len(ALL_TILES)] = 0  # the hand is the only private part
        if not self._public:
            vector[len(ALL_TILES) :] = 0
        self.dict["observation"][:] = vector
        if self._recall and self._public:
            rows = self.dict["history"]
            for row, (seat, action) in enumerate(view.history):
                rows[row, (seat - player) % view.players] = 1
                rows[row, MAX_SEATS + action_id(action)] = 1

    def string_from(self, state: DrawDominoesState, player: int) -> str:
        if not self._private:
            if player < 0:
                raise ValueError(f"no observation for player {player}")
            return state.public_text()
        if not self._public:
            return state.private_text(player)
        return state.describe(player)


pyspiel.register_game(GAME_TYPE, DrawDominoesGame)
