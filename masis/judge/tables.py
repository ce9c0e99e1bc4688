"""Tables: a quoted row answers a question about one of its columns only if it holds that column's cell."""

from __future__ import annotations

import re
from collections.abc import Sequence

from masis.judge.sentences import CSV_ROW, split_sentences
from masis.judge.terms import terms
from masis.state import EvidenceChunk

# a CSV row's cells ("column: value; column: value."; an empty cell is left out of its row: `sentences.CSV_ROW`)
_CELL = re.compile(r"(?:^|; )([^:;|]{1,80}): ")


def row_columns(sentence: str) -> list[str] | None:
    """The columns a CSV row holds a cell for, or None when the sentence is not such a row."""
    text = sentence.strip()
    if not CSV_ROW.match(text):
        return None
    return [match.group(1).strip() for match in _CELL.finditer(text)]


# A table's section heading names its rows and its columns ("rows 1-22 of version, codename, release"), so that a
# passage whose rows all leave a column empty still knows the column exists.
_ROWS_OF = " of "
_ROWS_HEADING = re.compile(r"(?:^|, )rows \d+-\d+ of (.+)$")


def rows_heading(first: int, last: int, header: Sequence[str]) -> str:
    """The heading of a table's rows `first`..`last` (1-based)."""
    columns = ", ".join(column for column in header if column)
    return f"rows {first}-{last}{_ROWS_OF}{columns}" if columns else f"rows {first}-{last}"


_ROW_RANGE = re.compile(r"\brows \d+-\d+\b")


def without_row_range(heading: str) -> str:
    """A `rows_heading` without its row numbers: "rows 1-4" counts rows, it says nothing a question asks about (a
    "value of 4" is not in a passage of four rows)."""
    return _ROW_RANGE.sub("rows", heading)


def heading_columns(heading: str | None) -> list[str]:
    """The columns a `rows_heading` names, also after a sheet's name ("Budget, rows 4-43 of …"); none for any
    other heading."""
    found = _ROWS_HEADING.search(heading or "")
    return [column.strip() for column in found.group(1).split(",") if column.strip()] if found else []


def table_columns(text: str, heading: str | None = None) -> set[str]:
    """Every column named by a row of the passage or by its section's heading."""
    found: set[str] = set(heading_columns(heading))
    for sentence in split_sentences(text):
        found.update(row_columns(sentence) or ())
    return found


def missing_columns(
    question_terms: frozenset[int], quotes: Sequence[tuple[str, EvidenceChunk]], worded: frozenset[int] = frozenset()
) -> list[str]:
    """The column a question asks about ("When was Debian 14 released?" -> `release`) that none of the quoted rows
    holds a cell for: an empty cell is a near miss, not the row's other cells. The most specific column the
    question names counts ("eol-esm" over "eol"). Empty when no quote is a row or the question names no column.
    `worded`: the question's words less its framing phrases (`terms.worded_terms`); a column may take one that frames
    questions elsewhere beside a word the question is about ("Long option" in "What's the long option name for
    -Bn?": "long" is a question word for "how long")."""
    missing: list[str] = []
    for sentence, chunk in quotes:
        held = row_columns(sentence)
        if held is None:
            continue
        named = [(column, found) for column in table_columns(chunk["text"], chunk.get("section"))
                 if (found := terms(column)) & question_terms and found <= question_terms | worded]
        if not named:
            continue
        wanted = max(named, key=lambda pair: (len(pair[1]), pair[0]))[0]
        if wanted in held:
            return []
        if wanted not in missing:
            missing.append(wanted)
    return missing
