"""Write one Markdown pipe table of a document as CSV: cells copied verbatim, trimmed, footnote marks dropped.

Used once to build the CSV tables of data/realdocs/files/ that come from a table in a public doc, e.g.
    python data/realdocs/md_table_to_csv.py data/realdocs/files/nodejs-BUILDING.md 103 > out.csv
where 103 is the 1-based line of the table's header row.
"""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

_FOOTNOTE = re.compile(r"\[\^\d+\]")
_RULE = re.compile(r"^\|?\s*:?-{3,}")


def table_rows(lines: list[str], header_line: int) -> list[list[str]]:
    """The rows of the pipe table whose header is at 1-based `header_line`, rule row skipped."""
    rows: list[list[str]] = []
    for line in lines[header_line - 1 :]:
        if not line.startswith("|"):
            break
        if _RULE.match(line):
            continue
        cells = line.strip().strip("|").split("|")
        rows.append([_FOOTNOTE.sub("", cell).strip().strip(",").strip() for cell in cells])
    return rows


def main(argv: list[str]) -> int:
    if len(argv) != 3 or not argv[2].isdigit():
        print("usage: md_table_to_csv.py FILE.md HEADER_LINE", file=sys.stderr)
        return 2
    lines = Path(argv[1]).read_text(encoding="utf-8").splitlines()
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerows(table_rows(lines, int(argv[2])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
