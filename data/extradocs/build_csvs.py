"""Build the CSV table of data/extradocs/files from the reStructuredText table it comes from (stdlib only).

    python data/extradocs/build_csvs.py

crcmod-predefined-crcs.csv: the "Predefined CRC algorithms" simple table of crcmod-predefined.rst. Column bounds
are read from the table's `====` ruler; cells are trimmed, the ``literal`` quotes around the names and the footnote
marks ([#ccitt]_) are dropped (the footnote stays in the .rst only).
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"


def simple_table(lines: list[str], heading: str) -> list[list[str]]:
    """Rows (header first) of the first reST simple table after the line `heading`."""
    start = lines.index(heading)
    rulers = [i for i in range(start, len(lines)) if re.fullmatch(r"=+( +=+)+", lines[i].strip())][:3]
    ruler = lines[rulers[0]]
    bounds = [(m.start(), m.end()) for m in re.finditer(r"=+", ruler)]
    bounds[-1] = (bounds[-1][0], None)
    rows = []
    for i in range(rulers[0] + 1, rulers[2]):
        if i == rulers[1] or not lines[i].strip():
            continue
        cells = [lines[i][a:b].strip() if b else lines[i][a:].strip() for a, b in bounds]
        rows.append([re.sub(r"\s*\[#\w+\]_", "", c).replace("``", "") for c in cells])
    return rows


def main() -> None:
    lines = (FILES / "crcmod-predefined.rst").read_text(encoding="utf-8").splitlines()
    rows = simple_table(lines, "Predefined CRC algorithms")
    with (FILES / "crcmod-predefined-crcs.csv").open("w", encoding="utf-8", newline="") as out:
        csv.writer(out, lineterminator="\n").writerows(rows)


if __name__ == "__main__":
    main()
