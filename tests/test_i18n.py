"""Translations: every message exists in both languages with the same placeholders."""

from __future__ import annotations

import json
import string
from collections.abc import Callable

import pytest

from draw_dominoes import IllegalActionError
from draw_dominoes.i18n import (
    LANGUAGES,
    catalogue,
    domains,
    explain_outcome,
    explain_refusal,
    language_from_environment,
    translate,
)
from draw_dominoes.view import Outcome, Termination


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("domain", domains())
def test_every_message_is_in_every_language_with_the_same_placeholders(domain: str) -> None:
    english = catalogue("en", domain)
    for lang in LANGUAGES:
        other = catalogue(lang, domain)
        assert set(other) == set(english), f"{lang}/{domain}.json differs in its keys"
        for key, template in english.items():
            assert fields(other[key]) == fields(template), f"{lang}: {key}"
            assert all(k.startswith(domain + ".") for k in other)


@pytest.mark.parametrize("domain", domains())
def test_no_message_is_written_twice_in_a_catalogue(domain: str) -> None:
    """JSON keeps the last of two equal keys in silence: the first text would be lost."""
    from pathlib import Path

    import draw_dominoes.i18n

    folder = Path(draw_dominoes.i18n.__file__).parent / "locales"

    def once(pairs: list[tuple[str, object]]) -> dict[str, object]:
        keys = [key for key, _ in pairs]
        assert len(keys) == len(set(keys)), sorted(k for k in set(keys) if keys.count(k) > 1)
        return dict(pairs)

    for lang in LANGUAGES:
        text = (folder / lang / f"{domain}.json").read_text(encoding="utf-8")
        json.loads(text, object_pairs_hook=once)


def test_settlements_in_words() -> None:
    names = ["Ann", "Bob", "Cy"]
    blocked = Outcome(Termination.BLOCKED, 0, 15, (3, 8, 10))
    assert explain_outcome(blocked, names) == (
        "Nobody can play on. Ann holds the fewest pips, 3, and scores the others' pips less"
        " those: 8 + 10 − 3 = 15"
    )
    assert "8 + 10 − 3 = 15" in explain_outcome(blocked, names, "de")
    tie = Outcome(Termination.BLOCKED, None, 0, (3, 3, 10))
    assert "nobody scores" in explain_outcome(tie, names)
    assert "niemand" in explain_outcome(tie, names, "de")
    domino = Outcome(Termination.DOMINO, 2, 8, (0, 8, 0))
    assert explain_outcome(domino, names).endswith("Cy scores 0 + 8 = 8")


def test_language_from_the_environment() -> None:
    assert language_from_environment({"LANG": "de_DE.UTF-8"}) == "de"
    assert language_from_environment({"LANG": "fr_FR.UTF-8"}) == "en"
    assert language_from_environment({"LANGUAGE": "de:en", "LANG": "en_US"}) == "de"
    assert language_from_environment({}) == "en"


def test_unknown_keys_and_languages_are_errors() -> None:
    with pytest.raises(KeyError, match=r"common\.nope"):
        translate("common.nope", "en")
    with pytest.raises(ValueError, match="unknown language"):
        translate("common.player", "fr", seat=1)
    assert translate("common.player", "de", seat=2) == "Spieler 2"


def _refusals() -> dict[str, IllegalActionError]:
    """One real refusal (R8) of every kind, raised by the engine on scripted positions."""
    from draw_dominoes import ALL_TILES, DRAW, PASS, Line, Match, Place, Round, Tile

    def refused(attempt: Callable[[], object]) -> IllegalActionError:
        with pytest.raises(IllegalActionError) as caught:
            attempt()
        return caught.value

    t = Tile.parse
    mine = ["[0|0]", "[0|1]", "[1|1]", "[2|6]", "[3|4]", "[5|5]", "[0|6]"]
    theirs = ["[1|6]", "[6|6]", "[2|2]", "[2|3]", "[2|4]", "[2|5]", "[3|3]"]
    rest = [str(x) for x in ALL_TILES if str(x) not in mine + theirs]
    fresh = Round.from_deal([mine, theirs], rest, leader=0)
    opened = fresh.clone()
    opened.apply(Place(t("[2|6]"), None))  # ends 2 and 6; seat 1 to act
    dry = fresh.clone()
    while dry.drawable:
        dry.apply(DRAW)  # seat 0 draws the boneyard down to its last two tiles (R6)
    line = Line().place(t("[1|4]"), None)
    match = Match(2, seed=3)
    while not match.is_over:
        match.apply(max(match.legal_actions(), key=str))
    finished = fresh.clone()
    while not finished.is_over:
        finished.apply(finished.legal_actions()[0])
    return {
        "not_a_tile": refused(lambda: line.place("[1|2]", 0)),  # type: ignore[arg-type]
        "in_line": refused(lambda: line.place(t("[1|4]"), 0)),
        "must_open": refused(lambda: Line().place(t("[1|4]"), 1)),
        "no_such_end": refused(lambda: line.place(t("[4|5]"), 2)),
        "no_match": refused(lambda: opened.apply(Place(t("[3|3]"), 0))),
        "match_over": refused(lambda: match.apply(DRAW)),
        "round_over": refused(lambda: finished.apply(DRAW)),
        "no_draw": refused(lambda: dry.apply(DRAW)),
        "pass_can_draw": refused(lambda: fresh.clone().apply(PASS)),
        "pass_can_place": refused(lambda: dry.apply(PASS)),
        "not_an_action": refused(lambda: fresh.clone().apply("draw")),  # type: ignore[arg-type]
        "not_held": refused(lambda: fresh.clone().apply(Place(t("[6|6]"), None))),
        "not_in_boneyard": refused(lambda: fresh.clone().draw_tile(t("[0|0]"))),
        "opening_id": refused(lambda: fresh.clone().apply_id(1)),
        "opening_written": refused(lambda: fresh.clone().apply(Place(t("[0|0]"), 0))),
        "which_end": refused(lambda: opened.apply(Place(t("[2|2]"), None))),
    }


def test_every_refusal_has_a_code_and_is_said_in_every_language() -> None:
    """R8: the engine's reasons come with a code, so the interfaces can give them in German."""
    refusals = _refusals()
    messages = {k[len("common.refusal_") :] for k in catalogue("en", "common") if "refusal_" in k}
    assert set(refusals) | {"illegal"} == messages
    for code, error in refusals.items():
        assert error.code == code
        assert explain_refusal(error, "en") == str(error)  # the English text is the message
        german = explain_refusal(error, "de")
        assert german != str(error)
        for value in error.details.values():
            assert str(value) in german
    assert explain_refusal(refusals["no_match"], "de") == "[3|3] passt nicht an Ende 0, das 2 zeigt"
    assert explain_refusal(IllegalActionError("odd"), "de") == "dieser Zug ist hier nicht erlaubt"
    assert explain_refusal(IllegalActionError("odd", "unheard_of"), "de") == "odd"


def test_a_domino_against_one_opponent_adds_nothing_up() -> None:
    """Two players: "scores 12", not "scores 12 = 12"."""
    domino = Outcome(Termination.DOMINO, 0, 12, (0, 12))
    assert explain_outcome(domino, ["Ann", "Bob"]) == (
        "Ann is out of tiles; the other player still holds 12 pips, so Ann scores 12"
    )
    assert explain_outcome(domino, ["Ann", "Bob"], "de").endswith("also erhält Ann 12")


def test_a_hint_names_the_action_by_the_value_it_matches_in_both_languages() -> None:
    from draw_dominoes import DRAW, PASS, Line, Place, Tile
    from draw_dominoes.i18n import explain_hint, format_decimal, name_action

    line = Line()
    line = line.place(Tile(2, 2), None)
    line = line.place(Tile(2, 5), 1)
    place = Place(Tile(5, 6), 1)
    assert name_action(place, line) == "[5|6] on the 5"
    assert name_action(place, line, "de") == "[5|6] an die 5"
    assert (
        explain_hint(place, DRAW, 6.4, line)
        == "[5|6] on the 5: about 6 points better than drawing."
    )
    assert explain_hint(place, DRAW, 6.4, line, "de") == (
        "[5|6] an die 5: etwa 6 Punkte besser als Ziehen."
    )
    assert explain_hint(DRAW, PASS, 0.8, line) == "Drawing: about 1 point better than passing."
    assert explain_hint(DRAW, place, 0.3, line) == "Drawing: about as good as [5|6] on the 5."
    assert (
        explain_hint(place, None, None, line, "de")
        == "[5|6] an die 5 ist der einzige erlaubte Zug."
    )
    assert explain_hint(Place(Tile(6, 6), None), DRAW, 9, Line()) == (
        "Opening with [6|6]: about 9 points better than drawing."
    )
    assert format_decimal(9.04, "de") == "9,0" and format_decimal(9.04) == "9.0"
