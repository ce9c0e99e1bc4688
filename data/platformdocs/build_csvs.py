"""Build the two CSV tables of data/platformdocs/files from the files they come from (stdlib only).

    python data/platformdocs/build_csvs.py

- ccache-releases.csv: the release headings of ccache-NEWS.txt (`== Ccache 4.7.5` followed by
  `Release date: 2023-03-20`), header `Version,Release date`, one row per release in the file's order.
- prometheus-node-exporter-collectors.csv: the two collector tables of prometheus-node-exporter-README.md
  ("Enabled by default" and "Disabled by default"), header `Collector,Description,OS,Default`, the first three
  cells as the README writes them (trimmed; Markdown's `\\_` written `_`), `Default` `enabled` or `disabled` by
  the table the row is in.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"


def ccache_releases() -> list[list[str]]:
    lines = (FILES / "ccache-NEWS.txt").read_text(encoding="utf-8").splitlines()
    rows: list[list[str]] = []
    version: str | None = None
    for line in lines:
        heading = re.fullmatch(r"== Ccache (\S+)\s*", line)
        if heading:
            version = heading.group(1)
            continue
        date = re.fullmatch(r"Release date: (\d{4}-\d{2}-\d{2})\s*", line)
        if date and version is not None:
            rows.append([version, date.group(1)])
            version = None
    return rows


def node_exporter_collectors() -> list[list[str]]:
    lines = (FILES / "prometheus-node-exporter-README.md").read_text(encoding="utf-8").splitlines()
    rows: list[list[str]] = []
    default: str | None = None
    for line in lines:
        if line.startswith("### "):
            title = line[4:].strip()
            default = {"Enabled by default": "enabled", "Disabled by default": "disabled"}.get(title)
            continue
        if default is None or "|" not in line or line.startswith("Name ") or line.startswith("---"):
            continue
        cells = [c.strip().replace("\\_", "_") for c in line.split(" | ")]
        if len(cells) != 3:
            raise SystemExit(f"unexpected collector row: {line!r}")
        rows.append([*cells, default])
    return rows


def write(name: str, header: list[str], rows: list[list[str]]) -> None:
    with open(FILES / name, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
    print(f"{name}: {len(rows)} rows")


def main() -> None:
    write("ccache-releases.csv", ["Version", "Release date"], ccache_releases())
    write("prometheus-node-exporter-collectors.csv", ["Collector", "Description", "OS", "Default"],
          node_exporter_collectors())  # fmt: skip


if __name__ == "__main__":
    main()
