"""Build the two CSV tables of data/teamdocs/files/ from tables in two of its files (cells verbatim, trimmed).

    python data/teamdocs/build_csvs.py
"""

import csv
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"


def backport_labels() -> None:
    """The 'Labeling backport issues and PRs' table of nodejs-backporting-to-release-lines.md."""
    lines = (FILES / "nodejs-backporting-to-release-lines.md").read_text(encoding="utf-8").splitlines()
    header = "| Label                   | Description                                                         |"
    start = lines.index(header)
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if set("".join(cells)) <= {"-", " "}:
            continue
        rows.append(cells)
    with open(FILES / "nodejs-backport-labels.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def release_candidates() -> None:
    """The rc1/rc2 table of util-linux-release-schedule.txt (tab-separated columns, header 'what length what ...')."""
    text = (FILES / "util-linux-release-schedule.txt").read_text(encoding="utf-8")
    rows = [["Release candidate", "Length", "What will be accepted into upstream"]]
    for m in re.finditer(r"^  (rc\d)\t (\S+ weeks)\t(.+)$", text, re.M):
        rows.append([m.group(1), m.group(2), m.group(3).strip()])
    with open(FILES / "util-linux-release-candidates.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


if __name__ == "__main__":
    backport_labels()
    release_candidates()
