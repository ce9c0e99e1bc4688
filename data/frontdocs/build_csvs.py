"""Build the two CSV tables of the frontdocs set from the files they come from (stdlib only).

    python data/frontdocs/build_csvs.py

- files/axios-releases.csv from the release headings of files/axios-CHANGELOG.md: one row per release heading,
  in the file's order (newest first), header `Version,Release date`. The changelog writes its dates three ways
  (`## v1.21.0 — October 21, 2026`, `## [1.13.3](…) (2026-01-20)`, `## [1.2.2] - 2022-12-29`); the CSV writes
  each as an ISO date (YYYY-MM-DD) and the version without its `v`.
- files/css-loader-options.csv from the option sections of files/css-loader-README.md: one row per option
  heading that has a `Default:` line, in the file's order, header `Option,Type,Default`. A `modules` sub-option
  is named `modules.<name>` and `import`'s filter `import.filter`; the type is the TypeScript block after
  `Type:` without its `type <name> =` and final `;`, joined into one line (or the text after `Type:` on its
  line, without backticks, where the README writes it inline); the default is the text after
  `Default:` on its line, without backticks and without a trailing colon.
"""

from __future__ import annotations

import csv
import re
from datetime import datetime
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"


def axios_releases() -> list[list[str]]:
    rows = []
    patterns = (
        (re.compile(r"^## v(\d+\.\d+\.\d+\S*) [—-] ([A-Z][a-z]+ \d{1,2}, \d{4})\s*$"), "%B %d, %Y"),
        (re.compile(r"^#{1,2} \[(\d+\.\d+\.\d+[^\]]*)\]\([^)]*\) \((\d{4}-\d{2}-\d{2})\)\s*$"), "%Y-%m-%d"),
        (re.compile(r"^## \[(\d+\.\d+\.\d+[^\]]*)\] - (\d{4}-\d{2}-\d{2})\s*$"), "%Y-%m-%d"),
    )
    for line in (FILES / "axios-CHANGELOG.md").read_text(encoding="utf-8").splitlines():
        for pattern, date_format in patterns:
            m = pattern.match(line)
            if m:
                date = datetime.strptime(m.group(2), date_format).date().isoformat()
                rows.append([m.group(1), date])
                break
    return rows


def css_loader_options() -> list[list[str]]:
    lines = (FILES / "css-loader-README.md").read_text(encoding="utf-8").splitlines()
    rows = []
    top = ""
    name = ""
    type_text = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(#{3,6}) `([^`]+)`\s*$", line)
        if m:
            level, heading = len(m.group(1)), m.group(2)
            if level == 3:
                top, name, type_text = heading, heading, ""
            elif level == 5 and top in ("modules", "import") and re.fullmatch(r"[A-Za-z]+", heading):
                name, type_text = f"{top}.{heading}", ""
        elif line.startswith("Type: ") and name:
            type_text = line[len("Type:") :].strip().replace("`", "")
        elif line.strip() == "Type:" and name:
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            k = j + 1
            block = []
            while k < len(lines) and not lines[k].startswith("```"):
                block.append(lines[k].strip())
                k += 1
            text = " ".join(block)
            text = re.sub(r"^type \w+\s*=\s*", "", text).rstrip(";").strip()
            type_text = " ".join(text.split())
            i = k
        elif line.startswith("Default:") and name:
            default = line[len("Default:") :].strip().replace("`", "").rstrip(":").strip()
            rows.append([name, type_text, default])
            name = ""
        i += 1
    return rows


def write(path: Path, header: list[str], rows: list[list[str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def main() -> None:
    write(FILES / "axios-releases.csv", ["Version", "Release date"], axios_releases())
    write(FILES / "css-loader-options.csv", ["Option", "Type", "Default"], css_loader_options())


if __name__ == "__main__":
    main()
