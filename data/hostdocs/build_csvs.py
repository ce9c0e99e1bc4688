"""Build the CSV table(s) of data/hostdocs/files/ from lists in files of the same folder (cells verbatim, trimmed).

    python data/hostdocs/build_csvs.py

Stdlib only.
"""

import csv
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"


def useradd_exit_values() -> None:
    """The EXIT VALUES section of passwd-useradd.8.txt (useradd(8) rendered to text): one row per
    value, a line holding only the number followed by a line holding its meaning."""
    text = (FILES / "passwd-useradd.8.txt").read_text(encoding="utf-8")
    start = text.index("\nEXIT VALUES\n")
    end = text.index("\nSEE ALSO\n", start)
    section = text[start:end]
    rows = [["Exit value", "Meaning"]]
    for m in re.finditer(r"^ +(\d+)\n +(\S.*?)\s*$", section, re.M):
        rows.append([m.group(1), m.group(2)])
    with open(FILES / "passwd-useradd-exit-values.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


if __name__ == "__main__":
    useradd_exit_values()
