"""Translations: every message exists in both languages with the same placeholders."""

from __future__ import annotations

import string

import pytest

from draw_dominoes.i18n import (
    LANGUAGES,
    catalogue,
    domains,
    explain_outcome,
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


def test_settlements_in_words() -> None:
    names = ["Ann", "Bob", "Cy"]
    blocked = Outcome(Termination.BLOCKED, 0, 15, (3, 8, 10))
    assert explain_outcome(blocked, names) == (
        "blocked: totals 3, 8, 10; the lowest, 3, held by Ann, scores 8 + 10 − 3 = 15"
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
