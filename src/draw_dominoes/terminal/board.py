"""The full-screen terminal game (Textual): the line as tiles, the rack, the opponents, a log."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen, Screen
from textual.widgets import OptionList, RichLog, Static
from textual.widgets.option_list import Option

from .. import bots, record
from ..actions import Action, Draw, Pass, Place
from ..i18n import explain_outcome, translate
from ..match import Match
from ..round import Round
from ..tiles import Tile
from ..view import PlayerView
from .drawing import TALL_ROW, hand_tile, line_rows, snake_rows
from .hands import drawn_tile, hand_order, own_draws
from .moves import ChooseEnd, Refusal, at_end, describe_line, pass_refusal, read_tile
from .review import ReviewSettings
from .saves import Saved, SaveError, Seat, write_save
from .words import Words

__all__ = ["Board", "Farewell", "ResumeChooser", "Setup", "SetupChoice"]

NUMBER_PAUSE = 0.8
"""Seconds in which a second digit makes a two-digit tile number (10 and up)."""


@dataclass(frozen=True, slots=True)
class Farewell:
    """What the terminal shows once the app has closed (the save's path, how to go on)."""

    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TileLook:
    """How a tile of the rack is shown at the moment."""

    playable: bool
    selected: bool
    hinted: bool
    dimmed: bool
    raised: bool
    numerals: bool


class TileCell(Static):
    """One tile of the rack, drawn as a tile beside its number; a click chooses it, a
    second click places it."""

    def __init__(self, number: int, tile: Tile) -> None:
        super().__init__("", classes="tile", markup=False)
        self.number = number
        self.tile = tile

    def show(self, look: TileLook) -> None:
        """Where tiles stand tall, one that fits is raised above the others (as in the
        browser); where they lie flat, it is marked with * (never by colour alone). The
        others are dimmed while it is your turn; the cursor's number is reversed."""
        label = Text(f"{self.number:>2}", style="reverse bold" if look.selected else "")
        if look.hinted:
            label.stylize("underline")
        face = hand_tile((self.tile.low, self.tile.high), look.numerals, dim=look.dimmed)
        tile = Text.assemble(label, " ", face)
        if look.raised:
            self.update(Text("\n").join([tile, Text()] if look.playable else [Text(), tile]))
        else:
            self.update(Text.assemble(tile, "*" if look.playable else ""))
        self.set_class(look.raised, "raised")
        self.set_class(look.playable, "playable")
        self.set_class(look.selected, "selected")
        self.set_class(look.hinted, "hint")

    def on_click(self, event: events.Click) -> None:
        event.stop()
        table = self.screen
        if isinstance(table, Table):
            table.clicked_tile(self.number)


class EndMarker(Static):
    """An end of the line and the value it shows; a click places the chosen tile there."""

    def __init__(self, end: int) -> None:
        super().__init__("", classes="end", id="end-left" if end == 0 else "end-right")
        self.end = end

    def on_click(self, event: events.Click) -> None:
        event.stop()
        table = self.screen
        if isinstance(table, Table):
            table.clicked_end(self.end)


MIN_WIDTH, MIN_HEIGHT = 60, 20
"""The smallest terminal the board is laid out for (docs/terminal.md)."""
RACK_COLUMN = 10
"""Columns a tile of the rack takes: its number, the tile, a mark and a gap."""
NOTICE_WIDTH = 90
"""A notice's widest (its box is 90% of the screen, at most this)."""
ROOMY, TALL_LOG, SHORT_LOG = 30, 12, 3
"""From ROOMY rows up, tiles stand tall only while the log keeps TALL_LOG rows; below,
SHORT_LOG are enough."""


class Table(Screen[None]):
    """The table of one match, as the seat at the keyboard may see it."""

    app: Board

    def compose(self) -> ComposeResult:
        yield Static(id="too-small", markup=False)
        yield Static(id="heading", markup=False)
        yield Static(id="opponents", markup=False)
        with Vertical(id="line-box"):
            yield Static(id="line", markup=False)
            with Horizontal(id="ends"):
                yield EndMarker(0)
                yield Static(id="ends-gap")
                yield EndMarker(1)
        with Vertical(id="rack-box"):
            yield Container(id="rack")
        yield MovesLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
        yield Static(id="status", markup=False)

    def on_mount(self) -> None:
        board = self.app
        self.query_one("#line-box").border_title = board.words("line")
        self.query_one("#log").border_title = board.words("board_log")
        self.query_one("#log", MovesLog).can_focus = False
        board.table_ready()

    def on_resize(self, event: events.Resize) -> None:
        width, height = event.size
        small = self.query_one("#too-small", Static)
        small.display = width < MIN_WIDTH or height < MIN_HEIGHT
        if small.display:  # cut tiles and a missing status line would not say why
            words = self.app.words
            small.update(words("board_too_small", width=width, height=height))
        self.app.fit_rack()
        if self.app.started:  # the status line breaks between keys at the new width
            self.app.refresh_table()

    def on_key(self, event: events.Key) -> None:
        if self.app.key(event.key, event.character):
            event.stop()
            event.prevent_default()

    def clicked_tile(self, number: int) -> None:
        self.app.click_tile(number)

    def clicked_end(self, end: int) -> None:
        self.app.click_end(end)


class MovesLog(RichLog):
    """The moves so far. A RichLog wraps a line once, when it is written: this one keeps
    its lines, so that after a resize they are wrapped anew to the new width."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.told: list[Text] = []
        self.told_width = 0
        """The width the lines were wrapped to (0: not yet laid out)."""

    def tell(self, text: Text) -> None:
        self.told.append(text)
        self.write(text)
        if self.size.width:
            self.told_width = self.size.width

    def forget(self) -> None:
        self.told.clear()
        self.clear()

    def on_resize(self, event: events.Resize) -> None:
        width = event.size.width
        if self.told_width and width and width != self.told_width:
            self.told_width = width
            self.clear()
            for text in self.told:
                self.write(text)
            self.scroll_end(animate=False)


class Notice(ModalScreen[str]):
    """A screen of its own (the round's end, the match's end, the hand-over): text and the
    keys that close it, each dismissing with its name."""

    def __init__(self, title: str, body: Sequence[Text | str], keys: dict[str, str], footer: str):
        super().__init__(classes="notice")
        self.title_text = title
        self.body = body
        self.keys = keys
        self.footer = footer

    def compose(self) -> ComposeResult:
        with Vertical(id="notice-box"):
            yield Static(Text(self.title_text, style="bold"), id="notice-title")
            with VerticalScroll(id="notice-body"):
                for part in self.body:
                    yield Static(part, markup=False)
            yield Static(Text(self.footer, style="bold cyan"), id="notice-keys", markup=False)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        answer = self.keys.get(event.key)
        if answer is not None:
            self.dismiss(answer)
            return
        body = self.query_one("#notice-body", VerticalScroll)
        scroll = {
            "down": body.scroll_down,
            "up": body.scroll_up,
            "pagedown": body.scroll_page_down,
            "pageup": body.scroll_page_up,
            "home": body.scroll_home,
            "end": body.scroll_end,
        }.get(event.key)
        if scroll is not None:  # a small terminal: the rest of the body is below
            scroll(animate=False)

    def on_resize(self, event: events.Resize) -> None:
        """The body scrolls, so the keys below it stay on a small screen."""
        self.query_one("#notice-body").styles.max_height = max(3, event.size.height - 9)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        if "enter" in self.keys:
            self.dismiss(self.keys["enter"])


class Board(App[Farewell]):
    """Plays ``match`` to its end, or until a person quits: bots move in worker threads, the
    save is rewritten after every action, and each person sees only their own view."""

    CSS = """
    Screen { layout: vertical; }
    #too-small {
        dock: top; width: 100%; height: 100%; display: none; padding: 1 2;
        background: $error 25%; color: $text; text-style: bold;
    }
    #heading {
        height: auto; background: $primary-background; color: $text; text-style: bold;
        padding: 0 1;
    }
    #opponents { height: auto; padding: 0 1; }
    #line-box { height: auto; min-height: 4; border: round $secondary; padding: 0 1; }
    #line-box, #rack-box, #log { border-title-color: $text; border-title-style: bold; }
    #line { height: auto; }
    #ends { height: 1; }
    #ends-gap { width: 1fr; }
    .end { width: auto; color: $text-muted; }
    .end.lit { color: $warning; text-style: bold reverse; }
    .end.lit.hint { text-style: bold reverse underline; }
    #rack-box { height: auto; border: round $secondary; padding: 0 1; }
    #rack { layout: grid; grid-size: 8; grid-columns: 10; grid-rows: auto; height: auto; }
    .tile { width: 9; height: 1; color: $text-muted; }
    .tile.raised { height: 2; }
    .tile.playable { color: $success; text-style: bold; }
    .tile.selected { background: $accent; color: $text; text-style: bold; }
    #log {
        height: 1fr; min-height: 3; border: round $secondary; padding: 0 1;
        scrollbar-size-vertical: 1; overflow-x: hidden;
    }
    #status { height: auto; background: $boost; padding: 0 1; }
    Notice { align: center middle; background: $background; }  /* opaque: it hides the hand */
    #notice-box {
        width: 90%; max-width: 90; height: auto; max-height: 95%; border: thick $accent;
        padding: 0 1; background: $surface;
    }
    #notice-title { height: auto; margin-bottom: 1; }
    #notice-body { height: auto; max-height: 16; }
    #notice-keys { height: auto; margin-top: 1; }
    """

    def __init__(
        self,
        match: Match,
        seats: tuple[Seat, ...],
        lang: str,
        save_path: Path,
        hints: bool = False,
        *,
        pace: float = 0.6,
        notice: str | None = None,
        review: ReviewSettings | None = None,
        numerals: bool = False,
    ) -> None:
        super().__init__()
        self.match = match
        self.seats = seats
        self.lang = lang
        self.words = Words(lang)
        self.save_path = save_path
        self.hints = hints
        self.pace = pace
        self.notice = notice
        self.review_settings = review or ReviewSettings()  # as draw-dominoes review's
        self.numerals = numerals  # halves as numbers, never as dice faces
        self.names = [self.words.seat_name(seat, number) for number, seat in enumerate(seats)]
        self.humans = [number for number, seat in enumerate(seats) if seat.is_human]
        self.at_keyboard: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.selected = 0  # the rack's cursor, an index into the hand as numbered
        self.choosing: ChooseEnd | None = None  # a tile that fits both ends, waiting for one
        self.hinted: Action | None = None
        self.hints_offered = False  # ! was pressed with hints off: again switches them on
        self.typed = ""  # digits typed for a tile number, and when
        self.typed_at = 0.0
        self.generation = 0  # bumped by a take-back: a bot's move for an older position is void
        self.busy = False  # a bot or a hint is thinking
        self.taken_back: list[Match] = []  # the match before each of the person's moves
        self.save_problem: OSError | None = None
        self.shown_round = -1  # the rounds whose start the log has told
        self.finished = False
        self.farewell = Farewell(())
        self.last_said = ""
        self.started = False

    # ----------------------------------------------------------------- set-up

    def on_mount(self) -> None:
        self.title = "Draw"
        self.push_screen(Table())

    def table_ready(self) -> None:
        if self.notice:
            self.say(self.notice, "bold")
        self._tell_round_so_far()
        self.save()
        self.started = True
        self.refresh_table()
        self.next_turn()

    def _tell_round_so_far(self) -> None:
        """After a resume, the round's moves so far: your own as you made them (R21)."""
        if self.match.current_round.history:
            self.shown_round = len(self.match.rounds)
            self._tell_round()
            if len(self.humans) == 1:  # what was played can still be taken back
                self.taken_back = before_each_move(self.match, self.humans[0])

    @property
    def table(self) -> Table:
        screen = self.screen_stack[1] if len(self.screen_stack) > 1 else self.screen
        assert isinstance(screen, Table)
        return screen

    # ----------------------------------------------------------------- saving

    def save(self) -> bool:
        try:
            write_save(self.save_path, self.seats, self.lang, self.match, self.hints)
        except OSError as exc:
            if self.save_problem is None:
                self.say(self.words("save_failed", path=self.save_path, problem=exc), "bold red")
            self.save_problem = exc
            return False
        if self.save_problem is not None:
            self.save_problem = None
            self.say(self.words("save_recovered", path=self.save_path))
        return True

    # ----------------------------------------------------------------- what is shown

    def viewer(self) -> int:
        """The seat whose view the table shows: whoever has the keyboard."""
        if self.at_keyboard is not None:
            return self.at_keyboard
        return self.humans[0]

    def say(self, text: str, style: str = "", *, again: bool = True) -> None:
        """A line in the log; ``again=False`` for a note (a refusal, the help) that is not
        written twice in a row. Moves always are: a bot may draw twice."""
        log = self.table.query_one("#log", MovesLog)
        if again or text != self.last_said:
            log.tell(Text(text, style=style))
            self.last_said = text
        log.scroll_end(animate=False, immediate=False)

    def retell(self) -> None:
        """The log afresh for whoever has the keyboard (a hot seat's hand-over)."""
        self.table.query_one("#log", MovesLog).forget()
        self.last_said = ""
        self._tell_round()

    def _tell_round(self) -> None:
        """The round so far as the keyboard may see it: its own draws with the tile,
        everyone else's without (R21)."""
        game = self.match.current_round
        number = len(self.match.rounds) + 1
        self.say(self.words("round_heading", number=number, name=self.names[game.leader]), "bold")
        mine = self.at_keyboard
        drawn = own_draws(game, mine) if mine is not None else {}
        for index, (who, action) in enumerate(game.history):
            if who == mine:
                self.say(self.words.own_action(action, drawn.get(index)))
            else:
                self.say(self.words.action(self.names[who], action))

    def hand(self) -> list[Tile]:
        """The rack: the keyboard's own hand; nobody's at a hot seat before anyone has it."""
        if self.at_keyboard is None and len(self.humans) > 1:
            return []
        return hand_order(self.match.current_round, self.viewer())

    def my_turn(self) -> bool:
        match = self.match
        return (
            not match.is_over
            and not self.busy
            and match.current_player == self.at_keyboard
            and self.seats[match.current_player].is_human
            and isinstance(self.screen, Table)
        )

    def refresh_table(self) -> None:
        table, words, match = self.table, self.words, self.match
        game = match.current_round
        seat = self.viewer()
        view = game.view(seat)
        scores = words("score_entry", name=self.names[seat], score=match.scores[seat])
        number = len(match.rounds) + (0 if game.is_over else 1)
        heading = words("board_heading", number=number, target=match.target, scores=scores)
        table.query_one("#heading", Static).update(heading)
        table.query_one("#opponents", Static).update(self._opponents(view))
        tall = self._stands_tall(view)
        table.query_one("#line", Static).update(self._line(view, tall))
        self._ends(view)
        box = table.query_one("#rack-box")
        title = words("your_hand")
        box.border_title = title if len(self.humans) == 1 else f"{title}: {self.names[seat]}"
        self._rack(view, tall)
        table.query_one("#status", Static).update(self._status(view))
        log = table.query_one("#log", MovesLog)
        self.call_after_refresh(log.scroll_end, animate=False)  # once the rack has its size

    def _opponents(self, view: PlayerView) -> Text:
        words, match = self.words, self.match
        text = Text()
        for other in range(view.players):
            if other == view.player:
                continue
            count = view.hand_sizes[other]
            mover = other == match.current_player and not match.is_over
            text.append("▶ " if mover else "  ", style="bold yellow")
            text.append(self.names[other], style="bold" if mover else "")
            tiles = words("hand_size_one" if count == 1 else "hand_size", name="", count=count)
            points = words("board_points", score=match.scores[other])
            text.append(f"  {'▮' * min(count, 14)} {tiles.strip()} · {points}\n")
        key = "board_boneyard"
        text.append(words(key, size=view.boneyard_size, drawable=view.drawable), style="dim")
        return text

    def _line(self, view: PlayerView, tall: bool) -> Text:
        line = view.line
        if line.is_empty:
            return Text(self.words("line_empty"), style="italic")
        numerals = self.numerals or not tall
        rows = line_rows(line.faces, self._line_room(), tall=tall, numerals=numerals)
        return Text("\n").join(rows)

    def _line_room(self) -> int:
        return max(self.size.width - 4, 8)  # the line's box: its border and padding

    def _stands_tall(self, view: PlayerView) -> bool:
        """Tiles stand tall (pips, three rows a row of the line, the fitting tiles of the
        hand raised) where that leaves the log its room; else they lie flat, in numerals,
        one row a row of the line."""
        height = self.size.height
        rack_width = max(self.size.width - 4, RACK_COLUMN)
        rack_rows = -(-max(len(self.hand()), 1) // max(rack_width // RACK_COLUMN, 1))
        line_rows_needed = max(snake_rows(view.line.faces, self._line_room(), tall=True), 1)
        # heading, opponents and boneyard, the line's box and ends, the rack's box, the
        # status (two rows at most), the log's box and the least of it worth having
        log = TALL_LOG if height >= ROOMY else SHORT_LOG
        around = 1 + view.players + 3 + 2 + 2 + 2 + log
        return around + TALL_ROW * line_rows_needed + 2 * rack_rows <= height

    def _ends(self, view: PlayerView) -> None:
        table, words, line = self.table, self.words, view.line
        left = table.query_one("#end-left", EndMarker)
        right = table.query_one("#end-right", EndMarker)
        if line.is_empty:
            left.update("")
            right.update("")
            return
        values = line.end_values
        left.update(words("board_left_end", value=values[0]))
        right.update(words("board_right_end", value=values[1]))
        fits = self._fitting_ends(view)
        hinted = self.hinted.end if isinstance(self.hinted, Place) else None
        for marker in (left, right):
            marker.set_class(marker.end in fits, "lit")
            marker.set_class(marker.end in fits and marker.end == hinted, "hint")

    def _fitting_ends(self, view: PlayerView) -> set[int]:
        """The ends the chosen tile would go to, lit so a click can pick one."""
        if not self.my_turn():
            return set()
        if self.choosing is not None:
            return {place.end for place in self.choosing.options if place.end is not None}
        hand = self.hand()
        if not hand:
            return set()
        tile = hand[min(self.selected, len(hand) - 1)]
        places = [a for a in view.legal_actions if isinstance(a, Place) and a.tile == tile]
        return {a.end for a in places if a.end is not None}

    def _rack(self, view: PlayerView, tall: bool) -> None:
        rack = self.table.query_one("#rack", Container)
        hand = self.hand()
        playable = {a.tile for a in view.legal_actions if isinstance(a, Place)}
        if not self.my_turn():
            playable = set()
        hinted = self.hinted.tile if isinstance(self.hinted, Place) else None
        self.selected = min(self.selected, max(len(hand) - 1, 0))
        cells = list(rack.query(TileCell))
        if [cell.tile for cell in cells] != hand:  # a draw or a placement: numbered afresh
            rack.remove_children()
            cells = [TileCell(number, tile) for number, tile in enumerate(hand, 1)]
            rack.mount_all(cells)
        mine = self.my_turn()
        numerals = self.numerals or not tall
        for cell in cells:
            fits = cell.tile in playable
            selected = mine and cell.number - 1 == self.selected
            hint = cell.tile == hinted
            cell.show(TileLook(fits, selected, hint, mine and not fits, tall, numerals))
        self.fit_rack()

    def fit_rack(self) -> None:
        if not self.screen_stack or not isinstance(self.screen_stack[-1], Table | Notice):
            return
        try:
            rack = self.table.query_one("#rack", Container)
        except NoMatches:  # the table is being built
            return
        width = max(self.size.width - 4, RACK_COLUMN)  # the box's border and padding
        rack.styles.grid_size_columns = max(1, width // RACK_COLUMN)

    def _status(self, view: PlayerView) -> Text:
        words, match = self.words, self.match
        if match.is_over:
            return Text(words("match_over"))
        mover = match.current_player
        if self.busy and not self.seats[mover].is_human:
            thinking = words("board_thinking", name=self.names[mover])
            return Text(f"{thinking}  ·  {words('board_keys_wait')}")
        if self.busy:
            return Text(words("board_hint_thinking"))
        if not self.my_turn():
            return Text(words("turn_heading", name=self.names[mover]))
        if self.choosing is not None:
            values = view.line.end_values
            return Text(
                words("board_keys_end", tile=self.choosing.tile, left=values[0], right=values[1]),
                style="bold",
            )
        legal = view.legal_actions
        keys = []
        if any(isinstance(action, Place) for action in legal):  # else Enter places nothing
            keys += [words("board_key_choose"), words("board_key_place")]
        if Draw() in legal:
            keys.append(words("board_key_draw"))
        if Pass() in legal:
            keys.append(words("board_key_pass"))
        keys.append(words("board_key_describe"))
        if self.hints:
            keys.append(words("board_key_hint"))
        if self.taken_back and len(self.humans) == 1:
            keys.append(words("board_key_undo"))
        keys += [words("board_key_help"), words("board_key_quit")]
        return keys_text(words("board_your_turn"), keys, self.size.width - 2)

    # ----------------------------------------------------------------- turns

    def next_turn(self) -> None:
        """Whoever moves next: a bot thinks in a thread; a person gets the keyboard."""
        match = self.match
        if match.is_over or self.finished:
            return
        game = match.current_round
        if self.shown_round != len(match.rounds):
            self.shown_round = len(match.rounds)
            number = len(match.rounds) + 1
            leader = self.names[game.leader]
            self.say(self.words("round_heading", number=number, name=leader), "bold")
            self.taken_back.clear()
        seat = match.current_player
        if self.seats[seat].is_human:
            if self.at_keyboard != seat:
                self._hand_over(seat)
                return
            self.choosing = None
            self._cursor_to_playable()
            self.refresh_table()
            return
        self.busy = True
        self.refresh_table()
        generation = self.generation
        self.set_timer(max(self.pace, 0.01), lambda: self._think(seat, generation))

    def _think(self, seat: int, generation: int) -> None:
        if generation != self.generation or self.finished:
            return
        match = self.match
        ply = sum(len(r.actions) for r in match.rounds) + len(match.current_round.actions)
        bot = bots.create_for_play(
            self.seats[seat].player, seed=bots.decision_seed(match.seed, ply, seat)
        )
        view = match.view(seat)

        def work() -> None:
            action = bot.choose(view)
            self.call_from_thread(self._bot_moved, generation, action)

        self.run_worker(work, thread=True, group="bot", exit_on_error=True)

    def _bot_moved(self, generation: int, action: Action) -> None:
        if generation != self.generation or self.finished:
            return  # taken back while the bot thought
        self.busy = False
        self.play(action)

    def _hand_over(self, seat: int) -> None:
        """Hot seat: hide every hand until the next person has the keyboard."""
        words = self.words
        self.at_keyboard = None
        self.table.query_one("#log", MovesLog).forget()  # it told the last person's draws
        self.last_said = ""
        self.refresh_table()  # the last hand leaves the table, not only the screen

        def done(answer: str | None) -> None:
            if answer == "quit":
                self.quit_match()
                return
            self.at_keyboard = seat
            self.retell()
            self.next_turn()

        body: list[Text | str] = [words("hand_over", name=self.names[seat])]
        self.push_screen(
            Notice(
                words("turn_heading", name=self.names[seat]),
                body,
                {"enter": "go", "space": "go", "q": "quit"},
                words("board_hand_over_keys"),
            ),
            done,
        )

    def play(self, action: Action) -> None:
        """Apply a legal action, tell it, save, and go on."""
        match = self.match
        game = match.current_round
        seat = match.current_player
        if self.seats[seat].is_human and len(self.humans) == 1:
            self.taken_back.append(match.clone())
        before = game.hand(seat)
        match.apply(action)
        self.hinted = None
        self.choosing = None
        if seat == self.viewer():
            drawn = drawn_tile(before, game.hand(seat)) if isinstance(action, Draw) else None
            self.say(self.words.own_action(action, drawn))
        else:
            self.say(self.words.action(self.names[seat], action))
        self.save()
        if game.is_over:
            self.refresh_table()
            self._round_over(game)
            return
        self.refresh_table()
        self.next_turn()

    def _round_over(self, game: Round) -> None:
        words, match = self.words, self.match
        outcome = game.outcome
        assert outcome is not None
        room = min(NOTICE_WIDTH, self.size.width * 9 // 10) - 4  # its frame and padding
        drawn = line_rows(game.line.faces, room, tall=False, numerals=True)
        body: list[Text | str] = [Text(f"{words('line')}:"), Text("\n").join(drawn)]
        body.append(words("hands_revealed"))
        for seat, hand in enumerate(game.view(0).revealed_hands):
            total = sum(tile.pips for tile in hand)
            name, tiles = self.names[seat], words.tiles(hand)
            body.append("  " + words("revealed_hand", name=name, tiles=tiles, total=total))
        explanation = explain_outcome(outcome, self.names, self.lang)
        body.append(Text(explanation, style="bold"))
        self.say(explanation, "bold")
        scores = scores_text(words, self.names, match.scores)
        body.append(words("scores", scores=scores, target=match.target))
        number = len(match.rounds)
        if match.is_over:
            keys, footer = {"enter": "go", "space": "go", "q": "go"}, words("board_round_last_keys")
        else:
            keys, footer = {"enter": "go", "space": "go", "q": "quit"}, words("board_round_keys")

        def done(answer: str | None) -> None:
            if answer == "quit":
                self.quit_match()
            elif match.is_over:
                self._match_over()
            else:
                self.refresh_table()
                self.next_turn()

        self.push_screen(Notice(words("round_over", number=number), body, keys, footer), done)

    def _match_over(self) -> None:
        words, match = self.words, self.match
        best = max(match.scores)
        names = words.names([self.names[seat] for seat in match.winners])
        key = "common.match_drawn" if match.is_draw else "common.match_won"
        result = translate(key, self.lang, names=names, score=best)
        body: list[Text | str] = [Text(result, style="bold magenta")]
        scores = scores_text(words, self.names, match.scores)
        body.append(words("scores", scores=scores, target=match.target))
        body.append(words("match_seed", seed=match.seed))  # no secret any more
        lines = [result, words("match_seed", seed=match.seed)]
        if self.save_problem is None or self.save():
            body.append(words("saved_at", path=self.save_path))
            body.append(words("board_review", path=self.save_path))
            lines += [str(part) for part in body[-2:]]
        else:
            body.append(words("not_saved_end", problem=self.save_problem))
            lines.append(words("not_saved_end", problem=self.save_problem))
        self.farewell = Farewell(tuple(lines))

        def done(answer: str | None) -> None:
            if answer == "review":
                self._review_match()
                return
            self.finished = True
            self.exit(self.farewell)

        keys = {"enter": "go", "space": "go", "q": "go", "escape": "go", "r": "review"}
        footer = words("board_match_over_keys")
        self.push_screen(Notice(words("match_over"), body, keys, footer), done)

    def _review_match(self) -> None:
        """The review of the people's decisions and the luck of the deal, on a screen of
        its own; back from it is the match's end again."""
        from .review_screen import ReviewNotice

        def done(answer: str | None) -> None:
            if answer == "back":
                self._match_over()
                return
            self.finished = True
            self.exit(self.farewell)

        screen = ReviewNotice(
            self.match, self.save_path, self.humans, self.names, self.words, self.review_settings
        )
        self.push_screen(screen, done)

    async def action_quit(self) -> None:
        """Textual's own quit key (ctrl+q) saves and says how to go on, as q does."""
        self.quit_match()

    def quit_match(self) -> None:
        """Save and leave; the match goes on with ``play --resume``."""
        self.finished = True
        self.generation += 1
        if self.save():
            lines = (self.words("saved_quit", path=self.save_path),)
        else:
            lines = (self.words("not_saved_quit", problem=self.save_problem),)
        self.exit(Farewell(lines))

    # ----------------------------------------------------------------- keys and clicks

    def key(self, key: str, character: str | None) -> bool:
        """A key pressed on the table; whether it was used."""
        if key in ("q", "ctrl+c"):
            self.quit_match()
            return True
        if key == "question_mark" or character == "?":
            view = self.match.view(self.viewer())
            self.say(describe_line(view.line, self.words), "italic", again=False)
            return True
        if key == "u":
            self.take_back()
            return True
        if key == "h":
            self.say(self.words("board_help"), "italic", again=False)
            return True
        if not self.my_turn():
            return key in ("left", "right", "enter", "d", "p", "escape", "exclamation_mark")
        view = self.match.view(self.viewer())
        if self.choosing is not None:
            if key in ("left", "right"):
                self._answer_end(0 if key == "left" else 1, view)
            elif key == "escape":
                self.choosing = None
                self.refresh_table()
            elif key == "enter":
                self.say(self._end_question(view), "bold red", again=False)
            else:
                return False
            return True
        hand = self.hand()
        if key in ("left", "right", "up", "down", "tab", "shift+tab"):
            step = -1 if key in ("left", "up", "shift+tab") else 1
            if hand:
                self.selected = (self.selected + step) % len(hand)
            self.typed = ""
            self.refresh_table()
            return True
        if character is not None and character.isdigit():
            self._digit(character, hand)
            return True
        if key == "enter":
            if hand:
                self._place(hand[self.selected], view)
            return True
        if key == "d":
            if Draw() in view.legal_actions:
                self.play(Draw())
            else:
                self.say(
                    self.words("refuse_draw", left=view.boneyard_size), "bold red", again=False
                )
            return True
        if key == "p":
            if Pass() in view.legal_actions:
                self.play(Pass())
            else:
                self.say(pass_refusal(view, self.words), "bold red", again=False)
            return True
        if key == "exclamation_mark" or character == "!":
            self.hint(view)
            return True
        return False

    def _digit(self, digit: str, hand: list[Tile]) -> None:
        """Digits choose the tile with that number; a second digit soon after makes 10 and up."""
        now = time.monotonic()
        typed = self.typed + digit if now - self.typed_at < NUMBER_PAUSE else digit
        if not (typed.isdigit() and 1 <= int(typed) <= len(hand)):
            typed = digit
        self.typed, self.typed_at = typed, now
        number = int(typed)
        if 1 <= number <= len(hand):
            self.selected = number - 1
            self.refresh_table()
        else:
            self.say(
                self.words("refuse_number", number=number, count=len(hand)), "bold red", again=False
            )

    def _place(self, tile: Tile, view: PlayerView, end: int | None = None) -> None:
        reading = read_tile(tile, view, self.words, end)
        if isinstance(reading, Refusal):
            self.say(reading.message, "bold red", again=False)
        elif isinstance(reading, ChooseEnd):
            self.choosing = reading
            self.refresh_table()
        elif isinstance(reading, Place):
            self.play(reading)

    def _answer_end(self, end: int, view: PlayerView) -> None:
        assert self.choosing is not None
        answer = at_end(self.choosing, end, view, self.words)
        if isinstance(answer, Refusal):
            self.say(answer.message, "bold red", again=False)
        else:
            self.play(answer)

    def _end_question(self, view: PlayerView) -> str:
        assert self.choosing is not None
        values = view.line.end_values
        tile = self.choosing.tile
        return self.words("which_end_keys", tile=tile, left=values[0], right=values[1])

    def click_tile(self, number: int) -> None:
        if not self.my_turn():
            return
        hand = self.hand()
        if not 1 <= number <= len(hand):
            return
        view = self.match.view(self.viewer())
        if self.choosing is not None and self.choosing.tile != hand[number - 1]:
            self.choosing = None
        if self.selected == number - 1 and self.choosing is None:
            self._place(hand[number - 1], view)
            return
        self.selected = number - 1
        self.refresh_table()

    def click_end(self, end: int) -> None:
        if not self.my_turn():
            return
        view = self.match.view(self.viewer())
        if self.choosing is not None:
            self._answer_end(end, view)
            return
        hand = self.hand()
        if hand:
            self._place(hand[self.selected], view, end)

    def _cursor_to_playable(self) -> None:
        """At the start of a turn the cursor rests on the first tile that fits."""
        view = self.match.view(self.viewer())
        playable = {a.tile for a in view.legal_actions if isinstance(a, Place)}
        hand = self.hand()
        if hand and hand[min(self.selected, len(hand) - 1)] in playable:
            return
        for index, tile in enumerate(hand):
            if tile in playable:
                self.selected = index
                return

    # ----------------------------------------------------------------- take-back and hints

    def take_back(self) -> None:
        """Undo the person's last move of this round, and the bots' replies to it; the save
        (and so the record) keeps only the moves that stand."""
        words = self.words
        if len(self.humans) != 1:
            self.say(words("board_undo_people"), "bold red", again=False)
            return
        if not self.taken_back or self.match.is_over:
            self.say(words("board_undo_nothing"), "bold red", again=False)
            return
        before = self.taken_back[-1].current_round
        mine = self.match.current_round.history[len(before.history)]
        if isinstance(mine[1], Draw):  # its tile is seen: taking it back would peek at the boneyard
            self.say(words("board_undo_draw"), "bold red", again=False)
            return
        self.generation += 1  # a bot thinking about the old position is ignored
        self.busy = False
        self.match = self.taken_back.pop()
        self.choosing = None
        self.hinted = None
        self.save()
        self.say(words("board_undone"), "bold")
        self.refresh_table()
        self.next_turn()

    def hint(self, view: PlayerView) -> None:
        words = self.words
        if not self.hints:
            if not self.hints_offered:  # a second ! switches them on, for the rest of it
                self.hints_offered = True
                self.say(words("hints_off"), "bold red", again=False)
                return
            self.hints = True
            self.save()
            self.say(words("hints_on_now"), "bold")
        from ..analysis import hint_as_reviewed
        from ..i18n import explain_hint

        self.busy = True
        self.refresh_table()
        generation = self.generation
        round_number = len(self.match.rounds)

        def work() -> None:
            # As the review of this match will value the move: following it is never a
            # mistake there.
            hint = hint_as_reviewed(view, round_number)
            text = explain_hint(hint.best, hint.alternative, hint.gain, view.line, self.lang)
            self.call_from_thread(self._hinted, generation, hint.best, text)

        self.run_worker(work, thread=True, group="hint", exit_on_error=True)

    def _hinted(self, generation: int, best: Action, text: str) -> None:
        self.busy = False
        if generation != self.generation or self.finished:
            return
        self.hinted = best
        if isinstance(best, Place):
            hand = self.hand()
            if best.tile in hand:
                self.selected = hand.index(best.tile)
        self.say(self.words("hint", text=text), "bold cyan")
        self.refresh_table()


# --------------------------------------------------------------------- choosing before play


@dataclass(frozen=True, slots=True)
class SetupChoice:
    """A new match as chosen on the set-up screen."""

    opponents: int
    level: str
    hints: bool


class Setup(App[SetupChoice | None]):
    """Choose the opponents' level (with what each does), how many, and whether hints are on."""

    CSS = """
    Screen { layout: vertical; padding: 0 1; }
    #setup-title { text-style: bold; height: auto; margin-bottom: 1; }
    #levels { height: auto; max-height: 12; }
    #setup-options { height: auto; margin-top: 1; }
    #setup-keys { height: auto; margin-top: 1; color: $accent; text-style: bold; }
    """

    def __init__(self, lang: str, hints: bool = False) -> None:
        super().__init__()
        self.words = Words(lang)
        self.lang = lang
        self.opponents = 1
        self.hints = hints

    def compose(self) -> ComposeResult:
        words = self.words
        yield Static(words("setup_title"), id="setup-title", markup=False)
        options = []
        for level in bots.LEVELS:
            name = translate(f"common.level_{level}", self.lang)
            about = translate(f"common.level_{level}_about", self.lang)
            text = Text(name.capitalize(), style="bold")
            text.append(f": {about}")
            options.append(Option(text, id=level))
        yield OptionList(*options, id="levels")
        yield Static(id="setup-options", markup=False)
        yield Static(words("setup_keys"), id="setup-keys", markup=False)

    def on_mount(self) -> None:
        levels = self.query_one("#levels", OptionList)
        levels.highlighted = list(bots.LEVELS).index("easy")
        levels.focus()
        self._show()

    def _show(self) -> None:
        words = self.words
        hints = words("setup_hints_on" if self.hints else "setup_hints_off")
        count = self.opponents
        text = words("setup_options", opponents=count, players=count + 1, hints=hints)
        self.query_one("#setup-options", Static).update(text)

    def on_key(self, event: events.Key) -> None:
        key = event.key
        if key in ("left", "minus"):
            self.opponents = max(1, self.opponents - 1)
        elif key in ("right", "plus"):
            self.opponents = min(3, self.opponents + 1)
        elif event.character in ("1", "2", "3"):
            self.opponents = int(event.character)
        elif key == "h":
            self.hints = not self.hints
        elif key in ("q", "escape", "ctrl+c"):
            self.exit(None)
        else:
            return
        event.stop()
        self._show()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        level = event.option.id
        assert level is not None
        self.exit(SetupChoice(self.opponents, level, self.hints))


class ResumeChooser(App[Saved | None]):
    """Choose which unfinished match to continue, newest first."""

    CSS = """
    Screen { layout: vertical; padding: 0 1; }
    #resume-title { text-style: bold; height: auto; margin-bottom: 1; }
    #resume-keys { height: auto; margin-top: 1; color: $accent; text-style: bold; }
    #resume-left-out { height: auto; max-height: 6; margin-top: 1; color: $warning; }
    """

    def __init__(self, saved: list[Saved], lang: str, left_out: Sequence[SaveError] = ()) -> None:
        super().__init__()
        self.saved = saved
        self.words = Words(lang)
        self.lang = lang
        self.left_out = list(left_out)
        """Files in the saves folder that are not good saves: named, and left as they are."""

    def compose(self) -> ComposeResult:
        words = self.words
        yield Static(words("resume_title"), id="resume-title", markup=False)
        yield OptionList(
            *(Option(describe_save(saved, words), id=str(n)) for n, saved in enumerate(self.saved)),
            id="saves",
        )
        if self.left_out:
            lines = [words("saves_left_out", problem=problem) for problem in self.left_out]
            yield Static("\n".join(lines), id="resume-left-out", markup=False)
        yield Static(words("resume_keys"), id="resume-keys", markup=False)

    def on_mount(self) -> None:
        self.query_one("#saves", OptionList).focus()

    def on_key(self, event: events.Key) -> None:
        if event.key in ("q", "escape", "ctrl+c"):
            event.stop()
            self.exit(None)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None
        self.exit(self.saved[int(event.option.id)])


def before_each_move(match: Match, seat: int) -> list[Match]:
    """The match before each of ``seat``'s moves in the current round, rebuilt from its
    record, so that a take-back works after a resume as before it."""
    data = record.match_to_record(match)
    actions = data["rounds"][-1]["actions"]
    points = []
    for index, (who, _) in enumerate(match.current_round.history):
        if who == seat:
            data["rounds"][-1]["actions"] = actions[:index]
            points.append(record.match_from_record(data))
    return points


def keys_text(lead: str, keys: list[str], width: int) -> Text:
    """``lead`` and then the keys, broken into lines between two keys, never inside one."""
    text = Text(lead, style="bold green")
    column = len(lead)
    for key in keys:
        gap = " " if column == len(lead) and text.plain == lead else " · "
        if column + len(gap) + len(key) > width:
            text.append("\n")
            column, gap = 0, ""
        text.append(gap + key)
        column += len(gap) + len(key)
    return text


def scores_text(words: Words, names: list[str], scores: tuple[int, ...], sep: str = ", ") -> str:
    """``Anna: 12, Bot 2 (greedy): 30``: a name and a score read apart."""
    return sep.join(words("score_entry", name=n, score=s) for n, s in zip(names, scores))


def describe_save(saved: Saved, words: Words) -> str:
    """One line for a list of saves: when, who, which round, the scores."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(saved.path.stat().st_mtime))
    names = [words.seat_name(seat, number) for number, seat in enumerate(saved.seats)]
    scores = scores_text(words, [name.replace(" ", "\u00a0") for name in names], saved.match.scores)
    return words("resume_entry", when=when, round=len(saved.match.rounds) + 1, scores=scores)
