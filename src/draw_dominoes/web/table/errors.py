"""A refused request: one code, translated for whoever sent it."""

from __future__ import annotations

from typing import Any

from ...actions import IllegalActionError
from ...i18n import explain_refusal, translate
from ..names import explain_reason

__all__ = ["UserError"]


class UserError(Exception):
    """A refused request; ``code`` names the ``web.error_<code>`` message shown to the user.
    Whatever raised it has changed nothing."""

    def __init__(self, code: str, **values: Any) -> None:
        super().__init__(code)
        self.code = code
        self.values = values

    def message(self, lang: str) -> str:
        reason = self.values.get("reason")
        if self.code == "bad_name" and isinstance(reason, str):  # says why, not only what
            return explain_reason(reason, lang)
        values = {
            key: explain_refusal(value, lang) if isinstance(value, IllegalActionError) else value
            for key, value in self.values.items()
        }
        return translate(f"web.error_{self.code}", lang, **values)
