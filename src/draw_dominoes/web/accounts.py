"""Accounts: user names, password hashes (scrypt) and session tokens, apart from storage."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Final

from .names import BadName, check_name

__all__ = [
    "MAX_PASSWORD_LENGTH",
    "MIN_PASSWORD_LENGTH",
    "SESSION_COOKIE",
    "SESSION_SECONDS",
    "USERNAME_PATTERN",
    "BadPassword",
    "PasswordHash",
    "check_password",
    "check_username",
    "hash_password",
    "new_session_token",
    "username_key",
    "verify_nothing",
    "verify_password",
]

SESSION_COOKIE: Final = "dd_session"
SESSION_SECONDS: Final = 60 * 60 * 24 * 30
"""A session lasts 30 days from its sign-in; signing in again starts a new one."""
MIN_PASSWORD_LENGTH: Final = 8
MAX_PASSWORD_LENGTH: Final = 256
"""Longer passwords are refused rather than hashed: nobody types more, and it bounds the
work one request can ask for."""
USERNAME_PATTERN: Final = re.compile(r"[^\W_][\w.-]{1,18}[^\W_]")
"""3 to 20 letters, digits, ``_``, ``.`` and ``-``, starting and ending with a letter or
digit: a name that can stand in a URL (``/players/<name>``) and be read aloud."""

# scrypt with n = 2**14, r = 8: 16 MiB and about 50 ms a hash, OWASP's floor for scrypt.
_N, _R, _P, _LENGTH = 2**14, 8, 1, 32
_MAXMEM = 64 * 1024 * 1024


class BadPassword(ValueError):
    """A password that cannot be used; ``reason`` is ``short``, ``long`` or ``type``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def check_username(name: object) -> str:
    """The user name to store and show (NFKC), else ``BadName``: the display names' rules
    (no staff-like names, no addresses, no bot labels) and ``USERNAME_PATTERN``."""
    shown = check_name(name)
    text = unicodedata.normalize("NFKC", shown)
    if not 3 <= len(text) <= 20:
        raise BadName("username_length", "a user name has 3 to 20 characters")
    if not USERNAME_PATTERN.fullmatch(text):
        raise BadName("username_character", "letters, digits, _ . - only")
    return text


def username_key(name: str) -> str:
    """The form two user names are compared in: ``Anna`` and ``ANNA`` are one account."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_password(password: object) -> str:
    if not issubclass(type(password), str):
        raise BadPassword("type")
    text = str.__str__(password)
    if len(text) < MIN_PASSWORD_LENGTH:
        raise BadPassword("short")
    if len(text) > MAX_PASSWORD_LENGTH:
        raise BadPassword("long")
    return text


@dataclass(frozen=True, slots=True)
class PasswordHash:
    """What is stored for a password: ``scrypt$n$r$p$salt$hash`` (base64), never the
    password."""

    text: str


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        password.encode("utf-8", "surrogatepass"),
        salt=salt,
        n=n,
        r=r,
        p=p,
        maxmem=_MAXMEM,
        dklen=_LENGTH,
    )


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def hash_password(password: str) -> PasswordHash:
    salt = secrets.token_bytes(16)
    digest = _scrypt(password, salt, _N, _R, _P)
    return PasswordHash(f"scrypt${_N}${_R}${_P}${_b64(salt)}${_b64(digest)}")


def verify_password(password: str, stored: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (in constant time)."""
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        expected = base64.b64decode(digest, validate=True)
        actual = _scrypt(password, base64.b64decode(salt, validate=True), int(n), int(r), int(p))
    except (ValueError, MemoryError):
        return False
    return hmac.compare_digest(actual, expected)


_NOBODY = hash_password(secrets.token_urlsafe(16)).text
"""A hash no password matches: checked against for an unknown user name, so that an
unknown name takes as long to refuse as a wrong password."""


def verify_nothing(password: str) -> bool:
    """As long as ``verify_password`` takes, and always False."""
    verify_password(password, _NOBODY)
    return False


def new_session_token() -> str:
    """A session's secret: 256 random bits. Only its hash is stored."""
    return secrets.token_urlsafe(32)
