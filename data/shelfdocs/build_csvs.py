"""Build the CSV table(s) of data/shelfdocs/files/ from files of the same folder (cells verbatim, trimmed).

    python data/shelfdocs/build_csvs.py

Stdlib only. Each builder reads one file of files/ and writes one CSV beside it.
"""

import csv
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"


def signal_standard_signals() -> None:
    """Part C. The "Standard signals" table of manpages-signal.7.txt (signal(7) rendered to text): columns
    Signal, Standard, Action, Comment as the page heads them. Column bounds are taken from the header line;
    a row whose first column is blank continues the Comment of the row above (joined with one space). Cells
    are copied verbatim and trimmed: "-" (no standard) stays "-", and a cell the page leaves blank (the
    Action of SIGINFO) stays empty."""
    lines = (FILES / "manpages-signal.7.txt").read_text(encoding="utf-8").splitlines()
    head = next(i for i, s in enumerate(lines) if s.split() == ["Signal", "Standard", "Action", "Comment"])
    names = lines[head].split()
    starts = [lines[head].index(n) for n in names]
    bounds = list(zip(starts, starts[1:] + [None]))
    rows: list[list[str]] = []
    for line in lines[head + 2:]:  # skip the rule line under the header
        if not line.strip():
            break
        cells = [line[a:b].strip() if b else line[a:].strip() for a, b in bounds]
        if cells[0]:
            rows.append(cells)
        else:  # continuation of the Comment cell
            rows[-1][3] = (rows[-1][3] + " " + " ".join(cells[1:]).strip()).strip()
    with open(FILES / "manpages-signal-standard-signals.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([names] + rows)


BUILDERS = [signal_standard_signals]

if __name__ == "__main__":
    for build in BUILDERS:
        build()
