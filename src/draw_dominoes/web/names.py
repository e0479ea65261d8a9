"""Display names for the web app: normalise them and refuse the ones that mislead or break."""

from __future__ import annotations

import unicodedata
from typing import Final, cast

from .. import bots

__all__ = ["MAX_NAME_LENGTH", "REASONS", "BadName", "check_name"]

MAX_NAME_LENGTH: Final = 24
"""The longest name, in code points after normalisation: it has to fit a seat in the list."""

REASONS: Final = ("type", "length", "character", "invisible", "bot_label")
"""Every ``BadName.reason``; the web layer translates by these codes, so they never change."""

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
    return text


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
