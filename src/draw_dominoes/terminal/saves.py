"""Save files: a match record plus its seats, rewritten atomically after every action."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from .. import bots, record
from ..i18n import LANGUAGES
from ..match import Match
from ..round import Round

__all__ = [
    "HUMAN",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "SaveError",
    "Saved",
    "SavedSeat",
    "Unfinished",
    "data_directory",
    "latest_unfinished",
    "new_save_path",
    "read_game",
    "read_save",
    "reviews_directory",
    "save_files",
    "saves_directory",
    "shown_path",
    "unfinished",
    "write_save",
]

SAVE_FORMAT: Final = "draw-dominoes-terminal-save"
SAVE_VERSION: Final = 1
HUMAN: Final = "human"


class SaveError(ValueError):
    """A save that cannot be read; the message says which file and what is wrong."""


@dataclass(frozen=True, slots=True)
class SavedSeat:
    """Who plays a seat: ``human`` or a bot's registry name, and an optional chosen name."""

    player: str
    name: str | None = None

    @property
    def is_human(self) -> bool:
        return self.player == HUMAN

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "name": self.name}


@dataclass(frozen=True, slots=True)
class Saved:
    """A save read back: where it lives, the seats, the language and the replayed match."""

    path: Path
    seats: tuple[SavedSeat, ...]
    lang: str
    match: Match
    hints: bool = False
    """Whether the match allows hints (``play --hints``)."""


def data_directory(environ: Mapping[str, str] | None = None) -> Path:
    """``$DRAW_DOMINOES_DATA``, else ``$XDG_DATA_HOME/draw-dominoes``, else ``~/.local/share/…``."""
    env = os.environ if environ is None else environ
    override = env.get("DRAW_DOMINOES_DATA")
    if override:
        return Path(override)
    xdg = env.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return base / "draw-dominoes"


def shown_path(path: Path) -> str:
    """A path as the board shows it: under the home folder as ``~/…``, so that it fits a
    line of the log more often and breaks less."""
    try:
        return str(Path("~") / path.resolve().relative_to(Path.home().resolve()))
    except (ValueError, RuntimeError, OSError):  # elsewhere, or no home to speak of
        return str(path)


def saves_directory(environ: Mapping[str, str] | None = None) -> Path:
    return data_directory(environ) / "saves"


def reviews_directory(environ: Mapping[str, str] | None = None) -> Path:
    """Reviews of saved matches: kept apart, so that the saves folder holds saves only."""
    return data_directory(environ) / "reviews"


REVIEW_SUFFIX: Final = ".review.json"


def save_files(directory: Path) -> list[Path]:
    """The files in ``directory`` that may be saves (``*.json``), newest first. Reviews
    (``*.review.json``, kept beside saves by older versions) are not saves."""
    if not directory.is_dir():
        return []
    paths = [p for p in directory.glob("*.json") if not p.name.endswith(REVIEW_SUFFIX)]
    return sorted(paths, key=lambda p: (_modified(p), p.name), reverse=True)


def _modified(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:  # gone meanwhile
        return 0


def new_save_path(directory: Path, now: float | None = None) -> Path:
    """A fresh file name for a new match, from the time and a counter; an existing save is
    never reused or overwritten. The name never holds the seed: it deals every round (R21)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    path = directory / f"match-{stamp}.json"
    number = 2
    while os.path.lexists(path):  # False, not an error, when the directory cannot be read
        path = directory / f"match-{stamp}-{number}.json"
        number += 1
    return path


def write_save(
    path: Path, seats: tuple[SavedSeat, ...], lang: str, match: Match, hints: bool = False
) -> None:
    """Write beside ``path``, then rename into place: a kill never leaves half a save."""
    document = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "lang": lang,
        "hints": hints,
        "seats": [seat.to_dict() for seat in seats],
        "match": record.match_to_record(match),
    }
    text = json.dumps(document, ensure_ascii=False, indent=1)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _seat(value: object, number: int) -> SavedSeat:
    if not isinstance(value, dict):
        raise SaveError(f"seat {number} is not a JSON object")
    player, name = value.get("player"), value.get("name")
    if player != HUMAN and player not in bots.NAMES:
        raise SaveError(f"seat {number}: unknown player {player!r}")
    if name is not None and not isinstance(name, str):
        raise SaveError(f"seat {number}: the name must be text, not {name!r}")
    return SavedSeat(player, name)


def read_save(path: Path) -> Saved:
    """Read and replay a save; SaveError (never a change to the file) when anything is wrong."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveError(f"{path}: cannot be read: {exc}") from None
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise SaveError(f"{path}: not valid JSON: {exc}") from None
    except RecursionError:
        raise SaveError(f"{path}: not valid JSON: nested too deeply") from None
    if not isinstance(document, dict) or document.get("format") != SAVE_FORMAT:
        raise SaveError(f"{path}: not a draw-dominoes save (format {SAVE_FORMAT!r} expected)")
    if document.get("version") != SAVE_VERSION:
        raise SaveError(f"{path}: save version {document.get('version')!r} is not supported")
    lang = document.get("lang")
    if lang not in LANGUAGES:
        raise SaveError(f"{path}: unknown language {lang!r}")
    hints = document.get("hints", False)  # saves from before hints have none
    if type(hints) is not bool:
        raise SaveError(f"{path}: hints must be true or false, not {hints!r}")
    seats_data = document.get("seats")
    if not isinstance(seats_data, list):
        raise SaveError(f"{path}: the seats are missing")
    try:
        seats = tuple(_seat(value, number) for number, value in enumerate(seats_data))
        match = record.match_from_record(document.get("match"))
    except (SaveError, record.RecordError) as exc:
        raise SaveError(f"{path}: {exc}") from None
    if len(seats) != match.players:
        raise SaveError(f"{path}: {len(seats)} seats for a match of {match.players} players")
    return Saved(path, seats, lang, match, hints)


def read_game(path: Path) -> tuple[Round | Match, tuple[SavedSeat, ...], str | None, bool]:
    """The game in ``path``, a save of terminal play or a game record: the game, its seats
    (people, for a record), its language (None for a record) and whether it is a save.
    SaveError or RecordError (never a change to the file) when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveError(f"{path}: cannot be read: {exc}") from None
    is_save = False
    with contextlib.suppress(ValueError, AttributeError, RecursionError):
        is_save = json.loads(text).get("format") == SAVE_FORMAT  # else record.loads tells
    if is_save:
        saved = read_save(path)
        return saved.match, saved.seats, saved.lang, True
    game = record.loads(text)
    return game, tuple(SavedSeat(HUMAN) for _ in range(game.players)), None, False


@dataclass(frozen=True, slots=True)
class Unfinished:
    """The unfinished matches of a saves folder, newest first, and the files left out
    (each with why: one bad file never hides the good ones)."""

    saves: list[Saved]
    left_out: list[SaveError]


def unfinished(directory: Path, *, with_bots_alone: bool = False) -> Unfinished:
    """The saves whose match is not over, the most recently written first, and every file
    that is not a good save, named. Matches of bots alone are left out (not named) unless
    ``with_bots_alone``: nobody continues those without naming the file."""
    found, left_out = [], []
    for path in save_files(directory):
        try:
            saved = read_save(path)
        except SaveError as error:
            left_out.append(error)
            continue
        people = any(seat.is_human for seat in saved.seats)
        if not saved.match.is_over and (people or with_bots_alone):
            found.append(saved)
    return Unfinished(found, left_out)


def latest_unfinished(directory: Path, *, with_bots_alone: bool = False) -> Saved | None:
    """The most recently written unfinished save (see ``unfinished``), or None."""
    found = unfinished(directory, with_bots_alone=with_bots_alone).saves
    return found[0] if found else None
