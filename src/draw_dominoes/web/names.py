"""Display names for the web app: normalise them and refuse the ones that mislead or break."""

from __future__ import annotations

import re
import unicodedata
from typing import Final, cast

from .. import bots
from ..i18n import translate

__all__ = ["MAX_NAME_LENGTH", "REASONS", "BadName", "check_name", "explain_reason"]

MAX_NAME_LENGTH: Final = 24
"""The longest name, in code points after normalisation: it has to fit a seat in the list."""

REASONS: Final = (
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
"""Every ``BadName.reason``; the web layer translates by these codes, so they never change
(``explain_reason`` says each in words)."""

# Control, format (zero-width and bidi controls), surrogate, private-use, unassigned and
# line/paragraph separators: none draws as itself, several reorder or hide the seat list,
# and a lone surrogate cannot even be encoded to be stored.
_FORBIDDEN_CATEGORIES: Final = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Cs": "half of a broken character (a lone surrogate)",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
_FORBIDDEN_CHARACTERS: Final = "<>"  # always refused by the app; they look like markup

# Letters that draw as nothing although Unicode calls them letters or symbols.
_BLANKS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")

# Look-alikes of the Latin letters in bot labels ("bot", the level names) and of "(" / ")",
# for what NFKC does not already fold (fullwidth, mathematical and circled forms it does).
_LOOKALIKES: Final = str.maketrans(
    {
        # Cyrillic (after casefolding)
        "а": "a",
        "в": "b",
        "ь": "b",
        "е": "e",
        "һ": "h",
        "і": "i",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "ѕ": "s",
        "т": "t",
        "у": "y",
        "х": "x",
        # Greek (after casefolding)
        "α": "a",
        "β": "b",
        "ε": "e",
        "ι": "i",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        # Latin small capitals and the emoji letters people type for B and O
        "ʙ": "b",
        "ᴏ": "o",
        "ᴛ": "t",
        "\U0001f171": "b",
        "\U0001f17e": "o",
        # Parentheses that NFKC leaves alone
        "❨": "(",
        "❪": "(",
        "⟮": "(",
        "❩": ")",
        "❫": ")",
        "⟯": ")",
    }
)


class BadName(ValueError):
    """A refused display name; ``reason`` is one of ``REASONS``, the message says why in English."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self) -> tuple[type[BadName], tuple[str, str]]:
        # Keeps the reason across pickling (the default would call BadName(message)).
        return (type(self), (self.reason, str(self)))


def check_name(name: object) -> str:
    """The name to store and show, NFC-normalised with its spaces tidied; else ``BadName``.

    Never raises anything else, whatever arrives from a request.
    """
    # type() rather than isinstance(): an object's __class__ can lie, or raise.
    if not issubclass(type(name), str):
        raise BadName("type", "a name must be text")
    # An exact str, so that a subclass's overridden methods play no part below.
    text = str.__str__(cast(str, name))
    if not text:
        raise BadName("length", "the name is empty")
    # Checked before normalising: a lone surrogate must be reported, not crash an encoder.
    for char in text:
        _check_character(char)
    # NFC keeps "José" typed either way one name; split() sees only Zs spaces here, since
    # every other kind of whitespace is a control or separator refused above.
    text = " ".join(unicodedata.normalize("NFC", text).split())
    if not text:
        raise BadName("invisible", "the name has only spaces in it")
    if len(text) > MAX_NAME_LENGTH:
        raise BadName(
            "length",
            f"a name can have at most {MAX_NAME_LENGTH} characters; this one has {len(text)}",
        )
    if not any(_visible(char) for char in text):
        raise BadName("invisible", "the name has no visible character in it")
    _check_not_bot_label(text)
    _check_not_staff(text)
    _check_no_address(text)
    return text


def explain_reason(reason: str, lang: str) -> str:
    """Why a name with ``BadName.reason`` was refused, in ``lang`` (``web.bad_name_<reason>``)."""
    return translate(f"web.bad_name_{reason}", lang, limit=MAX_NAME_LENGTH)


def _check_character(char: str) -> None:
    if char in _FORBIDDEN_CHARACTERS:
        raise BadName("character", f"a name cannot contain {char}")
    kind = _FORBIDDEN_CATEGORIES.get(unicodedata.category(char))
    if kind is not None:
        # Described, never echoed: echoing a bidi control would garble the message too.
        label = unicodedata.name(char, "")
        described = f"U+{ord(char):04X} {label}".rstrip()
        raise BadName("character", f"a name cannot contain {described}, {kind}")


def _visible(char: str) -> bool:
    """Whether the character draws something: letters, digits, punctuation, symbols."""
    return unicodedata.category(char)[0] in "LNPS" and char not in _BLANKS


def _skeleton(text: str) -> str:
    """What the text looks like, roughly: compatibility forms, case, accents and common
    Cyrillic and Greek look-alikes folded away."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    bare = "".join(char for char in folded if unicodedata.category(char)[0] != "M")
    return bare.translate(_LOOKALIKES)


def _check_not_bot_label(text: str) -> None:
    """Refuse names that pass for a server bot's label, ``Bot 2 (random)``.

    The prefix test ignores everything but letters and digits, so "B.o.t 2" counts; the
    suffix test keeps parentheses, so "Ann (ismcts)" counts but "Ann ismcts" does not.
    """
    skeleton = _skeleton(text)
    letters = "".join(char for char in skeleton if char.isalnum())
    if letters.startswith("bot") and letters[3:4].isdecimal():
        raise BadName("bot_label", 'a name cannot look like a computer player\'s, such as "Bot 2"')
    tail = "".join(char for char in skeleton if char.isalnum() or char in "()")
    for level in bots.NAMES:
        if tail.endswith(f"({_skeleton(level)})"):
            raise BadName(
                "bot_label",
                f'a name cannot end in "({level})", which marks a computer player',
            )


# Digits and signs that stand in for letters ("Adm1n", "$taff", "@dmin"); "1" is tried as
# both "i" and "l".
_LEETSPEAK: Final = (
    str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}),
    str.maketrans({"0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}),
)

_STAFF_WORDS: Final = frozenset(
    {
        # English
        "admin",
        "admins",
        "administrator",
        "administrators",
        "administration",
        "mod",
        "mods",
        "moderator",
        "moderators",
        "moderation",
        "staff",
        "server",
        "servers",
        "system",
        "sysop",
        "sysadmin",
        "support",
        "official",
        "officials",
        # German
        "administratorin",
        "moderatorin",
        "verwaltung",
        "verwalter",
        "verwalterin",
        "betreiber",
        "betreiberin",
        "offiziell",
        "offizielle",
        "offizieller",
        "systemnachricht",
        "systemmeldung",
        "servernachricht",
        "servermeldung",
        "serverhinweis",
    }
)
"""Words that speak for the server or its people: refused as a word of a name."""

_STAFF_FRAGMENTS: Final = (
    "administrat",
    "moderator",
    "verwaltung",
    "servernotice",
    "servermessage",
    "systemnotice",
    "systemmessage",
    "systemnachricht",
    "systemmeldung",
    "servernachricht",
    "servermeldung",
    "serverhinweis",
)
"""Long enough to mean the same anywhere, even run together with other words or spaced
out letter by letter ("TheModerator", "S y s t e m n a c h r i c h t")."""


def _words(text: str) -> list[str]:
    """The words of a name as they look (see ``_skeleton``): split at anything but letters
    and digits and where a capital follows a small letter ("AdminBob"), with runs of
    single letters joined ("A d m i n", "A.D.M.I.N")."""
    split = "".join(
        f" {char}" if char.isupper() and before.islower() else char
        for before, char in zip(" " + text, text, strict=False)
    )
    words: list[str] = []
    run = ""
    for word in re.split(r"[\W_]+", _skeleton(split)):
        if len(word) == 1:
            run += word
            continue
        if run:
            words.append(run)
            run = ""
        if word:
            words.append(word)
    if run:
        words.append(run)
    return words


def _looks_like_staff(text: str) -> bool:
    letters = "".join(char for char in _skeleton(text) if char.isalnum())
    words = _words(text)
    return (
        (len(letters) > 4 and letters in _STAFF_WORDS)
        or any(word in _STAFF_WORDS for word in words)
        or any(word.startswith("admin") or word.endswith("admin") for word in words)
        or any(fragment in letters for fragment in _STAFF_FRAGMENTS)
    )


def _check_not_staff(text: str) -> None:
    """Refuse names that pass for the server's people or its own messages: "Admin",
    "Server notice", "Moderator", "Verwaltung", "Systemnachricht", also spaced out,
    run together, with look-alike letters or with digits for letters ("Adm1n")."""
    if any(_looks_like_staff(text.translate(leet)) for leet in _LEETSPEAK):
        raise BadName(
            "staff",
            "a name cannot look like the server's or its staff's, such as Admin or Server notice",
        )


# Characters that stand for a dot in an address: the ideographic full stops (which
# IDNA reads as dots) and a dot in brackets ("evil[.]example", "evil (dot) example").
_DOTS: Final = re.compile(r"[\u3002\uff61]|\s*[\[({]\s*(?:\.|dot|punkt)\s*[\])}]\s*")
_ADDRESS: Final = re.compile(
    r"""
    [a-z][a-z0-9+.-]*:// | \bwww\b                       # a URL
    | [^\W_][\w-]*\s*\.(?:[^\W\d_]{2,}|xn--[\w-]+)     # a domain (an e-mail's too)
    | \b\d{1,3}(?:\.\d{1,3}){3}\b                        # an IPv4 address
    """,
    re.VERBOSE,
)


def _check_no_address(text: str) -> None:
    """Refuse names that carry an address: a URL, a domain ("visit evil.example") or an
    e-mail address, also written with look-alike letters or a dot in brackets. A dot
    with a letter right after it reads as a domain ("Ann.Lee"): "Ann. Lee" is fine."""
    folded = _DOTS.sub(".", _skeleton(text))
    if _ADDRESS.search(folded):
        raise BadName(
            "address",
            "a name cannot contain a web or e-mail address, such as evil.example",
        )
