"""Which store a `--db` value names (a file path or a PostgreSQL URL), and URLs fit to print."""

from __future__ import annotations

import re
from typing import Literal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from .base import StoreError

__all__ = ["POSTGRES_SCHEMES", "kind", "redact"]

POSTGRES_SCHEMES = ("postgresql", "postgres")
"""The URL schemes of PostgreSQL (libpq accepts both)."""

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def kind(where: str) -> Literal["sqlite", "postgresql"]:
    """``postgresql`` for a PostgreSQL URL, ``sqlite`` for anything without a scheme (a
    file path); a URL of any other database is refused rather than taken for a file name."""
    found = _SCHEME.match(where)
    if found is None:
        return "sqlite"
    if found.group(1).lower() in POSTGRES_SCHEMES:
        return "postgresql"
    accepted = " or ".join(f"{scheme}://" for scheme in POSTGRES_SCHEMES)
    raise StoreError(
        redact(where), f"{found.group(1)}:// is not supported: give {accepted}, or a file path"
    )


def redact(url: str) -> str:
    """``url`` without its password (in the user part or as ``?password=``): for messages
    and logs, which must never show it."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if "@" in netloc:
            user, _, host = netloc.rpartition("@")
            netloc = f"{user.partition(':')[0]}@{host}"
        query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)]
        query = [(k, v) for k, v in query if k.lower() != "password"]
        return urlunsplit(parts._replace(netloc=netloc, query=urlencode(query)))
    except ValueError:  # not a URL one can take apart: show only its scheme
        found = _SCHEME.match(url)
        return f"{found.group(1)}://…" if found else "(a database URL)"
