"""Build the CSV table(s) of data/libdocs/files/ from files of the same folder (cells verbatim, trimmed).

    python data/libdocs/build_csvs.py

Stdlib only.
"""

import csv
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"

# In limits.conf(5) rendered to text, an <item> entry is its name alone on a line indented by 11 spaces,
# followed by its description indented by 15 spaces.
_ITEM = re.compile(r"^ {11}([a-z]+)\s*$")
_UNIT = re.compile(r"\((KB|minutes|bytes)\)")
_SINCE = re.compile(r"\(Linux ([0-9.]+) and higher\)")


def limits_conf_items() -> None:
    """The <item> list of libpam-modules-limits.conf.5.txt (limits.conf(5) of Linux-PAM rendered to text):
    one row per item, with the unit and the minimum Linux version its description gives in parentheses
    (empty when it gives none)."""
    text = (FILES / "libpam-modules-limits.conf.5.txt").read_text(encoding="utf-8")
    start = text.index("\n       <item>\n")
    end = text.index("\n       All items support", start)
    entries: list[tuple[str, list[str]]] = []
    for line in text[start:end].splitlines()[2:]:
        m = _ITEM.match(line)
        if m:
            entries.append((m.group(1), []))
        elif entries and line.strip():
            entries[-1][1].append(line.strip())
    rows = [["Item", "Description", "Unit", "Linux version"]]
    for name, body in entries:
        description = " ".join(body)
        unit = _UNIT.search(description)
        since = _SINCE.search(description)
        rows.append([name, description, unit.group(1) if unit else "", since.group(1) if since else ""])
    with open(FILES / "libpam-modules-limits-items.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


if __name__ == "__main__":
    limits_conf_items()
