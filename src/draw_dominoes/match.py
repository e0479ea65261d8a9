"""Match: rounds to the target, the leader rotating clockwise (R19–R20)."""

from __future__ import annotations

import random
from typing import Any

from .actions import Action, IllegalActionError
from .round import Round, check_players, new_seed
from .view import PlayerView, target_for

__all__ = ["Match"]


class Match:
    """A match of Draw: one seeded shuffle per round; ``apply`` settles and deals on."""

    __slots__ = (
        "_current",
        "_dealt_from",
        "_first_leader",
        "_n",
        "_rng",
        "_rounds",
        "_scores",
        "_seed",
    )

    _n: int
    _seed: int
    _rng: random.Random
    _first_leader: int
    _scores: list[int]
    _rounds: list[Round]
    _current: Round
    _dealt_from: list[tuple[Any, ...]]
    """The generator's state before each round was dealt, so that ``undo`` can un-deal."""

    def __init__(self, players: int, seed: int | None = None, first_leader: int | None = None):
        n = check_players(players)
        self._n = n
        self._seed = new_seed() if seed is None else seed
        self._rng = random.Random(self._seed)
        lot = self._rng.randrange(n)  # R4: a fair lot, drawn even when the leader is given,
        if first_leader is None:  # so that the seed deals the same rounds either way
            first_leader = lot
        elif type(first_leader) is not int or not 0 <= first_leader < n:
            raise ValueError(f"the first leader is a seat from 0 to {n - 1}, not {first_leader!r}")
        self._first_leader = first_leader
        self._scores = [0] * n
        self._rounds = []
        self._dealt_from = []
        self._current = self._deal(first_leader)

    @classmethod
    def new(cls, players: int, seed: int | None = None, first_leader: int | None = None) -> Match:
        """A match for ``players`` seats; the first leader by lot unless given (R4)."""
        return cls(players, seed, first_leader)

    def _deal(self, leader: int) -> Round:
        self._dealt_from.append(self._rng.getstate())
        return Round.new(self._n, leader=leader, rng=self._rng, scores=self._scores)

    def clone(self) -> Match:
        other = object.__new__(Match)
        other._n = self._n
        other._seed = self._seed
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other._first_leader = self._first_leader
        other._scores = self._scores[:]
        other._rounds = self._rounds[:]  # finished rounds never change
        other._current = self._current.clone()
        other._dealt_from = self._dealt_from[:]
        return other

    @property
    def players(self) -> int:
        return self._n

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def first_leader(self) -> int:
        return self._first_leader

    @property
    def target(self) -> int:
        """100 with two players, 61 with three or four (R20)."""
        return target_for(self._n)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    @property
    def rounds(self) -> tuple[Round, ...]:
        """The finished rounds, in order, each with its leader and outcome."""
        return tuple(self._rounds)

    @property
    def current_round(self) -> Round:
        """The round being played; once the match is over, the last round."""
        return self._current

    @property
    def current_player(self) -> int:
        return self._current.current_player

    @property
    def is_over(self) -> bool:
        return max(self._scores) >= self.target

    @property
    def winners(self) -> list[int]:
        """The seats with the highest score once the match is over (R20); empty before."""
        if not self.is_over:
            return []
        best = max(self._scores)
        return [seat for seat, score in enumerate(self._scores) if score == best]

    @property
    def is_draw(self) -> bool:
        """The match ended with more than one seat on the highest score (R20)."""
        return len(self.winners) > 1

    def ply(self) -> int:
        """Actions taken in the match so far, every round's (python-chess's ``ply``): the
        number of the next decision, which seeds it."""
        return sum(len(r.actions) for r in self._rounds) + (
            0 if self.is_over else self._current.ply()
        )

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over else self._current.legal_actions()

    def view(self, player: int | None) -> PlayerView:
        """What seat ``player`` may see of the current round (``None``: the public view)."""
        return self._current.view(player)

    def check(self, action: object) -> IllegalActionError | None:
        """Why ``action`` may not be played now, or ``None`` when it may (``Round.check``)."""
        if self.is_over:
            return IllegalActionError("the match is over", "match_over")
        return self._current.check(action)

    def apply(self, action: Action) -> None:
        """Play in the current round; a finished round is settled and the next one dealt."""
        if self.is_over:
            raise IllegalActionError("the match is over", "match_over")
        current = self._current
        current.apply(action)
        outcome = current.outcome
        if outcome is None:
            return
        for seat, credit in enumerate(outcome.credits):
            self._scores[seat] += credit
        self._rounds.append(current)
        if not self.is_over:
            self._current = self._deal((current.leader + 1) % self._n)  # R19

    def undo(self) -> Action:
        """Take back the last action of the match and return it: a round it had finished
        is open again, its credits taken off the scores and the round dealt after it
        undealt, so the same seed deals it again."""
        current = self._current
        if not current.actions and self._rounds and not self.is_over:
            self._rng.setstate(self._dealt_from.pop())  # un-deal the round dealt last
            current = self._rounds[-1]
        if current.outcome is not None:  # the round is finished: open it again
            for seat, credit in enumerate(current.outcome.credits):
                self._scores[seat] -= credit
            self._rounds.pop()
            current = current.clone()  # clones of this match share the finished round
        self._current = current
        return current.undo()

    def __repr__(self) -> str:
        state = f"winners {self.winners}" if self.is_over else f"round {len(self._rounds) + 1}"
        return f"<Match {self._n} players, scores {self.scores}, {state}>"
