"""Build data/pkgdocs/files/*.csv tables from documents copied into data/pkgdocs/files/. Stdlib only.

    python data/pkgdocs/build_csvs.py

Part C: systemd-logind-defaults.csv, one row per [Login] option of logind.conf(5) (systemd 252), read from
files/systemd-logind.conf.5.txt (the man page rendered to text). Columns: option, default. The default is the
value the page states with "Defaults to ..." / "<Option>= defaults to ..." for that option; it is left empty when
the page states none in those words (e.g. IdleActionSec=).
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"


def _options_section(text: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "OPTIONS")
    end = next(i for i in range(start + 1, len(lines)) if lines[i] and not lines[i][0].isspace())
    return lines[start + 1 : end]


def _groups(section: list[str]) -> list[tuple[list[str], str]]:
    """(option names, body text) for each entry: headers are indented 7 spaces, bodies 11."""
    groups: list[tuple[list[str], str]] = []
    header: list[str] = []
    body: list[str] = []
    in_header = False
    for line in section:
        indent = len(line) - len(line.lstrip(" "))
        if line.strip() and indent == 7 and re.fullmatch(r"[A-Za-z]+=(?:,\s*[A-Za-z]+=)*,?", line.strip()):
            if not in_header and header:
                groups.append((header, " ".join(body)))
                header, body = [], []
            header += [n.strip() for n in line.strip().split(",") if n.strip()]
            in_header = True
        elif header:
            in_header = False
            if line.strip():
                body.append(line.strip())
    if header:
        groups.append((header, " ".join(body)))
    return groups


def _clean(value: str) -> str:
    value = value.strip().rstrip(".").strip()
    value = re.split(r",\s+but\b", value)[0]
    value = re.sub(r"\s*\([^()]*\s[^()]*\)+$", "", value)  # drop a trailing remark in parentheses
    value = value.strip()
    if re.fullmatch(r'"[^"]*"', value):
        value = value[1:-1]
    return value


def _default(name: str, names: list[str], body: str) -> str:
    body = " ".join(body.split())
    # "HandlePowerKey= defaults to "poweroff"", "A=, B= and C= default to "no""
    own = re.search(
        rf"(?<![A-Za-z]){re.escape(name)}(?:,?\s+(?:and\s+)?[A-Za-z]+=)*\s+defaults?\s+to\s+"
        r'("[^"]*"|[^,;]+?)(?=[.,;]\s|[.]$|$)',
        body,
    )
    if own:
        return _clean(own.group(1))
    if len(names) == 1:
        plain = re.search(r"\bDefaults to\s+(.+?)(?:[.](?=\s+[A-Z])|[.]$)", body)
        if plain:
            return _clean(plain.group(1))
    return ""


def logind_defaults() -> None:
    src = FILES / "systemd-logind.conf.5.txt"
    rows = []
    for names, body in _groups(_options_section(src.read_text(encoding="utf-8"))):
        for name in names:
            rows.append({"option": name, "default": _default(name, names, body)})
    with (FILES / "systemd-logind-defaults.csv").open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=["option", "default"])
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    logind_defaults()
