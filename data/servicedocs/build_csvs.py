"""Build the two CSV tables of data/servicedocs/files/ from tables in two of its files (cells verbatim, trimmed).

    python data/servicedocs/build_csvs.py
"""

import csv
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"


def md_table(text: str, first_header_cell: str) -> list[list[str]]:
    """The Markdown pipe table whose header row starts with `first_header_cell`: header and body rows, cells trimmed."""
    lines = text.splitlines()
    start = next(
        i for i, line in enumerate(lines) if line.startswith("|") and line.strip("| ").startswith(first_header_cell)
    )
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if all(set(c) <= set("-: ") for c in cells):  # the |---|---| separator
            continue
        rows.append(cells)
    return rows


def rsync_release_history() -> None:
    """The "Partial Protocol History" table at the end of rsync-NEWS.md (release date, version, commit date,
    protocol)."""
    rows = md_table((FILES / "rsync-NEWS.md").read_text(encoding="utf-8"), "RELEASE DATE")
    rows[0] = [c.replace("\\*", "*") for c in rows[0]]
    with open(FILES / "rsync-protocol-history.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def pgbouncer_dns_backends() -> None:
    """The DNS backend table of pgbouncer-README.md (backend, parallel, EDNS0, /etc/hosts, SOA lookup, note)."""
    rows = md_table((FILES / "pgbouncer-README.md").read_text(encoding="utf-8"), "backend")
    with open(FILES / "pgbouncer-dns-backends.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


if __name__ == "__main__":
    rsync_release_history()
    pgbouncer_dns_backends()
