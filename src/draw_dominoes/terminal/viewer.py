"""The replay viewer: rebuilds each round from its deal and tells every move, step by step."""

from __future__ import annotations

from pathlib import Path

from ..actions import Draw
from ..i18n import explain_outcome
from ..line import Line
from ..match import Match
from ..round import Round
from .moves import describe_line
from .saves import SavedSeat
from .screen import Screen
from .words import Words

__all__ = ["Viewer", "laid_out"]


def laid_out(line: Line) -> str:
    """The line as it lies, each tile's halves in the order they are seen from the left
    end: ``[1|1] [1|4] [4|4] [4|3]``."""
    return " ".join(f"[{a}|{b}]" for a, b in line.faces) if line.tiles else "-"


class Stop(Exception):
    """The viewer asked to stop."""


class Viewer:
    """Shows finished rounds in full (their hands are revealed anyway); an unfinished round of a
    save shows only what every player may see (R21), so a replay never spoils a resumed match."""

    def __init__(self, seats: tuple[SavedSeat, ...], lang: str, screen: Screen, step: bool) -> None:
        self.words = Words(lang)
        self.lang = lang
        self.screen = screen
        self.step = step
        self.names = [self.words.seat_name(seat, number) for number, seat in enumerate(seats)]

    def _heading(self, path: Path, players: int, target: int, seed: int | None) -> None:
        """The seed deals every round, so it is named only once the game is over (R21)."""
        if seed is None:
            self.screen.say(
                self.words("replay_heading_no_seed", path=path, players=players, target=target)
            )
        else:
            self.screen.say(
                self.words("replay_heading", path=path, players=players, seed=seed, target=target)
            )

    def show_match(self, match: Match, path: Path) -> None:
        words = self.words
        self._heading(path, match.players, match.target, match.seed if match.is_over else None)
        rounds = list(match.rounds)
        if not match.is_over:
            rounds.append(match.current_round)
        scores = [0] * match.players
        try:
            for number, round_ in enumerate(rounds, 1):
                self.screen.blank()
                self.screen.heading(
                    words("round_heading", number=number, name=self.names[round_.leader])
                )
                self._moves(round_)
                if round_.outcome is not None:
                    for seat, credit in enumerate(round_.outcome.credits):
                        scores[seat] += credit
                    self._settle(round_, number, scores, match.target)
        except Stop:
            return
        self.screen.blank()
        if match.is_over:
            from ..i18n import translate

            names = words.names([self.names[seat] for seat in match.winners])
            key = "common.match_drawn" if match.is_draw else "common.match_won"
            self.screen.heading(words("match_over"))
            self.screen.say(translate(key, self.lang, names=names, score=max(match.scores)))
        else:
            self.screen.say(words("replay_unfinished", path=path))

    def show_round(self, round_: Round, path: Path) -> None:
        self._heading(path, round_.players, round_.target, round_.seed if round_.is_over else None)
        self.screen.heading(self.words("replay_round_only", name=self.names[round_.leader]))
        try:
            self._moves(round_)
            if round_.outcome is not None:
                scores = [s + c for s, c in zip(round_.scores, round_.outcome.credits)]
                self._settle(round_, 1, scores, round_.target)
        except Stop:
            return

    def _moves(self, round_: Round) -> None:
        words, screen = self.words, self.screen
        finished = round_.is_over
        hands, boneyard = round_.deal
        replayed = Round.from_deal(hands, boneyard, round_.leader, scores=round_.scores)
        if finished:
            screen.say(words("replay_deal"))
            for seat, hand in enumerate(hands):
                screen.say(
                    "  ", words("dealt_hand", name=self.names[seat], tiles=words.tiles(hand))
                )
            screen.say("  ", words("replay_boneyard", tiles=words.tiles(boneyard)))
        else:
            screen.say(words("replay_hidden"))
        steps: list[tuple[str, Line]] = []
        for seat, action in round_.history:
            before = replayed.hand(seat)
            replayed.apply(action)
            drawn = None
            if finished and isinstance(action, Draw):
                (drawn,) = set(replayed.hand(seat)) - set(before)
            steps.append((words.action(self.names[seat], action, drawn), replayed.line))
        index = 0
        while index < len(steps):
            told, line = steps[index]
            screen.say(f"{index + 1}. ", told)
            screen.say("   ", words("line"), ": ", laid_out(line))
            index = max(0, index + self._pause(line, first=index == 0))

    def _pause(self, line: Line, *, first: bool) -> int:
        """Where to go from a move: 1 (the next), -1 (back to the one before), or Stop."""
        while self.step:
            try:
                answer = self.screen.ask(self.words("replay_prompt")).strip().lower()
            except EOFError:
                raise Stop from None
            if answer == "q":
                raise Stop
            if answer == "a":
                self.step = False
            elif answer == "b":
                if not first:
                    return -1
                self.screen.say(self.words("replay_at_first"))
                continue
            elif answer == "?":
                self.screen.say(describe_line(line, self.words))
                continue
            elif answer:
                self.screen.say(self.words("replay_unknown", text=answer[:24]))
                continue
            return 1
        return 1

    def _settle(self, round_: Round, number: int, scores: list[int], target: int) -> None:
        words, screen = self.words, self.screen
        outcome = round_.outcome
        assert outcome is not None
        screen.heading(words("round_over", number=number))
        screen.say(words("hands_revealed"))
        for seat in range(round_.players):
            hand = round_.hand(seat)
            total = sum(tile.pips for tile in hand)
            screen.say(
                "  ",
                words("revealed_hand", name=self.names[seat], tiles=words.tiles(hand), total=total),
            )
        screen.say(explain_outcome(outcome, self.names, self.lang))
        board = ", ".join(f"{name} {score}" for name, score in zip(self.names, scores))
        screen.say(words("scores", scores=board, target=target))
