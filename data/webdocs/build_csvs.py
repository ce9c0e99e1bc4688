"""Build the CSV table of data/webdocs/files from the Markdown tables it comes from (stdlib only).

    python data/webdocs/build_csvs.py

orjson-latency.csv: the eight latency tables under "### Latency" in orjson-METADATA.md, one per document and
direction (`#### twitter.json serialization` ... `#### canada.json deserialization`), each
| Library | Median latency (milliseconds) | Operations per second | Relative (latency) |. They are written as one table:
the heading's two words become the columns Document and Operation, then the table's four cells, split on `|` and
trimmed; the `|---|` separator rows are skipped. 16 rows (orjson and json for each heading).
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"


def latency_rows(lines: list[str]) -> list[list[str]]:
    """Header, then one row per table line under each `#### <document> <operation>` heading of the Latency section."""
    start = lines.index("### Latency")
    end = lines.index("### Reproducing")
    header: list[str] = []
    rows: list[list[str]] = []
    document = operation = ""
    for line in lines[start:end]:
        heading = re.fullmatch(r"#### (\S+) (serialization|deserialization)", line.strip())
        if heading:
            document, operation = heading.groups()
            continue
        if not line.startswith("|") or re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", line.strip()):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "Library":
            header = ["Document", "Operation", *cells]
            continue
        rows.append([document, operation, *cells])
    return [header, *rows]


def main() -> None:
    lines = (FILES / "orjson-METADATA.md").read_text(encoding="utf-8").splitlines()
    with (FILES / "orjson-latency.csv").open("w", encoding="utf-8", newline="") as out:
        csv.writer(out, lineterminator="\n").writerows(latency_rows(lines))


if __name__ == "__main__":
    main()
