"""Translations: every word shown to people, in English and German, from JSON catalogues.

Keys are ``domain.name``; the catalogue for a domain is ``locales/<lang>/<domain>.json``,
so each interface (``common``, ``terminal``, ``web``, …) owns its own files.
Messages are ``str.format`` templates.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from ..actions import Action, Draw, IllegalActionError, Pass, Place
from ..line import Line, Port
from ..view import Outcome, Termination

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "catalogue",
    "check_language",
    "describe_line",
    "domains",
    "explain_hint",
    "explain_outcome",
    "explain_refusal",
    "format_decimal",
    "join_numbers",
    "language_from_environment",
    "name_action",
    "port_label",
    "translate",
]

DEFAULT_LANGUAGE = "en"


def _languages() -> tuple[str, ...]:
    """Every catalogue folder, the default first: adding a language is adding a folder."""
    folder = resources.files(__package__).joinpath("locales")
    found = sorted(p.name for p in folder.iterdir() if p.is_dir() and p.name != "__pycache__")
    return (DEFAULT_LANGUAGE, *(lang for lang in found if lang != DEFAULT_LANGUAGE))


LANGUAGES: tuple[str, ...] = _languages()
"""The languages everything is shown in (``en``, ``de``): the one list of them."""


def check_language(lang: str) -> str:
    """``lang`` if there is a catalogue for it, else ValueError naming the choices."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    return lang


def domains() -> list[str]:
    """The catalogue domains present for the default language."""
    folder = resources.files(__package__).joinpath("locales", DEFAULT_LANGUAGE)
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


@cache
def catalogue(lang: str, domain: str) -> Mapping[str, str]:
    """All messages of one domain in one language."""
    path = resources.files(__package__).joinpath("locales", check_language(lang), f"{domain}.json")
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def translate(key: str, lang: str = DEFAULT_LANGUAGE, /, **values: Any) -> str:
    """The message ``key`` (``domain.name``) in ``lang``, with ``values`` filled in."""
    domain, _, _name = key.partition(".")
    try:
        template = catalogue(lang, domain)[key]
    except (KeyError, FileNotFoundError):
        raise KeyError(f"no message {key!r} in language {lang!r}") from None
    return template.format(**values) if values else template


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """``de`` when LANGUAGE, LC_ALL, LC_MESSAGES or LANG asks for German, else ``en``."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            code = value.split(":")[0].split("_")[0].split(".")[0].lower()
            return code if code in LANGUAGES else DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


@cache
def _line_words(lang: str) -> tuple[str, str, dict[Port, str]]:
    """R12's template, its word for "none" and the port names, from the ``line`` catalogue."""
    words = catalogue(check_language(lang), "line")
    ports = {port: words[f"line.port_{port.name.lower()}"] for port in Port}
    return words["line.description"], words["line.none"], ports


def port_label(port: Port, lang: str = DEFAULT_LANGUAGE) -> str:
    """The port's name in ``lang``, exactly as R12 writes it."""
    return _line_words(lang)[2][port]


@lru_cache(maxsize=4096)
def describe_line(line: Line, lang: str = DEFAULT_LANGUAGE) -> str:
    """The line's text alternative, exactly as R12 prescribes, in ``lang`` (the recent ones
    kept: a line never changes, and every watcher of a table has it described each move)."""
    template, none, names = _line_words(lang)
    tiles = ", ".join(str(t) for t in line.tiles) or none
    connections = "; ".join(
        f"{c.parent} ({names[c.parent_port]}) – {c.child} ({names[c.child_port]})"
        for c in line.connections
    )
    ports = sorted(line.ends, key=lambda e: (e.tile.low, e.tile.high, e.port.order))
    free = "; ".join(f"{e.tile} ({names[e.port]}, {e.value})" for e in ports)
    return template.format(T=tiles, C=connections or none, P=free or none)


def join_numbers(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def explain_outcome(outcome: Outcome, names: list[str], lang: str = DEFAULT_LANGUAGE) -> str:
    """The settlement in words (R15–R17), e.g. ``blocked: totals 3, 8, 10; the lowest, 3,
    scores 8 + 10 − 3 = 15``."""
    totals = list(outcome.pip_totals)
    if outcome.kind is Termination.DOMINO:
        assert outcome.winner is not None
        others = [t for seat, t in enumerate(totals) if seat != outcome.winner]
        return translate(
            "common.settle_domino_one" if len(others) == 1 else "common.settle_domino",
            lang,
            name=names[outcome.winner],
            totals=join_numbers(others),
            sum=" + ".join(str(t) for t in others),
            points=outcome.points,
        )
    if outcome.winner is None:
        return translate(
            "common.settle_blocked_tie", lang, totals=join_numbers(totals), lowest=min(totals)
        )
    own = totals[outcome.winner]
    others = [t for seat, t in enumerate(totals) if seat != outcome.winner]
    return translate(
        "common.settle_blocked",
        lang,
        name=names[outcome.winner],
        totals=join_numbers(totals),
        lowest=own,
        sum=" + ".join(str(t) for t in others),
        points=outcome.points,
    )


def format_decimal(number: float, lang: str = DEFAULT_LANGUAGE, digits: int = 1) -> str:
    """``number`` with ``digits`` decimals and the language's decimal mark (9.5, 9,5)."""
    return f"{number:.{digits}f}".replace(".", translate("common.decimal_mark", lang))


def name_action(action: Action, line: Line, lang: str = DEFAULT_LANGUAGE) -> str:
    """An action as a hint names it: "[2|5] on the 5", "drawing"; the end by the value it
    shows, since a wrapped line may draw the right end on the left."""
    if isinstance(action, Draw):
        return translate("common.hint_draw", lang)
    if isinstance(action, Pass):
        return translate("common.hint_pass", lang)
    assert isinstance(action, Place)
    if action.end is None:
        return translate("common.hint_open", lang, tile=action.tile)
    return translate("common.hint_place", lang, tile=action.tile, value=line.end_values[action.end])


def explain_hint(
    best: Action,
    alternative: Action | None,
    gain: float | None,
    line: Line,
    lang: str = DEFAULT_LANGUAGE,
) -> str:
    """The best action and what it is worth against the next best, e.g. "[2|5] on the 5:
    about 6 points better than drawing." (``gain`` in expected points; ``alternative``
    None when the move is forced)."""
    action = name_action(best, line, lang)
    action = action[:1].upper() + action[1:]
    if alternative is None or gain is None:
        return translate("common.hint_forced", lang, action=action)
    other = name_action(alternative, line, lang)
    points = round(gain)
    if points < 1:
        return translate("common.hint_level", lang, action=action, alternative=other)
    key = "common.hint_better_one" if points == 1 else "common.hint_better"
    return translate(key, lang, action=action, alternative=other, points=points)


def explain_refusal(error: IllegalActionError, lang: str = DEFAULT_LANGUAGE) -> str:
    """Why the engine refused an action (R8), in ``lang``: the message for ``error.code``."""
    try:
        return translate(f"common.refusal_{error.code}", lang, **error.details)
    except KeyError:
        return str(error)  # a reason without a message of its own: its English text
