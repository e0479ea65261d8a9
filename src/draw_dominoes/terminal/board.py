"""The full-screen terminal game (Textual): the line as tiles, the rack, the opponents, a log."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import RichLog, Static

from ..actions import Action, Draw, Pass, Place
from ..i18n import explain_outcome, translate
from ..match import Match
from ..round import Round
from ..tiles import Tile
from ..view import PlayerView
from .drawing import TALL_ROW, hand_tile, line_rows, snake_rows
from .hands import hand_order, last_drawn
from .moves import ChooseEnd, Refusal, at_end, describe_line, pass_refusal, read_tile
from .notice import Notice
from .review import ReviewSettings
from .saves import SavedSeat
from .sitting import Sitting
from .words import Words

__all__ = ["Board", "Farewell", "TableScreen", "TableState"]

NUMBER_PAUSE = 0.8
"""Seconds in which a second digit makes a two-digit tile number (10 and up)."""
MIN_WIDTH, MIN_HEIGHT = 60, 20
"""The smallest terminal the board is laid out for (docs/terminal.md)."""
RACK_COLUMN = 10
"""Columns a tile of the rack takes: its number, the tile, a mark and a gap."""
NOTICE_WIDTH = 90
"""A notice's widest (its box is 90% of the screen, at most this)."""
ROOMY, TALL_LOG, SHORT_LOG = 30, 12, 3
"""From ROOMY rows up, tiles stand tall only while the log keeps TALL_LOG rows; below,
SHORT_LOG are enough."""


@dataclass(frozen=True, slots=True)
class Farewell:
    """What the terminal shows once the app has closed (the save's path, how to go on)."""

    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TableState:
    """What the table shows at one moment, worked out once from the board: each part of
    the table renders itself from it, so no part can show an older moment than another."""

    words: Words
    names: tuple[str, ...]
    view: PlayerView
    """The round at hand as the keyboard's seat sees it."""
    scores: tuple[int, ...]
    target: int
    round_number: int
    match_over: bool
    mover: int
    mover_is_bot: bool
    hand: tuple[Tile, ...]
    """The rack, numbered from 1 in this order (empty at a hot seat between people)."""
    selected: int
    mine: bool
    """The keyboard's turn: the rack and the ends answer keys and clicks."""
    choosing: ChooseEnd | None
    hinted: Action | None
    busy: bool
    hints: bool
    undoable: bool
    rack_title: str
    tall: bool
    numerals: bool
    width: int

    @property
    def playable(self) -> set[Tile]:
        """The tiles of the rack that fit, while they can be played."""
        if not self.mine:
            return set()
        return {a.tile for a in self.view.legal_actions if isinstance(a, Place)}

    @property
    def fitting_ends(self) -> set[int]:
        """The ends the chosen tile would go to, lit so a click can pick one."""
        if not self.mine:
            return set()
        if self.choosing is not None:
            return {place.end for place in self.choosing.options if place.end is not None}
        if not self.hand:
            return set()
        tile = self.hand[self.selected]
        places = [a for a in self.view.legal_actions if isinstance(a, Place) and a.tile == tile]
        return {a.end for a in places if a.end is not None}


# --------------------------------------------------------------------- the parts of the table


class TablePart(Static):
    """A part of the table drawn from the table's state (bound to ``TableScreen.state``)."""

    state: reactive[TableState | None] = reactive(None, layout=True)

    def __init__(self, part: str) -> None:
        super().__init__(id=part, markup=False)

    def render(self) -> Text:
        return Text() if self.state is None else self.draw(self.state)

    def draw(self, state: TableState) -> Text:
        raise NotImplementedError


class Heading(TablePart):
    """The round, the keyboard's score and the target."""

    def draw(self, state: TableState) -> Text:
        words, seat = state.words, state.view.player
        assert seat is not None  # the table shows a seat's own view
        scores = words("score_entry", name=state.names[seat], score=state.scores[seat])
        number, target = state.round_number, state.target
        return Text(words("board_heading", number=number, target=target, scores=scores))


class Opponents(TablePart):
    """Each opponent with its tiles face down and its score; the boneyard."""

    def draw(self, state: TableState) -> Text:
        words, view = state.words, state.view
        text = Text()
        for other in range(view.players):
            if other == view.player:
                continue
            count = view.hand_sizes[other]
            mover = other == state.mover and not state.match_over
            text.append("▶ " if mover else "  ", style="bold yellow")
            text.append(state.names[other], style="bold" if mover else "")
            tiles = words("hand_size_one" if count == 1 else "hand_size", name="", count=count)
            points = words("board_points", score=state.scores[other])
            text.append(f"  {'▮' * min(count, 14)} {tiles.strip()} · {points}\n")
        key = "board_boneyard"
        text.append(words(key, size=view.boneyard_size, drawable=view.drawable), style="dim")
        return text


class LineShow(TablePart):
    """The line of tiles, snaking through the room."""

    def draw(self, state: TableState) -> Text:
        line = state.view.line
        if line.is_empty:
            return Text(state.words("line_empty"), style="italic")
        numerals = state.numerals or not state.tall
        rows = line_rows(line.faces, line_room(state.width), tall=state.tall, numerals=numerals)
        return Text("\n").join(rows)


class Status(TablePart):
    """Whose turn it is, and the keys that work now."""

    def draw(self, state: TableState) -> Text:
        words = state.words
        if state.match_over:
            return Text(words("match_over"))
        name = state.names[state.mover]
        if state.busy and state.mover_is_bot:
            thinking = words("board_thinking", name=name)
            return Text(f"{thinking}  ·  {words('board_keys_wait')}")
        if state.busy:
            return Text(words("board_hint_thinking"))
        if not state.mine:
            return Text(words("turn_heading", name=name))
        if state.choosing is not None:
            left, right = state.view.line.end_values
            tile = state.choosing.tile
            return Text(words("board_keys_end", tile=tile, left=left, right=right), style="bold")
        legal = state.view.legal_actions
        keys = []
        if any(isinstance(action, Place) for action in legal):  # else Enter places nothing
            keys += [words("board_key_choose"), words("board_key_place")]
        if Draw() in legal:
            keys.append(words("board_key_draw"))
        if Pass() in legal:
            keys.append(words("board_key_pass"))
        keys.append(words("board_key_describe"))
        if state.hints:
            keys.append(words("board_key_hint"))
        if state.undoable:
            keys.append(words("board_key_undo"))
        keys += [words("board_key_help"), words("board_key_quit")]
        return keys_text(words("board_your_turn"), keys, state.width - 2)


class EndMarker(TablePart):
    """An end of the line and the value it shows; a click places the chosen tile there."""

    def __init__(self, end: int) -> None:
        super().__init__("end-left" if end == 0 else "end-right")
        self.add_class("end")
        self.end = end

    def draw(self, state: TableState) -> Text:
        line = state.view.line
        if line.is_empty:
            return Text()
        key = "board_left_end" if self.end == 0 else "board_right_end"
        return Text(state.words(key, value=line.end_values[self.end]))

    def watch_state(self, state: TableState | None) -> None:
        if state is None or state.view.line.is_empty:
            lit = hinted = False
        else:
            lit = self.end in state.fitting_ends
            hinted = isinstance(state.hinted, Place) and state.hinted.end == self.end
        self.set_class(lit, "lit")
        self.set_class(lit and hinted, "hint")

    def on_click(self, event: events.Click) -> None:
        event.stop()
        board = self.app
        if isinstance(board, Board):
            board.click_end(self.end)


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

    look: reactive[TileLook | None] = reactive(None, layout=True)

    def __init__(self, number: int, tile: Tile) -> None:
        super().__init__("", classes="tile", markup=False)
        self.number = number
        self.tile = tile

    def render(self) -> Text:
        """Where tiles stand tall, one that fits is raised above the others (as in the
        browser); where they lie flat, it is marked with * (never by colour alone). The
        others are dimmed while it is your turn; the cursor's number is reversed."""
        look = self.look
        if look is None:
            return Text()
        label = Text(f"{self.number:>2}", style="reverse bold" if look.selected else "")
        if look.hinted:
            label.stylize("underline")
        face = hand_tile((self.tile.low, self.tile.high), look.numerals, dim=look.dimmed)
        tile = Text.assemble(label, " ", face)
        if look.raised:
            return Text("\n").join([tile, Text()] if look.playable else [Text(), tile])
        return Text.assemble(tile, "*" if look.playable else "")

    def watch_look(self, look: TileLook | None) -> None:
        if look is not None:
            self.set_class(look.raised, "raised")
            self.set_class(look.playable, "playable")
            self.set_class(look.selected, "selected")
            self.set_class(look.hinted, "hint")

    def on_click(self, event: events.Click) -> None:
        event.stop()
        board = self.app
        if isinstance(board, Board):
            board.click_tile(self.number)


class Rack(Vertical):
    """The keyboard's hand, numbered; its tiles are numbered afresh when the hand changes."""

    state: reactive[TableState | None] = reactive(None)

    def compose(self) -> ComposeResult:
        yield Container(id="rack")

    def watch_state(self, state: TableState | None) -> None:
        if state is None:
            return
        self.border_title = state.rack_title
        rack = self.query_one("#rack", Container)
        cells = list(rack.query(TileCell))
        if tuple(cell.tile for cell in cells) != state.hand:  # a draw or a placement
            rack.remove_children()
            cells = [TileCell(number, tile) for number, tile in enumerate(state.hand, 1)]
            rack.mount_all(cells)
        playable, mine = state.playable, state.mine
        hinted = state.hinted.tile if isinstance(state.hinted, Place) else None
        numerals = state.numerals or not state.tall
        for cell in cells:
            fits = cell.tile in playable
            selected = mine and cell.number - 1 == state.selected
            hint = cell.tile == hinted
            cell.look = TileLook(fits, selected, hint, mine and not fits, state.tall, numerals)
        rack.styles.grid_size_columns = max(1, rack_room(state.width) // RACK_COLUMN)


class TooSmall(Static):
    """Said over the table in a terminal too small for it: cut tiles and a missing status
    line would not say why."""

    seen: reactive[tuple[int, int]] = reactive((0, 0), init=False)

    def __init__(self, words: Words) -> None:
        super().__init__(id="too-small", markup=False)
        self.words = words

    def render(self) -> str:
        width, height = self.seen
        return self.words("board_too_small", width=width, height=height)

    def watch_seen(self, seen: tuple[int, int]) -> None:
        width, height = seen
        self.display = width < MIN_WIDTH or height < MIN_HEIGHT


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
        if width and not self.told_width:  # lines told before the first layout wrap to it
            self.told_width = width
        elif width and width != self.told_width:
            self.told_width = width
            self.clear()
            for text in self.told:
                self.write(text)
            self.scroll_end(animate=False)


def line_room(width: int) -> int:
    """Columns for the line: the terminal's less the line's box (border and padding)."""
    return max(width - 4, 8)


def rack_room(width: int) -> int:
    """Columns for the rack: the terminal's less the rack's box (border and padding)."""
    return max(width - 4, RACK_COLUMN)


# --------------------------------------------------------------------- the table


class TableScreen(Screen[None]):
    """The table of one match, as the seat at the keyboard may see it. Its keys are the
    board's actions; those of a turn work only while it is the keyboard's turn (see
    ``Board.check_action``), and the help (h) and the status line name them."""

    app: Board

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,ctrl+c", "app.leave", "save and quit", show=False),
        Binding("question_mark", "app.describe", "the line in words", show=False),
        Binding("u", "app.take_back", "take back", show=False),
        Binding("h", "app.help", "help", show=False),
        Binding("left", "app.side(0)", "a tile to the left, or the left end", show=False),
        Binding("right", "app.side(1)", "a tile to the right, or the right end", show=False),
        Binding("up,shift+tab", "app.step(-1)", "the tile before", show=False),
        Binding("down,tab", "app.step(1)", "the tile after", show=False),
        *(
            Binding(str(d), f"app.digit({d})", "a tile by its number", show=False)
            for d in range(10)
        ),
        Binding("enter", "app.place", "place the tile", show=False),
        Binding("escape", "app.other_tile", "another tile", show=False),
        Binding("d", "app.draw", "draw", show=False),
        Binding("p", "app.pass_turn", "pass", show=False),
        Binding("exclamation_mark", "app.hint", "a hint", show=False),
    ]

    state: reactive[TableState | None] = reactive(None)

    def compose(self) -> ComposeResult:
        yield TooSmall(self.app.words)
        yield Heading("heading").data_bind(TableScreen.state)
        yield Opponents("opponents").data_bind(TableScreen.state)
        with Vertical(id="line-box"):
            yield LineShow("line").data_bind(TableScreen.state)
            with Horizontal(id="ends"):
                yield EndMarker(0).data_bind(TableScreen.state)
                yield Static(id="ends-gap")
                yield EndMarker(1).data_bind(TableScreen.state)
        yield Rack(id="rack-box").data_bind(TableScreen.state)
        yield MovesLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
        yield Status("status").data_bind(TableScreen.state)

    def on_mount(self) -> None:
        board = self.app
        self.query_one("#line-box").border_title = board.words("line")
        self.query_one("#log").border_title = board.words("board_log")
        self.query_one("#log", MovesLog).can_focus = False
        board.table_ready()

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(TooSmall).seen = (event.size.width, event.size.height)
        self.app.show()  # the line, the rack and the status line to the new size


TURN_ACTIONS = frozenset(
    {"side", "step", "digit", "place", "other_tile", "draw", "pass_turn", "hint"}
)
"""The board's actions of a turn: keys that work only while it is the keyboard's turn."""
AT_WHICH_END = frozenset({"side", "place", "other_tile"})
"""Those that answer "which end?" (←/→, Enter asks again, Esc: another tile)."""


class Board(Sitting, App[Farewell]):
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

    selected: reactive[int] = reactive(0, init=False)
    """The rack's cursor, an index into the hand as numbered."""
    choosing: reactive[ChooseEnd | None] = reactive(None, init=False)
    """A tile that fits both ends, waiting for one."""
    hinted: reactive[Action | None] = reactive(None, init=False)
    busy: reactive[bool] = reactive(False, init=False)
    """A bot or a hint is thinking."""
    at_keyboard: reactive[int | None] = reactive(None, init=False)
    """The person at the keyboard; nobody at a hot seat while it is handed over."""

    def __init__(
        self,
        match: Match,
        seats: tuple[SavedSeat, ...],
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
        self.sit(match, seats, lang, save_path, hints)
        self.pace = pace
        self.notice = notice
        self.review_settings = review or ReviewSettings()  # as draw-dominoes review's
        self.numerals = numerals  # halves as numbers, never as dice faces
        if len(self.humans) == 1:
            self.set_reactive(Board.at_keyboard, self.humans[0])
        self.hints_offered = False  # ! was pressed with hints off: again switches them on
        self.typed = ""  # digits typed for a tile number, and when
        self.typed_at = 0.0
        self.generation = 0  # bumped by a take-back: a bot's move for an older position is void
        self.shown_round = -1  # the rounds whose start the log has told
        self.finished = False
        self.farewell = Farewell(())
        self.last_said = ""
        self.started = False

    def _changed(self) -> None:
        """What the table shows has changed: it is drawn again from the state."""
        self.show()

    watch_selected = watch_choosing = watch_hinted = watch_busy = watch_at_keyboard = _changed

    # ----------------------------------------------------------------- set-up

    def on_mount(self) -> None:
        self.title = "Draw"
        self.push_screen(TableScreen())

    def table_ready(self) -> None:
        if self.notice:
            self.say(self.notice, "bold")
        if self.match.current_round.history:  # after a resume: the round's moves so far
            self.shown_round = len(self.match.rounds)
            self._tell_round()
        self.save()
        self.started = True
        self.show()
        self.next_turn()

    @property
    def table(self) -> TableScreen:
        screen = self.screen_stack[1] if len(self.screen_stack) > 1 else self.screen
        assert isinstance(screen, TableScreen)
        return screen

    # ----------------------------------------------------------------- what is shown

    def tell(self, text: str, style: str) -> None:
        self.say(text, style)

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

    def forget(self) -> None:
        """An empty log: it told the last person's draws (a hot seat's hand-over)."""
        self.table.query_one("#log", MovesLog).forget()
        self.last_said = ""

    def _tell_round(self) -> None:
        """The round so far as the keyboard may see it: its own draws with the tile,
        everyone else's without (R21)."""
        round_ = self.match.current_round
        number = len(self.match.rounds) + 1
        self.say(self.words("round_heading", number=number, name=self.names[round_.leader]), "bold")
        mine = self.at_keyboard
        drawn = round_.view(mine).own_draws if mine is not None else {}
        for index, (who, action) in enumerate(round_.history):
            if who == mine:
                self.say(self.words.own_action(action, drawn.get(index)))
            else:
                self.say(self.words.action(self.names[who], action))

    def hand(self) -> list[Tile]:
        """The rack: the keyboard's own hand; nobody's at a hot seat before anyone has it."""
        if self.at_keyboard is None and len(self.humans) > 1:
            return []
        return hand_order(self.match.view(self.viewer()))

    def my_turn(self) -> bool:
        match = self.match
        return (
            not match.is_over
            and not self.busy
            and match.current_player == self.at_keyboard
            and self.seats[match.current_player].is_human
            and isinstance(self.screen, TableScreen)
        )

    def undoable(self) -> bool:
        """Whether the person has a move of this round to take back (every other seat a bot)."""
        if len(self.humans) != 1 or self.match.is_over:
            return False
        return any(who == self.humans[0] for who, _ in self.match.current_round.history)

    def show(self) -> None:
        """The table drawn afresh from the state of the board."""
        if not self.started:
            return
        match, words = self.match, self.words
        round_ = match.current_round
        seat = self.viewer()
        view = round_.view(seat)
        hand = tuple(self.hand())
        self.set_reactive(Board.selected, min(self.selected, max(len(hand) - 1, 0)))
        title = words("your_hand")
        self.table.state = TableState(
            words=words,
            names=tuple(self.names),
            view=view,
            scores=match.scores,
            target=match.target,
            round_number=len(match.rounds) + (0 if round_.is_over else 1),
            match_over=match.is_over,
            mover=match.current_player,
            mover_is_bot=not self.seats[match.current_player].is_human,
            hand=hand,
            selected=self.selected,
            mine=self.my_turn(),
            choosing=self.choosing,
            hinted=self.hinted,
            busy=self.busy,
            hints=self.hints,
            undoable=self.undoable(),
            rack_title=title if len(self.humans) == 1 else f"{title}: {self.names[seat]}",
            tall=self._stands_tall(view, len(hand)),
            numerals=self.numerals,
            width=self.size.width,
        )
        log = self.table.query_one("#log", MovesLog)
        self.call_after_refresh(log.scroll_end, animate=False)  # once the rack has its size

    def _stands_tall(self, view: PlayerView, tiles: int) -> bool:
        """Tiles stand tall (pips, three rows a row of the line, the fitting tiles of the
        hand raised) where that leaves the log its room; else they lie flat, in numerals,
        one row a row of the line."""
        width, height = self.size
        rack_rows = -(-max(tiles, 1) // max(rack_room(width) // RACK_COLUMN, 1))
        line_rows_needed = max(snake_rows(view.line.faces, line_room(width), tall=True), 1)
        # heading, opponents and boneyard, the line's box and ends, the rack's box, the
        # status (two rows at most), the log's box and the least of it worth having
        log = TALL_LOG if height >= ROOMY else SHORT_LOG
        around = 1 + view.players + 3 + 2 + 2 + 2 + log
        return around + TALL_ROW * line_rows_needed + 2 * rack_rows <= height

    # ----------------------------------------------------------------- turns

    def next_turn(self) -> None:
        """Whoever moves next: a bot thinks in a thread; a person gets the keyboard."""
        match = self.match
        if match.is_over or self.finished:
            return
        round_ = match.current_round
        if self.shown_round != len(match.rounds):
            self.shown_round = len(match.rounds)
            number = len(match.rounds) + 1
            leader = self.names[round_.leader]
            self.say(self.words("round_heading", number=number, name=leader), "bold")
        seat = match.current_player
        if self.seats[seat].is_human:
            if self.at_keyboard != seat:
                self._hand_over(seat)
                return
            self.choosing = None
            self._cursor_to_playable()
            self.show()
            return
        self.busy = True
        generation = self.generation
        self.set_timer(max(self.pace, 0.01), lambda: self._think(seat, generation))

    def _think(self, seat: int, generation: int) -> None:
        """The bot's decision, worked out in a thread so the board never freezes; it is
        applied here, on the board's own thread, unless a take-back made it void."""
        if generation != self.generation or self.finished:
            return
        bot = self.bot_seats[seat].decider(seat)
        view = self.match.view(seat)

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
        self.forget()
        self.at_keyboard = None  # the last hand leaves the table, not only the screen

        def done(answer: str | None) -> None:
            if answer == "quit":
                self.quit_match()
                return
            self.at_keyboard = seat
            self.forget()
            self._tell_round()  # afresh, for whoever has the keyboard now
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
        round_ = match.current_round
        seat = match.current_player
        match.apply(action)
        self.hinted = None
        self.choosing = None
        if seat == self.viewer():
            drawn = last_drawn(round_.view(seat)) if isinstance(action, Draw) else None
            self.say(self.words.own_action(action, drawn))
        else:
            self.say(self.words.action(self.names[seat], action))
        self.save()
        self.show()
        if round_.is_over:
            self._round_over(round_)
            return
        self.next_turn()

    def _round_over(self, round_: Round) -> None:
        words, match = self.words, self.match
        outcome = round_.outcome
        assert outcome is not None
        room = min(NOTICE_WIDTH, self.size.width * 9 // 10) - 4  # its frame and padding
        drawn = line_rows(round_.line.faces, room, tall=False, numerals=True)
        body: list[Text | str] = [Text(f"{words('line')}:"), Text("\n").join(drawn)]
        body.append(words("hands_revealed"))
        for seat, hand in enumerate(round_.view(None).revealed_hands):
            total = sum(tile.pips for tile in hand)
            name, tiles = self.names[seat], words.tiles(hand)
            body.append("  " + words("revealed_hand", name=name, tiles=tiles, total=total))
        explanation = explain_outcome(outcome, self.names, self.lang)
        body.append(Text(explanation, style="bold"))
        self.say(explanation, "bold")
        scores = words.scores(self.names, match.scores)
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
                self.show()
                self.next_turn()

        self.push_screen(Notice(words("round_over", number=number), body, keys, footer), done)

    def _match_over(self) -> None:
        words, match = self.words, self.match
        best = max(match.scores)
        names = words.names([self.names[seat] for seat in match.winners])
        key = "common.match_drawn" if match.is_draw else "common.match_won"
        result = translate(key, self.lang, names=names, score=best)
        body: list[Text | str] = [Text(result, style="bold magenta")]
        scores = words.scores(self.names, match.scores)
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
        keys = {"enter": "go", "space": "go", "q": "go", "escape": "go", "r": "review"}
        footer = words("board_match_over_keys")
        self.push_screen(Notice(words("match_over"), body, keys, footer), self._after_match)

    def _review_match(self) -> None:
        """The review of the people's decisions and the luck of the deal, on a screen of
        its own; back from it is the match's end again."""
        from .review_screen import ReviewNotice

        screen = ReviewNotice(
            self.match, self.save_path, self.humans, self.names, self.words, self.review_settings
        )
        self.push_screen(screen, self._after_match)

    def _after_match(self, answer: str | None) -> None:
        """From the match's end to its review (r) and back (b); any other key leaves."""
        if answer == "review":
            self._review_match()
        elif answer == "back":
            self._match_over()
        else:
            self.finished = True
            self.exit(self.farewell)

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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A turn's keys work only at the keyboard's turn on the table; at "which end?"
        only the ends, Enter and Esc do."""
        if action not in TURN_ACTIONS:
            return True
        if not self.my_turn():
            return False
        if self.choosing is not None:
            return action in AT_WHICH_END
        return action != "other_tile"

    def action_leave(self) -> None:
        self.quit_match()

    def action_describe(self) -> None:
        view = self.match.view(self.viewer())
        self.say(describe_line(view.line, self.words), "italic", again=False)

    def action_help(self) -> None:
        self.say(self.words("board_help"), "italic", again=False)

    def action_side(self, end: int) -> None:
        """← and →: the end asked for, else the tile before or after."""
        if self.choosing is not None:
            self._answer_end(end, self.match.view(self.viewer()))
        else:
            self.action_step(-1 if end == 0 else 1)

    def action_step(self, step: int) -> None:
        hand = self.hand()
        self.typed = ""
        if hand:
            self.selected = (self.selected + step) % len(hand)

    def action_digit(self, digit: int) -> None:
        """Digits choose the tile with that number; a second digit soon after makes 10 and up."""
        hand = self.hand()
        now = time.monotonic()
        typed = self.typed + str(digit) if now - self.typed_at < NUMBER_PAUSE else str(digit)
        if not (typed.isdigit() and 1 <= int(typed) <= len(hand)):
            typed = str(digit)
        self.typed, self.typed_at = typed, now
        number = int(typed)
        if 1 <= number <= len(hand):
            self.selected = number - 1
        else:
            self.say(
                self.words("refuse_number", number=number, count=len(hand)), "bold red", again=False
            )

    def action_place(self) -> None:
        view = self.match.view(self.viewer())
        if self.choosing is not None:  # Enter does not choose an end: the question again
            left, right = view.line.end_values
            tile = self.choosing.tile
            self.say(
                self.words("which_end_keys", tile=tile, left=left, right=right),
                "bold red",
                again=False,
            )
            return
        hand = self.hand()
        if hand:
            self._place(hand[self.selected], view)

    def action_other_tile(self) -> None:
        self.choosing = None

    def action_draw(self) -> None:
        view = self.match.view(self.viewer())
        if Draw() in view.legal_actions:
            self.play(Draw())
        else:
            self.say(self.words("refuse_draw", left=view.boneyard_size), "bold red", again=False)

    def action_pass_turn(self) -> None:
        view = self.match.view(self.viewer())
        if Pass() in view.legal_actions:
            self.play(Pass())
        else:
            self.say(pass_refusal(view, self.words), "bold red", again=False)

    def _place(self, tile: Tile, view: PlayerView, end: int | None = None) -> None:
        reading = read_tile(tile, view, self.words, end)
        if isinstance(reading, Refusal):
            self.say(reading.message, "bold red", again=False)
        elif isinstance(reading, ChooseEnd):
            self.choosing = reading
        elif isinstance(reading, Place):
            self.play(reading)

    def _answer_end(self, end: int, view: PlayerView) -> None:
        assert self.choosing is not None
        answer = at_end(self.choosing, end, view, self.words)
        if isinstance(answer, Refusal):
            self.say(answer.message, "bold red", again=False)
        else:
            self.play(answer)

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

    def action_take_back(self) -> None:
        """Undo the person's last move of this round, and the bots' replies to it; the save
        (and so the record) keeps only the moves that stand."""
        words = self.words
        if len(self.humans) != 1:
            self.say(words("board_undo_people"), "bold red", again=False)
            return
        if not self.undoable():
            self.say(words("board_undo_nothing"), "bold red", again=False)
            return
        history = self.match.current_round.history
        last = max(n for n, (who, _) in enumerate(history) if who == self.humans[0])
        if isinstance(history[last][1], Draw):  # its tile is seen: taking it back would peek
            self.say(words("board_undo_draw"), "bold red", again=False)
            return
        self.generation += 1  # a bot thinking about the old position is ignored
        self.busy = False
        for _ in range(len(history) - last):
            self.match.undo()
        self.choosing = None
        self.hinted = None
        self.save()
        self.say(words("board_undone"), "bold")
        self.show()
        self.next_turn()

    def action_hint(self) -> None:
        words = self.words
        view = self.match.view(self.viewer())
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
        if isinstance(best, Place):
            hand = self.hand()
            if best.tile in hand:
                self.selected = hand.index(best.tile)
        self.say(self.words("hint", text=text), "bold cyan")
        self.hinted = best


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
