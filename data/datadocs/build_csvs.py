"""Build the two CSV tables of data/datadocs/files from the files they come from (stdlib only).

    python data/datadocs/build_csvs.py

sqlite-releases.csv: the release headings of sqlite-changelog.html (SQLite's "Release History"), one `<h3>` per
release, written `<h3>2022-12-28 (3.40.1)</h3>`. Each heading becomes a row: the date, the text inside the
parentheses (the version, sometimes with "beta" or "alpha" or "Not Released"), and any text after the closing
parenthesis (one heading, 3.5.0's, ends in "alpha"). Headings that carry only a date (the 22 of the year 2000 before
the first numbered release) are skipped. Rows in the page's order (newest first).

pandas-extras.csv: the optional dependencies of pandas-METADATA.md, one row per `Requires-Dist:` line whose
environment marker names an extra (`Requires-Dist: pyarrow>=16.0.0; extra == "pyarrow"`): the extra, the package
(the requirement up to its first version operator) and the version specifier (the rest, empty when there is none).
The required dependencies (numpy, python-dateutil, tzdata) have no extra and are not in it. Rows in file order.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"


def sqlite_rows(html: str) -> list[list[str]]:
    rows = [["Release date", "Version", "Remark"]]
    for heading in re.findall(r"<h3>([^<]*)</h3>", html):
        match = re.fullmatch(r"(\d{4}-\d\d-\d\d) \(([^)]*)\)\s*(.*)", heading.strip())
        if match:
            rows.append([match[1], match[2].strip(), match[3].strip()])
    return rows


def pandas_rows(metadata: str) -> list[list[str]]:
    rows = [["Extra", "Package", "Version specifier"]]
    for line in metadata.splitlines():
        match = re.fullmatch(r'Requires-Dist: ([^;]+); extra == "([^"]+)"', line.strip())
        if match:
            requirement, extra = match[1].strip(), match[2]
            package, specifier = re.fullmatch(r"([^<>=!~]+)(.*)", requirement).groups()
            rows.append([extra, package.strip(), specifier.strip()])
    return rows


def write(name: str, rows: list[list[str]]) -> None:
    with (FILES / name).open("w", encoding="utf-8", newline="") as out:
        csv.writer(out, lineterminator="\n").writerows(rows)


def main() -> None:
    write("sqlite-releases.csv", sqlite_rows((FILES / "sqlite-changelog.html").read_text(encoding="utf-8")))
    # the header ends at the blank line before the README
    header = (FILES / "pandas-METADATA.md").read_text(encoding="utf-8").split("\n\n", 1)[0]
    write("pandas-extras.csv", pandas_rows(header))


if __name__ == "__main__":
    main()
