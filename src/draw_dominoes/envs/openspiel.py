"""OpenSpiel game ``python_draw_dominoes``: one round of Draw, registered on import.

Chance nodes: the lot for the leader (R4), then the deal one tile at a time (seat 0's
hand first), then one chance node after every ``draw``, choosing which boneyard tile
comes up, uniformly. Player actions use the shared ids of ``encoding``. Returns are
zero-sum: a seat's credited points minus the average credited to the others (with two
players, plus or minus the points of the round). An action that is not legal here, or
not one of the chance outcomes at a chance node, raises ``IllegalActionError`` and
changes nothing (R8).

Information states and observations hold what ``round.view(player)`` shows and no more
(R21): the string and tensor give the seat's hand and the public history, so two
histories that differ only in the order in which the seat drew its own tiles share an
information state (the order changes nothing that follows). The tensors come from the
engine's bitmasks through ``encoding.Tracker``, equal to the view's encoding without
building a view. The public-only observer (``private_info=NONE``) gives the leader,
scores and history, never a hand tile, the deal included; the all-players observer
(``private_info=ALL_PLAYERS``) adds every hand, for analysis and perfect-information
baselines. ``resample_from_infostate`` deals the hidden tiles again with
``draw_dominoes.ViewSampler``, which is what OpenSpiel's Python ISMCTS bot needs.

OpenSpiel clones a Python state by making a new initial state and ``copy.deepcopy``-ing
each attribute: the state keeps everything that changes in one ``_Play`` whose
``__deepcopy__`` is a ``Round.clone``, so search pays for no generic deep copy.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from ..actions import IllegalActionError
from ..round import Round, ViewSampler, hand_size_for
from ..rules import RULES
from ..tiles import ALL_TILES, Tile
from ..view import PlayerView
from ._table import rewards_for
from .encoding import (
    DRAW_ID,
    MAX_SEATS,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    Tracker,
    action_name,
    id_to_action,
    max_decisions,
    observation_bytes,
)

__all__ = ["GAME_TYPE", "DrawDominoesGame", "DrawDominoesState", "max_player_actions"]

_TOTAL_PIPS = sum(tile.pips for tile in ALL_TILES)  # 168: no round can credit more
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_HAND_SIZE = len(ALL_TILES)
"""The own-hand slice comes first in the observation vector; everything after it is public."""


max_player_actions: Final = max_decisions
"""An upper bound on the decisions in one round (``encoding.max_decisions``): OpenSpiel's
``max_game_length`` and the history rows of the information-state tensor."""


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
        self.blank_play = _Play(players, shared=True)
        """Where every new state starts; shared until a state changes it (then copied)."""
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


class _Play:
    """Everything a state changes as it plays, in one object so that a clone is one copy.

    ``tracker`` (the public facts the fast observation needs) and ``samplers`` (prepared
    determinizations by seat) are caches: a copy starts without them and builds them
    again when asked, and a pickle leaves them out. A ``shared`` play (the game's blank
    one, which every new state starts from) is copied before its first change.
    """

    __slots__ = (
        "dealt",
        "drawing",
        "leader",
        "players",
        "round",
        "samplers",
        "shared",
        "size",
        "tracker",
    )

    def __init__(
        self,
        players: int,
        leader: int | None = None,
        dealt: tuple[Tile, ...] = (),
        round_: Round | None = None,
        drawing: bool = False,
        shared: bool = False,
    ) -> None:
        self.players = players
        self.size = hand_size_for(players)
        self.leader = leader
        self.dealt = dealt
        """The tiles dealt so far, in deal order (seat 0's hand first); a tuple, so shared."""
        self.round = round_
        self.drawing = drawing
        """A seat chose ``draw``: the chance node choosing its tile is next."""
        self.shared = shared
        self.tracker: Tracker | None = None
        self.samplers: dict[int, ViewSampler] | None = None

    def copy(self) -> _Play:
        """An independent copy: the round cloned, the immutable parts shared, no caches."""
        other: _Play = _new(_Play)
        other.players = self.players
        other.size = self.size
        other.leader = self.leader
        other.dealt = self.dealt
        round_ = self.round
        other.round = None if round_ is None else round_.clone()
        other.drawing = self.drawing
        other.shared = False
        other.tracker = None
        other.samplers = None
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Play, (self.players, self.leader, self.dealt, self.round, self.drawing))


_new = object.__new__
"""A ``_Play`` without ``__init__``: ``copy`` sets every field itself, on the clone path."""


class DrawDominoesState(pyspiel.State):  # type: ignore[misc]
    """Chance deals and draws on top of a core ``Round``; the rules stay in the core."""

    def __init__(self, game: DrawDominoesGame) -> None:
        super().__init__(game)
        self._play = game.blank_play

    def __deepcopy__(self, memo: dict[int, Any]) -> DrawDominoesState:
        """``copy.deepcopy`` is ``clone``: OpenSpiel's history and the round, nothing shared."""
        clone: DrawDominoesState = self.clone()
        return clone

    # ----------------------------------------------------------------- core access

    @property
    def round(self) -> Round:
        """The core round (after the deal)."""
        round_ = self._play.round
        if round_ is None:
            raise ValueError("the tiles are still being dealt")
        return round_

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see (R21)."""
        return self.round.view(player)

    def sample_hidden(self, player: int, rng: random.Random) -> Round:
        """A full round ``player`` cannot tell from this one (``Round.sample_hidden``), as
        the other adapters give it; ``resample_from_infostate`` is OpenSpiel's form."""
        return self.round.sample_hidden(player, rng)

    @property
    def is_dealt(self) -> bool:
        """Whether the chance nodes of the deal are behind us and a round is being played."""
        return self._play.round is not None

    def all_hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Every seat's tiles, by seat; while dealing, the tiles dealt to each so far.

        Hidden information (R21): for the all-players observer and for tests, never for
        a seat's own observation.
        """
        play = self._play
        round_ = play.round
        if round_ is not None:
            return tuple(round_.hand(seat) for seat in range(play.players))
        dealt, size = play.dealt, play.size
        return tuple(dealt[seat * size : (seat + 1) * size] for seat in range(play.players))

    def encoded_observation(self, player: int) -> bytes:
        """``encoding.observation(round.view(player))`` as float32 bytes, without the view.

        The tracker of public facts is made on first use and kept up to date by
        ``_apply_action``; a clone makes its own when it is first observed.
        """
        play = self._play
        tracker = play.tracker
        if tracker is None:
            tracker = play.tracker = Tracker(self.round)
        return observation_bytes(tracker, player)

    # ----------------------------------------------------------------- OpenSpiel API

    def current_player(self) -> int:
        play = self._play
        round_ = play.round
        if round_ is None or play.drawing:
            return _CHANCE
        if round_.outcome is not None:
            return _TERMINAL
        return round_.current_player

    def is_terminal(self) -> bool:
        round_ = self._play.round
        return round_ is not None and round_.outcome is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        play = self._play
        if play.leader is None:
            return [(seat, 1.0 / play.players) for seat in range(play.players)]
        left = self._chance_tiles()
        return [(i, 1.0 / len(left)) for i in left]

    def _chance_tiles(self) -> list[int]:
        """The tiles a chance node can bring, by index: those not yet dealt, or the
        boneyard as a set (its order stays hidden, and draws come up uniformly)."""
        play = self._play
        round_ = play.round
        if round_ is None:
            taken = {t.index for t in play.dealt}
            return [i for i in range(len(ALL_TILES)) if i not in taken]
        return sorted(t.index for t in round_.boneyard)

    def _legal_actions(self, player: int) -> list[int]:
        play = self._play
        round_ = play.round
        if round_ is None or play.drawing or player != round_.current_player:
            return []
        return round_.legal_action_ids()

    def _apply_action(self, action: int) -> None:
        """Apply ``action``; one that is not a legal action or chance outcome here is refused.

        A refused action raises ``IllegalActionError`` and changes nothing (R8), so the
        state never reaches a node it cannot leave (a draw from a closed boneyard, a leader
        who is not at the table, a tile dealt twice). A drawn tile goes straight into the
        round (``Round.draw_tile``): nothing is rebuilt.
        """
        play = self._play
        if play.shared:
            play = self._play = play.copy()
        round_ = play.round
        if round_ is None or play.drawing:
            outcomes = range(play.players) if play.leader is None else self._chance_tiles()
            if action not in outcomes:
                raise IllegalActionError(
                    f"{action} is not a chance outcome here; the outcomes are {list(outcomes)}"
                )
            if play.leader is None:
                play.leader = action
            elif round_ is None:
                play.dealt = dealt = (*play.dealt, ALL_TILES[action])
                size, n = play.size, play.players
                if len(dealt) == n * size:
                    hands = [dealt[i * size : (i + 1) * size] for i in range(n)]
                    rest = [t for t in ALL_TILES if t not in dealt]
                    play.round = Round.from_deal(hands, rest, play.leader)
            else:
                round_.draw_tile(ALL_TILES[action])
                play.drawing = False
        elif round_.outcome is not None:
            raise IllegalActionError(f"the round is over: action {action} is not legal")
        else:
            seat = round_.current_player
            legal = round_.legal_action_ids()
            if action not in legal:
                raise IllegalActionError(
                    f"action {action} is not legal for player {seat}; the legal actions are {legal}"
                )
            if action == DRAW_ID:
                play.drawing = True
            else:
                round_.apply(id_to_action(action, not round_.end_values))
        play.samplers = None

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            if self._play.leader is None:
                return f"leader {action}"
            return f"{'draw' if self._play.round is not None else 'deal'} {ALL_TILES[action]}"
        return action_name(action)

    def returns(self) -> list[float]:
        round_ = self._play.round
        if round_ is None or round_.outcome is None:
            return [0.0] * self._play.players
        return list(rewards_for(round_.outcome, "relative"))

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> DrawDominoesState:
        """A state ``player_id`` cannot tell from this one, hidden tiles dealt anew.

        The sampler prepared from the seat's view is kept until the next action: ISMCTS
        resamples the same state once a simulation.
        """
        play = self._play
        round_ = play.round
        if round_ is None:
            raise ValueError("resampling needs a dealt round")
        rng = random.Random(int(probability_sampler() * 2**53))
        samplers = play.samplers
        if samplers is None:
            samplers = play.samplers = {}
        sampler = samplers.get(player_id)
        if sampler is None:
            sampler = samplers[player_id] = ViewSampler(round_.view(player_id))
        state = DrawDominoesState(self.get_game())
        state.take_over(sampler.sample(rng), play.drawing)
        return state

    def take_over(self, round_: Round, drawing: bool) -> None:
        """Continue from ``round_``, dealt already; ``drawing``: a chance draw is next."""
        self._play = _Play(round_.players, round_.leader, (), round_, drawing)

    # ----------------------------------------------------------------- text

    def describe(self, player: int) -> str:
        """The view of ``player`` as text: own hand, then the public facts and history (R21)."""
        return f"{self.private_text(player)}; {self.public_text()}"

    def private_text(self, player: int) -> str:
        """What only ``player`` knows: its hand (while dealing, the tiles dealt to it so far)."""
        if player < 0:
            raise ValueError(f"no information state for player {player}")
        play = self._play
        if play.round is None:
            size = play.size
            mine = play.dealt[player * size : (player + 1) * size]
            return f"p{player} dealing, hand {' '.join(map(str, mine))}"
        return f"p{player} hand {' '.join(map(str, play.round.hand(player)))}"

    def public_text(self) -> str:
        """What every seat knows: the leader, the scores and the history; no hand tile (R21)."""
        play = self._play
        round_ = play.round
        if round_ is None:
            leader = "not drawn" if play.leader is None else play.leader
            return f"dealing; leader {leader}; dealt {len(play.dealt)}"
        history = " ".join(f"{seat}:{action}" for seat, action in round_.history)
        return f"leader {round_.leader}; scores {list(round_.scores)}; history {history}" + (
            "; drawing" if play.drawing else ""
        )

    def hands_text(self) -> str:
        """Every hand by seat (hidden information, R21): the all-players observer's part."""
        hands = self.all_hands()
        return "hands " + " | ".join(
            f"p{seat} {' '.join(map(str, hand))}" for seat, hand in enumerate(hands)
        )

    def information_state_string(self, player: int | None = None) -> str:
        return self.describe(self.current_player() if player is None else player)

    def observation_string(self, player: int | None = None) -> str:
        return self.describe(self.current_player() if player is None else player)

    def __str__(self) -> str:
        play = self._play
        round_ = play.round
        if round_ is None:
            return f"dealing: {' '.join(map(str, play.dealt))}"
        hands = " | ".join(" ".join(map(str, round_.hand(p))) for p in range(play.players))
        return f"hands: {hands}; {round_!r}" + ("; drawing" if play.drawing else "")


class DrawObserver:
    """OpenSpiel's Python observer: the shared observation vector, the history for recall,
    and for ``private_info=ALL_PLAYERS`` every hand.

    ``perfect_recall=True`` (the information state) appends one row per decision so far:
    the acting seat relative to the viewer (4) and the action id (58), one-hot. The
    all-players observer puts a ``hands`` piece (4 x 28) after the observation: row ``r``
    is the hand of the seat ``r`` places clockwise of the viewer, as the observation
    counts seats; the other observers have no such piece, so their tensors are unchanged.
    """

    def __init__(self, game: DrawDominoesGame, iig_obs_type: Any) -> None:
        private = iig_obs_type.private_info
        self._everyone = private == pyspiel.PrivateInfoType.ALL_PLAYERS
        self._private = self._everyone or private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self._public = bool(iig_obs_type.public_info)
        self._recall = bool(iig_obs_type.perfect_recall)
        pieces: list[tuple[str, int, tuple[int, ...]]] = [
            ("observation", OBSERVATION_SIZE, (OBSERVATION_SIZE,))
        ]
        if self._everyone:
            pieces.append(("hands", MAX_SEATS * len(ALL_TILES), (MAX_SEATS, len(ALL_TILES))))
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
        if self._everyone:
            rows = self.dict["hands"]
            hands = state.all_hands()
            for seat, hand in enumerate(hands):
                rows[(seat - player) % len(hands), [t.index for t in hand]] = 1
        if not state.is_dealt:
            return
        vector = self.dict["observation"]
        vector[:] = np.frombuffer(state.encoded_observation(player), dtype=np.float32)
        if not self._private:
            vector[:_HAND_SIZE] = 0  # the hand is the only private part
        if not self._public:
            vector[_HAND_SIZE:] = 0
        if self._recall and self._public:
            history = state.round.history
            if history:
                n = state.round.players
                rows = self.dict["history"]
                at = np.arange(len(history))
                rows[at, [(seat - player) % n for seat, _ in history]] = 1
                rows[at, [MAX_SEATS + action.id for _, action in history]] = 1

    def string_from(self, state: DrawDominoesState, player: int) -> str:
        if self._everyone:
            if player < 0:
                raise ValueError(f"no observation for player {player}")
            if not self._public:
                return state.hands_text()
            return f"{state.hands_text()}; {state.public_text()}"
        if not self._private:
            if player < 0:
                raise ValueError(f"no observation for player {player}")
            return state.public_text()
        if not self._public:
            return state.private_text(player)
        return state.describe(player)


pyspiel.register_game(GAME_TYPE, DrawDominoesGame)
