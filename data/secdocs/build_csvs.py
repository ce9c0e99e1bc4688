"""Build the CSV table of data/secdocs/files/ from the file it comes from (stdlib only).

    python data/secdocs/build_csvs.py

- stunnel4-releases.csv: the release headings of stunnel4-NEWS.md that carry a date and an urgency
  ("### Version 5.68, 2023.02.07, urgency: HIGH"), in the file's order: Version,Release date,Urgency.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"
HEADING = re.compile(r"^### Version (\S+), (\d{4}\.\d{2}\.\d{2}), urgency: (\S+)$")


def stunnel_releases() -> list[list[str]]:
    rows = []
    for line in (FILES / "stunnel4-NEWS.md").read_text(encoding="utf-8").splitlines():
        match = HEADING.match(line.rstrip())
        if match:
            rows.append(list(match.groups()))
    return rows


def main() -> None:
    rows = stunnel_releases()
    with open(FILES / "stunnel4-releases.csv", "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["Version", "Release date", "Urgency"])
        writer.writerows(rows)
    print(f"stunnel4-releases.csv: {len(rows)} rows")


if __name__ == "__main__":
    main()
