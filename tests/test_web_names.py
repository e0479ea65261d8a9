"""Display names: what check_name stores, what it refuses and why, for any input at all."""

from __future__ import annotations

import pickle
import unicodedata
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from draw_dominoes import bots
from draw_dominoes.i18n import LANGUAGES
from draw_dominoes.web.names import (
    MAX_NAME_LENGTH,
    REASONS,
    BadName,
    check_name,
    explain_reason,
)

REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


ACCEPTED = [
    ("Ann", "Ann"),
    ("Jürgen", "Jürgen"),
    ("José", "José"),
    (nfd("José"), "José"),
    (nfd("Jürgen"), "Jürgen"),
    ("李雷", "李雷"),
    ("Ölçü", "Ölçü"),
    ("Zoë 2", "Zoë 2"),
    ("Ann 🎲", "Ann 🎲"),
    ("❤️ Ann", "❤️ Ann"),  # a variation selector is a mark, not a format control
    ("Ann 👍🏽", "Ann 👍🏽"),  # skin-tone modifiers are symbols
    ("Σοφία", "Σοφία"),
    ("Дмитрий", "Дмитрий"),
    ("محمد", "محمد"),  # right-to-left text needs no bidi control of its own
    ("  Ann  ", "Ann"),
    ("Ann   Lee", "Ann Lee"),
    ("Ann\u00a0Lee", "Ann Lee"),
    ("Ann\u3000\u2003 \u202fLee", "Ann Lee"),
    ("Ann" + " " * 40 + "Lee", "Ann Lee"),  # long only before the spaces are tidied
    (nfd("é") * 13, "é" * 13),  # 26 code points typed, 13 stored
    ("a" * MAX_NAME_LENGTH, "a" * MAX_NAME_LENGTH),
    ("Bob", "Bob"),
    ("Botond", "Botond"),
    ("Robot", "Robot"),
    ("Abbot 2", "Abbot 2"),
    ("Bot", "Bot"),
    ("Botlik 2", "Botlik 2"),
    ("Bottle 2", "Bottle 2"),
    ("Mr Bot 2", "Mr Bot 2"),
    ("Ann ismcts", "Ann ismcts"),
    ("Greedy Gus", "Greedy Gus"),
    ("Ann (Bob)", "Ann (Bob)"),
    ("A.", "A."),
    # Staff words inside other words, and dots that make no address
    ("Badminton Bob", "Badminton Bob"),
    ("Admiral", "Admiral"),
    ("Staffan", "Staffan"),
    ("Systematic Sam", "Systematic Sam"),
    ("Modesty", "Modesty"),
    ("Commodore", "Commodore"),
    ("Desmond", "Desmond"),
    ("Supporter", "Supporter"),
    ("Officer Jenny", "Officer Jenny"),
    ("Mo D", "Mo D"),
    ("Mr. Smith", "Mr. Smith"),
    ("J.R.R. Tolkien", "J.R.R. Tolkien"),
    ("Ann 2.0", "Ann 2.0"),
    ("v1.2", "v1.2"),
    ("Ann @ home", "Ann @ home"),
]


@pytest.mark.parametrize(("name", "stored"), ACCEPTED)
def test_accepted_names_are_stored_normalised(name: str, stored: str) -> None:
    assert check_name(name) == stored


REFUSED: list[tuple[object, str]] = [
    (None, "type"),
    (24, "type"),
    (b"Ann", "type"),
    (["Ann"], "type"),
    ({"name": "Ann"}, "type"),
    ("", "length"),
    ("a" * (MAX_NAME_LENGTH + 1), "length"),
    ("é" * 21 + " Lee", "length"),
    ("\u200b", "character"),  # zero-width space alone
    ("Ann\u200b", "character"),
    ("Ann\u202eeoJ", "character"),  # right-to-left override
    ("\u200fAnn", "character"),  # right-to-left mark
    ("\u2066Ann", "character"),  # left-to-right isolate
    ("Ann\u00ad", "character"),  # soft hyphen
    ("Ann\ufeff", "character"),  # byte order mark
    ("Ann\x00", "character"),
    ("Ann\tLee", "character"),
    ("Ann\nLee", "character"),
    ("Ann\x7f", "character"),
    ("Ann\x85", "character"),  # C1 next line
    ("Ann\x9b", "character"),  # C1 control sequence introducer
    ("Ann\u2028Lee", "character"),
    ("Ann\u2029Lee", "character"),
    ("a\ud800", "character"),  # a lone surrogate, as JSON "\ud800" decodes
    ("\udfff" * 30, "character"),
    ("Ann\u0378", "character"),  # unassigned
    ("Ann\ue000", "character"),  # private use
    ("Ann\U000f0000", "character"),  # supplementary private use
    ("<b>", "character"),
    ("Ann>", "character"),
    ("👨\u200d👩\u200d👧", "character"),  # zero-width joiners are format controls
    ("   ", "invisible"),
    ("\u00a0\u3000", "invisible"),
    ("\u0301", "invisible"),  # a lone combining mark
    ("\u0301\u0302 \u20dd", "invisible"),
    ("\ufe0f", "invisible"),
    ("\u3164", "invisible"),  # Hangul filler: a "letter" that draws nothing
    ("\u2800\u2800", "invisible"),  # Braille blank
    ("Bot 2", "bot_label"),
    ("Bot 2 (random)", "bot_label"),
    ("bot2", "bot_label"),
    ("BOT 3 (greedy)", "bot_label"),
    ("Ｂｏｔ ２", "bot_label"),  # fullwidth
    ("Воt 2", "bot_label"),  # Cyrillic В and о
    ("Вот 2", "bot_label"),  # Cyrillic В, о and т
    ("Βοτ 1", "bot_label"),  # Greek Β, ο and τ
    ("βοτ 1", "bot_label"),
    ("𝐁𝐨𝐭 𝟐", "bot_label"),  # mathematical bold
    ("ʙᴏᴛ 2", "bot_label"),  # small capitals
    ("Bot ²", "bot_label"),
    ("Bot ②", "bot_label"),
    ("Bot ٢", "bot_label"),  # Arabic-Indic digit
    ("B.o.t 2", "bot_label"),
    ("B o t-2", "bot_label"),
    ("Böt 2", "bot_label"),
    ("B\u0332ot 2", "bot_label"),  # combining low line
    ("🤖 Bot 4", "bot_label"),
    ("🅱ot 4", "bot_label"),
    ("Ann (ismcts)", "bot_label"),
    ("Ann (ISMCTS)", "bot_label"),
    ("Ann ( greedy )", "bot_label"),
    ("Ann （greedy）", "bot_label"),  # fullwidth parentheses
    ("Ann ❨pimc❩", "bot_label"),
    ("Ann (grееdy)", "bot_label"),  # Cyrillic е
    ("(omniscient)", "bot_label"),
    *[(f"Bot {seat + 1} ({level})", "bot_label") for seat in range(4) for level in bots.NAMES],
    *[(f"Ann ({level})", "bot_label") for level in bots.NAMES],
    # The server's people and its own messages
    ("Admin", "staff"),
    ("ADMIN", "staff"),
    ("admins", "staff"),
    ("Administrator", "staff"),
    ("Adm1n", "staff"),
    ("@dmin", "staff"),
    ("4dmin", "staff"),
    ("A d m i n", "staff"),
    ("A.D.M.I.N", "staff"),
    ("Ad min", "staff"),
    ("TheAdmin", "staff"),
    ("AdminBob", "staff"),
    ("sysadmin", "staff"),
    ("Ａｄｍｉｎ", "staff"),  # fullwidth
    ("Аdmin", "staff"),  # Cyrillic А
    ("Server notice", "staff"),
    ("SERVER   NOTICE", "staff"),
    ("Servernotice", "staff"),
    ("S e r v e r", "staff"),
    ("Server", "staff"),
    ("System", "staff"),
    ("System message", "staff"),
    ("5ystem", "staff"),
    ("Moderator", "staff"),
    ("SuperModerator", "staff"),
    ("Mod", "staff"),
    ("Mod Ann", "staff"),
    ("M0d", "staff"),
    ("Staff", "staff"),
    ("$taff", "staff"),
    ("Support", "staff"),
    ("Tech Support", "staff"),
    ("Official", "staff"),
    ("Officia1", "staff"),
    ("Verwaltung", "staff"),
    ("Die Verwaltung", "staff"),
    ("Systemnachricht", "staff"),
    ("Servermeldung", "staff"),
    ("Moderatorin", "staff"),
    ("Offiziell", "staff"),
    ("Betreiber", "staff"),
    # Addresses: URLs, domains, e-mail and IP addresses
    ("visit evil.example", "address"),
    ("evil.example", "address"),
    ("EVIL.COM", "address"),
    ("evil.co.uk", "address"),
    ("http://x", "address"),
    ("https://evil", "address"),
    ("www evil", "address"),
    ("ann@mail.de", "address"),
    ("evil[.]com", "address"),
    ("evil(dot)com", "address"),
    ("evil (.) com", "address"),
    ("evil。com", "address"),  # an ideographic full stop, a dot to IDNA
    ("evil．com", "address"),  # fullwidth full stop
    ("еvil.соm", "address"),  # Cyrillic е, с and о
    ("evil .com", "address"),
    ("Ann.Lee", "address"),
    ("xn--80ak6aa92e.com", "address"),
    ("10.0.0.1", "address"),
]


@pytest.mark.parametrize(("name", "reason"), REFUSED)
def test_refused_names_say_why(name: object, reason: str) -> None:
    with pytest.raises(BadName) as caught:
        check_name(name)
    assert caught.value.reason == reason
    message = str(caught.value)
    # Plain English that names the problem, never echoing a control back at the reader.
    assert message
    assert message.isascii()
    assert message.isprintable()


def test_reasons_are_the_documented_codes() -> None:
    assert REASONS == (
        "type",
        "length",
        "character",
        "invisible",
        "bot_label",
        "staff",
        "address",
        "username_length",
        "username_character",
    )
    usernames = {"username_length", "username_character"}  # accounts.check_username's own
    assert {reason for _, reason in REFUSED} == set(REASONS) - usernames


@pytest.mark.parametrize("reason", REASONS)
def test_every_reason_is_explained_in_every_language(reason: str) -> None:
    texts = {lang: explain_reason(reason, lang) for lang in LANGUAGES}
    assert len(set(texts.values())) == len(LANGUAGES)  # translated, not copied
    for text in texts.values():
        assert text.endswith(".") and "{" not in text
    assert str(MAX_NAME_LENGTH) in explain_reason("length", "de")


def test_a_bad_name_is_a_value_error_and_survives_pickling() -> None:
    with pytest.raises(ValueError):
        check_name("Bot 2")
    error = BadName("length", "the name is empty")
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), copy.reason, str(copy)) == (BadName, "length", "the name is empty")


def test_the_character_message_names_the_code_point() -> None:
    with pytest.raises(BadName, match="U\\+202E RIGHT-TO-LEFT OVERRIDE"):
        check_name("Ann\u202e")
    with pytest.raises(BadName, match="U\\+D800"):
        check_name("a\ud800")


def test_the_stored_name_is_an_exact_str() -> None:
    class Shouting(str):
        def strip(self, chars: str | None = None) -> str:
            raise RuntimeError("not called")

        def __iter__(self) -> Any:
            raise RuntimeError("not called")

    stored = check_name(Shouting(" Ann "))
    assert type(stored) is str
    assert stored == "Ann"


def test_objects_that_lie_about_their_class_are_refused() -> None:
    class Liar:
        @property  # type: ignore[misc]
        def __class__(self) -> type:
            return str

    class Broken:
        @property  # type: ignore[misc]
        def __class__(self) -> type:
            raise RuntimeError("no class for you")

    for thing in (Liar(), Broken()):
        with pytest.raises(BadName) as caught:
            check_name(thing)
        assert caught.value.reason == "type"


# Characters from every corner: anything at all (surrogates too), the ones that matter
# here, and ordinary letters and spaces so that plenty of examples are accepted.
TRICKY = (
    "\u200b\u200c\u200d\u200e\u200f\u202a\u202e\u2066\u2069\u00ad\ufeff\x00\x1f\x7f\x85\x9f"
    "\u2028\u2029\ud800\udfff\ue000\u0378<> \u00a0\u3000\u2000\u0301\u0308\ufe0f\u3164\u2800"
    "BbOoTt0123456789()（）ВвоτΒβ２ｏ❨❩eé"
)
ANY_CHARACTER = st.one_of(
    st.characters(codec=None, exclude_categories=()),
    st.characters(categories=["Cs"]),
    st.sampled_from(TRICKY),
    st.characters(categories=["L", "M", "N", "P", "S", "Zs"]),
)
ANY_TEXT = st.text(ANY_CHARACTER, max_size=40)
NAME_LIKE = st.text(
    st.one_of(st.characters(categories=["L", "N", "Zs"]), st.sampled_from(TRICKY)),
    min_size=1,
    max_size=30,
)


def verdict(name: object) -> tuple[str, str]:
    """("ok", stored) or ("refused", reason): check_name may raise BadName and nothing else."""
    try:
        return ("ok", check_name(name))
    except BadName as error:
        assert error.reason in REASONS
        return ("refused", error.reason)


@given(st.from_type(object))
def test_any_object_is_stored_or_refused(thing: object) -> None:
    outcome, detail = verdict(thing)
    if not isinstance(thing, str):
        assert (outcome, detail) == ("refused", "type")


@given(st.one_of(ANY_TEXT, NAME_LIKE))
@example("a\ud800")
@example("\ud800\udc00")  # a surrogate pair that is not joined up in a str
@example("Ann")
def test_any_text_is_stored_or_refused(text: str) -> None:
    verdict(text)


def assert_storable(stored: str) -> None:
    assert unicodedata.is_normalized("NFC", stored)
    assert 1 <= len(stored) <= MAX_NAME_LENGTH
    assert not any(unicodedata.category(char) in REFUSED_CATEGORIES for char in stored)
    assert "<" not in stored
    assert ">" not in stored
    assert stored == stored.strip()
    assert "  " not in stored
    assert all(char == " " or not char.isspace() for char in stored)
    assert stored.encode("utf-8").decode("utf-8") == stored
    assert check_name(stored) == stored


@given(st.one_of(ANY_TEXT, NAME_LIKE))
@example(nfd("José"))
@example("  Ann \u3000 Lee ")
def test_every_stored_name_is_clean_and_stays_as_it_is(text: str) -> None:
    outcome, stored = verdict(text)
    if outcome == "ok":
        assert_storable(stored)


@given(NAME_LIKE)
def test_equivalent_spellings_get_the_same_verdict(text: str) -> None:
    """The decomposed form, or extra spaces around it, change nothing."""
    assert verdict(nfd(text)) == verdict(text)
    if verdict(text)[0] == "ok":
        assert verdict(f" \u00a0{text}\u3000 ") == verdict(text)


LOOKS_LIKE_B = st.sampled_from("BbＢｂ𝐁ʙВвΒβ")
LOOKS_LIKE_O = st.sampled_from("OoＯｏ𝐨ᴏОоΟοö")
LOOKS_LIKE_T = st.sampled_from("TtＴｔ𝐭ᴛТтΤτ")
DIGIT = st.sampled_from("0123456789０２𝟐²②٢")
SEPARATOR = st.text(st.sampled_from(" .-_*·\u00a0\u3000"), max_size=3)


@given(
    st.tuples(LOOKS_LIKE_B, SEPARATOR, LOOKS_LIKE_O, SEPARATOR, LOOKS_LIKE_T, SEPARATOR, DIGIT).map(
        "".join
    ),
    st.text(st.characters(categories=["L", "N", "P", "Zs"]), max_size=8),
)
def test_whatever_spells_bot_and_a_number_is_refused(label: str, tail: str) -> None:
    assert verdict(label + tail) in {("refused", "bot_label"), ("refused", "length")}


@given(
    st.text(st.characters(categories=["L", "N", "Zs"]), max_size=8),
    st.sampled_from(bots.NAMES),
    st.sampled_from(["({})", "( {} )", "（{}）", "❨{}❩"]),
)
def test_whatever_ends_in_a_bracketed_bot_name_is_refused(
    head: str, level: str, brackets: str
) -> None:
    name = head + " " + brackets.format(level.upper() if len(head) % 2 else level)
    assert verdict(name) == ("refused", "bot_label")
