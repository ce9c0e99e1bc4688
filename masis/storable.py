"""Text every database can keep: PostgreSQL refuses NUL and lone surrogates in text (SQLite keeps them), so a
question or reply holding one is refused with the same clear message on every backend."""

from __future__ import annotations


def unstorable(text: str) -> str | None:
    """The first character of `text` no database can store, described for a user, or None."""
    for char in text:
        if char == "\x00" or "\ud800" <= char <= "\udfff":
            return f"U+{ord(char):04X}, which cannot be stored; remove it"
    return None
