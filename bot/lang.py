"""The languages the host speaks, and the one place a language is read from text."""

from __future__ import annotations

import enum
from typing import TypeVar

T = TypeVar("T")


class Lang(enum.StrEnum):
    """A language the host speaks. :meth:`of` is the one place a language is read from text."""

    EN = "en"
    JA = "ja"

    @classmethod
    def of(cls, value: object, fallback: object = "en") -> Lang:
        """The language ``value`` names (``ja``, ``en-US``, a Discord locale), else the one
        ``fallback`` names (else English)."""
        for text in (str(value or ""), str(fallback or "")):
            if text.startswith("ja"):
                return cls.JA
            if text.startswith("en"):
                return cls.EN
        return cls.EN

    def pick(self, en: T, ja: T) -> T:
        """The one of a pair of words in this language."""
        return ja if self is Lang.JA else en
