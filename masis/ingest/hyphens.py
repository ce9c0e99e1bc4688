"""Words a rendered man page hyphenated at a line's end, written whole again.

groff fills a man page's paragraphs and breaks long words at the margin with U+2010 HYPHEN ("The de‐\\n   fault is 5
seconds."), a character its text uses nowhere else (a hyphen the page's source writes comes out as "-"). Left as they
are, "de‐ fault" and "ran‐ dom" are two words that no question's "default" or "random" finds, and a quote that holds
them reads badly. Joined, the word is whole and the line's layout is kept: the second half moves up to the first line,
and the second line keeps its indentation (a line that held only the second half goes).
"""

from __future__ import annotations

import re

# a word's first half and U+2010 at a line's end, then the next line's indentation, its first run of non-space
# characters (the second half, with any punctuation after it), and whether anything follows on that line
_BROKEN = re.compile(r"(?P<left>\w+)\u2010\n(?P<indent>[ \t]*)(?P<right>\S+)(?P<gap>[ \t]*)(?P<end>\n|$)?")
_WORD = re.compile(r"\w+")


def rejoin_hyphenated(text: str) -> str:
    """`text` with every word broken by U+2010 at a line's end written whole. Two halves that are words of their own
    and make none together were a compound broken at its own hyphen ("wild‐\\n card" is "wild-card"); any other
    pair is one word ("num‐\\n ber", "tcp_win‐\\n dow_scaling")."""
    if "\u2010\n" not in text:
        return text
    return _BROKEN.sub(_joined, text)


def _joined(match: re.Match[str]) -> str:
    # not at the top: the judge's imports (its word lists, Qdrant Edge's BM25) would slow every parse child that
    # imports the loaders, and only a text with such breaks needs them
    from masis.judge.names import is_ordinary

    left, right = match["left"], match["right"]
    first = _WORD.match(right)
    glue = ""
    if first is not None:
        second = first.group(0)
        compound = is_ordinary(left.lower()) and is_ordinary(second.lower()) and len(left) > 1 and len(second) > 1
        if compound and not is_ordinary(f"{left}{second}".lower()):
            glue = "-"
    whole = f"{left}{glue}{right}"
    if match["end"] is not None:  # the second line held only the second half: it goes with it
        return f"{whole}{match['end']}"
    return f"{whole}\n{match['indent']}"
