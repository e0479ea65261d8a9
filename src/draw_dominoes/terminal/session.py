"""One match at the terminal: bots move, people type, the save is rewritten after every action."""

from __future__ import annotations

from pathlib import Path

from ..actions import Action, Draw, Pass, Place
from ..game import play as take_turns
from ..i18n import explain_outcome, port_label, translate
from ..match import Match
from ..round import Round
from ..tiles import Tile
from ..view import PlayerView
from .hands import hand_order, last_drawn
from .moves import ChooseEnd, Command, Refusal, describe_line, read_end, read_move
from .saves import SavedSeat
from .screen import Part, Screen
from .sitting import Sitting

__all__ = ["Quit", "Session"]

PLAYABLE = "bold green"
DIM = "dim"
VALUE = "bold yellow"


class Quit(Exception):
    """The player asked to stop; the match is already saved."""


class Typed:
    """A person's seat (``draw_dominoes.game.Player``): the move is typed at the keyboard."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def choose(self, view: PlayerView) -> Action:
        return self.session.human_turn(view)


class Session(Sitting):
    """Plays ``match`` to its end (or until a person quits), showing each seat only its view."""

    def __init__(
        self,
        match: Match,
        seats: tuple[SavedSeat, ...],
        lang: str,
        screen: Screen,
        save_path: Path,
        hints: bool = False,
    ) -> None:
        self.sit(match, seats, lang, save_path, hints)
        self.screen = screen
        self.hints_offered = False  # ! was typed with hints off: again switches them on
        self.seen = dict.fromkeys(self.humans, 0)  # per person: history entries already shown
        self.shown = 0  # history entries shown to whoever sits at the keyboard
        self.at_keyboard: int | None = None
        self.heading = ""  # the current round's heading, shown again after a hand-over

    def tell(self, text: str, style: str) -> None:
        self.screen.say((text, style) if style else text)

    # ----------------------------------------------------------------- the match

    def play(self, resumed: bool = False) -> int:
        """Play on until the match is over; 0, also when a person quits (the match is saved)."""
        try:
            self._announce_round()
            if resumed:  # show what happened so far in this round, since nobody saw it
                self.seen = dict.fromkeys(self.humans, 0)
                self.shown = 0
            players = {seat: Typed(self) for seat in self.humans} | self.bot_seats
            round_ = self.match.current_round
            for seat, action in take_turns(self.match, players):  # the one turn loop
                self._played(round_, seat, action)
                round_ = self.match.current_round
            self._announce_winner()
        except (Quit, EOFError, KeyboardInterrupt):
            self.screen.blank()
            if self.save(tell=False):  # again: the last save may have failed or been interrupted
                self.screen.say(self.words("saved_quit", path=self.save_path))
            else:
                self.screen.say(
                    (self.words("not_saved_quit", problem=self.save_problem), "bold red")
                )
        return 0

    def _played(self, round_: Round, seat: int, action: Action) -> None:
        """Tell a move as its seat may see it, save, and settle the round it ended."""
        if not self.humans:
            self.screen.say(self.words.action(self.names[seat], action))
        elif self.seats[seat].is_human:
            drawn = last_drawn(round_.view(seat)) if isinstance(action, Draw) else None
            self.screen.say(self.words.own_action(action, drawn))
            self.seen[seat] = self.shown = len(round_.actions)
        self.save()
        if round_.is_over:
            self._round_over(round_)
            if not self.match.is_over:
                self._announce_round()

    def _announce_round(self) -> None:
        round_ = self.match.current_round
        number = len(self.match.rounds) + 1
        self.screen.blank()
        self.heading = self.words("round_heading", number=number, name=self.names[round_.leader])
        self.screen.heading(self.heading)
        self.seen = dict.fromkeys(self.humans, len(round_.actions))
        self.shown = len(round_.actions)

    def _round_over(self, round_: Round) -> None:
        words = self.words
        if self.humans:
            for seat, action in round_.history[self.shown :]:
                self.screen.say(words.action(self.names[seat], action))
        number = len(self.match.rounds)
        outcome = round_.outcome
        assert outcome is not None
        self.screen.blank()
        self.screen.heading(words("round_over", number=number))
        self.screen.say(words("line"), ": ", str(round_.line))
        self.screen.say(words("hands_revealed"))
        view = round_.view(0)
        for seat, hand in enumerate(view.revealed_hands):
            total = sum(tile.pips for tile in hand)
            self.screen.say(
                "  ",
                words("revealed_hand", name=self.names[seat], tiles=words.tiles(hand), total=total),
            )
        self.screen.say((explain_outcome(outcome, self.names, self.lang), "bold"))
        self._scoreboard()
        if self.humans and not self.match.is_over:
            answer = self.screen.ask(words("next_round_prompt"))
            if answer.strip().lower() in ("q", "quit"):
                raise Quit

    def _scoreboard(self) -> None:
        scores = self.words.scores(self.names, self.match.scores)
        self.screen.say(self.words("scores", scores=scores, target=self.match.target))

    def _announce_winner(self) -> None:
        match = self.match
        best = max(match.scores)
        names = self.words.names([self.names[seat] for seat in match.winners])
        key = "common.match_drawn" if match.is_draw else "common.match_won"
        self.screen.blank()
        self.screen.heading(self.words("match_over"))
        self.screen.say((translate(key, self.lang, names=names, score=best), "bold magenta"))
        self.screen.say(self.words("match_seed", seed=match.seed))  # no secret any more
        if self.save_problem is None or self.save(tell=False):
            self.screen.say(self.words("saved_at", path=self.save_path))
        else:
            self.screen.say((self.words("not_saved_end", problem=self.save_problem), "bold red"))

    # ----------------------------------------------------------------- a person's turn

    def _hand_over(self, seat: int) -> None:
        """Hot seat: hide the last hand and wait until the next person has the keyboard."""
        if self.at_keyboard == seat:
            return
        if len(self.humans) > 1:
            if self.at_keyboard is not None:  # a hand is on the screen: hide it first
                self.screen.clear()
            self.screen.blank()  # before the first hand nothing is secret: the welcome stays
            answer = self.screen.ask(self.words("hand_over", name=self.names[seat]))
            if answer.strip().lower() in ("q", "quit"):
                raise Quit
            if self.screen.clear() and self.heading:  # the round's heading, read again
                self.screen.heading(self.heading)
        self.at_keyboard = seat

    def human_turn(self, view: PlayerView) -> Action:
        """A person's move, typed (asked again until it is a legal one)."""
        assert view.player is not None  # the terminal shows a seat's own view
        self._hand_over(view.player)
        self._show_turn(view)
        hand = hand_order(view)
        while True:
            reading = read_move(self.screen.ask(self._prompt(view, hand)), view, self.words, hand)
            while isinstance(reading, ChooseEnd):  # asked again until it is an end or a command
                choice = reading
                answer = read_end(
                    self.screen.ask(self._end_prompt(choice, view)), choice, view, self.words
                )
                if isinstance(answer, Refusal):
                    self.screen.say((answer.message, "bold red"))
                elif isinstance(answer, Command) and answer.name != "quit":
                    self._command(answer, view)
                else:
                    reading = answer
            if isinstance(reading, Refusal):
                self.screen.say((reading.message, "bold red"))
            elif isinstance(reading, Command):
                self._command(reading, view)
            else:
                return reading

    def _command(self, command: Command, view: PlayerView) -> None:
        if command.name == "quit":
            raise Quit
        if command.name == "describe":
            self.screen.say(describe_line(view.line, self.words))
        elif command.name == "hint":
            self._hint(view)
        else:
            self.screen.say(self.words("help"))

    def _hint(self, view: PlayerView) -> None:
        """The analysis's best action for this seat's view, if the match allows hints."""
        if not self.hints:
            if not self.hints_offered:  # a second ! switches them on, for the rest of it
                self.hints_offered = True
                self.screen.say(self.words("hints_off"))
                return
            self.hints = True
            self.save()
            self.screen.say(self.words("hints_on_now"))
        from ..analysis import hint_as_reviewed
        from ..i18n import explain_hint

        # As the review of this match will value the move: following it is never a mistake.
        hint = hint_as_reviewed(view, len(self.match.rounds))
        text = explain_hint(hint.best, hint.alternative, hint.gain, view.line, self.lang)
        self.screen.say((self.words("hint", text=text), "bold cyan"))

    def _show_turn(self, view: PlayerView) -> None:
        words, screen, seat = self.words, self.screen, view.player
        assert seat is not None  # the terminal shows a seat's own view
        screen.blank()
        screen.heading(words("turn_heading", name=self.names[seat]))
        if self.save_problem is not None:  # also for whoever missed the message (hot seat)
            screen.say((words("unsaved_note", problem=self.save_problem), "bold red"))
        start = self.seen[seat]
        news = view.history[start:]
        if news:
            acted = any(who == seat for who, _ in view.history[:start])
            screen.say(words("since_last_turn" if acted else "so_far"))
            drawn = view.own_draws
            for number, (who, action) in enumerate(news, start):
                if who == seat:  # after a resume: your own moves, as you made them
                    screen.say("  ", words.own_action(action, drawn.get(number)))
                else:
                    screen.say("  ", words.action(self.names[who], action))
        self.seen[seat] = self.shown = len(view.history)
        self._scoreboard()
        screen.say(words("boneyard", size=view.boneyard_size, drawable=view.drawable))
        others = ", ".join(
            words(
                "hand_size_one" if view.hand_sizes[other] == 1 else "hand_size",
                name=self.names[other],
                count=view.hand_sizes[other],
            )
            for other in range(view.players)
            if other != seat
        )
        screen.say(words("opponents" if view.players > 2 else "opponent_one", hands=others))
        self._show_line(view)
        playable = {a.tile for a in view.legal_actions if isinstance(a, Place)}
        parts: list[Part] = [words("your_hand"), ":"]
        for number, tile in enumerate(hand_order(view), 1):
            mark = "*" if tile in playable else ""
            parts += ["  ", (f"{number} {tile}{mark}", PLAYABLE if tile in playable else DIM)]
        screen.say(*parts)
        if playable:
            screen.say(words("playable_legend"))

    def _show_line(self, view: PlayerView) -> None:
        words, line = self.words, view.line
        if line.is_empty:
            self.screen.say(words("line"), ": ", words("line_empty"))
            return
        text = str(line)
        first, last = text.split(" ", 1)[0], text.rsplit(" ", 1)[-1]
        middle = text[len(first) : len(text) - len(last)] if len(line) > 1 else ""
        if len(line) == 1:
            self.screen.say(words("line"), ": ", (first, VALUE))
        else:
            self.screen.say(words("line"), ": ", (first, VALUE), middle, (last, VALUE))
        left, right = line.ends
        self.screen.say(
            words(
                "free_ends",
                left=left.value,
                left_tile=left.tile,
                left_port=port_label(left.port, self.lang),
                right=right.value,
                right_tile=right.tile,
                right_port=port_label(right.port, self.lang),
            )
        )

    def _prompt(self, view: PlayerView, hand: list[Tile]) -> str:
        words = self.words
        options = []
        numbers = [
            str(number)
            for number, tile in enumerate(hand, 1)
            if any(isinstance(a, Place) and a.tile == tile for a in view.legal_actions)
        ]
        if numbers:
            options.append(words("option_tile", numbers=", ".join(numbers)))
        if Draw() in view.legal_actions:
            options.append(words("option_draw"))
        if Pass() in view.legal_actions:
            options.append(words("option_pass"))
        options.append(words("option_describe"))
        if self.hints:
            options.append(words("option_hint"))
        options.append(words("option_quit"))
        return words("your_move", options="; ".join(options))

    def _end_prompt(self, choice: ChooseEnd, view: PlayerView) -> str:
        values = view.line.end_values
        return self.words("which_end", tile=choice.tile, left=values[0], right=values[1])
