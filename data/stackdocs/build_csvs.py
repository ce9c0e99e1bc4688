"""Build the CSV table of data/stackdocs/files from the Markdown table it comes from (stdlib only).

    python data/stackdocs/build_csvs.py

gunicorn-access-log-identifiers.csv: the access-log format table (| Identifier | Description |) under
`access_log_format` in gunicorn-settings.md, the first pipe table of the file. Cells are split on `|`, trimmed, and
the backticks around code spans dropped (`'-'` becomes '-'); the `|---|` separator row is skipped.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"


def pipe_table(lines: list[str], after: str) -> list[list[str]]:
    """Rows (header first) of the first Markdown pipe table after the line `after`."""
    start = lines.index(after)
    first = next(i for i in range(start, len(lines)) if lines[i].startswith("|"))
    rows = []
    for line in lines[first:]:
        if not line.startswith("|"):
            break
        if re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", line.strip()):
            continue
        cells = [c.strip().replace("`", "") for c in line.strip().strip("|").split("|")]
        rows.append(cells)
    return rows


def main() -> None:
    lines = (FILES / "gunicorn-settings.md").read_text(encoding="utf-8").splitlines()
    rows = pipe_table(lines, "### `access_log_format`")
    with (FILES / "gunicorn-access-log-identifiers.csv").open("w", encoding="utf-8", newline="") as out:
        csv.writer(out, lineterminator="\n").writerows(rows)


if __name__ == "__main__":
    main()
