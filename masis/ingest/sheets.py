"""Excel (.xlsx) workbooks as sections: each sheet a table whose rows read as sentences, as CSV rows do.

A sheet's header is its first row with two or more values; the single values above it (a title, a note)
are read as text. Formulas give the value Excel last computed and saved with the file.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterable, Iterator
from typing import Any

from masis.ingest.sections import BLOCK_BREAK, ROWS_PER_SECTION, Problem, Section, check_office_zip, row_sentence

# Columns past this one are not read, so a row costs at most this many cells of work however far right a
# stray cell sits (Excel allows 16,384).
MAX_COLUMNS = 512
OLD_OR_LOCKED = ("this is an old-style Excel file (.xls) or a password-protected one; save it as .xlsx "
                 "without a password and upload again")
_DAMAGED = ("could not open this XLSX; it may be damaged or not an Excel workbook - open and re-save it in "
            "Excel, then upload again")


def load_xlsx(data: bytes) -> list[Section]:
    from openpyxl import load_workbook

    check_office_zip(data, "XLSX", "Excel", OLD_OR_LOCKED)
    sections: list[Section] = []
    # openpyxl raises zipfile, KeyError, XML and its own errors for damaged packages, also while reading rows
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            for sheet in workbook.worksheets:
                # The stored size can claim a million rows of 16,384 columns, and read with it every row would be
                # padded to that width: read each row as wide as its own cells instead.
                sheet.reset_dimensions()
                sections.extend(sheet_sections(sheet.title, sheet.iter_rows(values_only=True)))
        finally:
            workbook.close()
    except Exception:
        raise Problem(_DAMAGED) from None
    return sections


def sheet_sections(title: str, rows: Iterable[tuple[Any, ...]]) -> Iterator[Section]:
    from masis.judge.tables import rows_heading  # not at the top: the judge's imports would slow every parse child

    """One sheet's sections: the text above its table, then its rows, ROWS_PER_SECTION a section, each
    headed by the sheet's name and the rows' numbers in the sheet."""
    header: list[str] | None = None
    preamble: list[str] = []
    batch: list[str] = []
    first = last = 0
    for number, values in enumerate(rows, start=1):
        values = values[:MAX_COLUMNS]
        if values.count(None) == len(values):  # rows missing from the sheet come as empty tuples
            continue
        row = [cell_text(value) for value in values]
        filled = sum(1 for cell in row if cell)
        if header is None:
            if filled >= 2:
                header = row
                if preamble:
                    yield Section(text=BLOCK_BREAK.join(preamble), heading=title)
            elif filled:
                preamble.append(next(cell for cell in row if cell))
            continue
        if not filled:
            continue
        if not batch:
            first = number
        batch.append(row_sentence(header, row))
        last = number
        if len(batch) == ROWS_PER_SECTION:
            yield Section(text=BLOCK_BREAK.join(batch), heading=f"{title}, {rows_heading(first, last, header or [])}")
            batch = []
    if header is None and preamble:  # a single column: a list, not a table
        yield Section(text=BLOCK_BREAK.join(preamble), heading=title)
    elif header is not None and not last:  # a header and no rows: the header is all there is to read
        yield Section(text=" | ".join(cell for cell in header if cell), heading=title)
    if batch:
        yield Section(text=BLOCK_BREAK.join(batch), heading=f"{title}, {rows_heading(first, last, header or [])}")


def cell_text(value: object) -> str:
    """A cell's value as Excel would show it in a plain cell: 212 not 212.0, a date without midnight."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return f"{value:.15g}"
    if isinstance(value, dt.datetime):
        if value.time() == dt.time():
            return value.date().isoformat()
        return value.isoformat(sep=" ", timespec="seconds" if value.second else "minutes")
    return " ".join(str(value).split())
