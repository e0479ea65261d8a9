"""JSON text for clients: always encodable, and lists that only grow encoded entry by entry."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["GrowingList", "encode"]


_ENCODER = json.JSONEncoder(separators=(",", ":"))
"""Built once: ``json.dumps`` with options builds an encoder for every call."""


def encode(value: Any) -> str:
    """A message (or part of one) as JSON text, ASCII only: whatever a client sent (a lone
    surrogate, say) is escaped, so the text always encodes."""
    return _ENCODER.encode(value)


class GrowingList:
    """The JSON text of a list that only grows while its owner lives (a round's history,
    its line's placements), so each entry is encoded once, not once a state."""

    __slots__ = ("count", "owner", "text")

    def __init__(self) -> None:
        self.owner: object = None
        self.count = 0
        self.text = ""

    def encode(self, owner: object, items: list[Any]) -> str:
        if owner is not self.owner or len(items) < self.count:
            self.owner, self.count, self.text = owner, 0, ""
        if len(items) > self.count:
            fresh = encode(items[self.count :])[1:-1]
            self.text = f"{self.text},{fresh}" if self.text else fresh
            self.count = len(items)
        return f"[{self.text}]"
