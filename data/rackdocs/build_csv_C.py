"""Build files/systemd-journalctl-options.csv from files/systemd-journalctl.1.txt (part C of data/rackdocs).

    python data/rackdocs/build_csv_C.py

Stdlib only. One row per entry of the option sections of journalctl(1) (systemd 252, Debian systemd
252.38-1~deb12u1, rendered to text with MANWIDTH=80): the sections whose heading ends in "OPTIONS" (SOURCE,
FILTERING, OUTPUT, PAGER CONTROL, FORWARD SECURE SEALING (FSS)) and COMMANDS. ENVIRONMENT, whose entries are
variables, is left out. An entry starts with a header line indented by exactly 7 spaces that begins with "-"; its
text is the lines indented deeper, up to the next header or section heading. Columns:

    Section       the section heading the entry is under, as written ("FILTERING OPTIONS", "COMMANDS")
    Short option  the one-letter option(s) of the header without their argument ("-D", "-S; -U", "-l"); empty when
                  the header gives none
    Long option   the long option(s) of the header, as written up to and including a "=" that ends the name
                  ("--since=; --until=", "--directory=", "--boot", "--case-sensitive"); an optional "[=...]"
                  argument is cut off the name and goes to Argument
    Argument      the argument the header writes after the option ("DIR", "GLOB", "UNIT|PATTERN",
                  "[[ID][±offset]|all]", "[=BOOLEAN]", "[128-bit-ID...]"): the short form's if it has one, otherwise
                  the long form's with a leading "=" dropped; empty when the header names none (so "--since=",
                  which takes a date, has an empty Argument: the header names no argument)
    Default       a default value stated in the entry's text in one of three forms: "The default value is N",
                  "Defaults to N." and a value item followed by "is the default" (-o's "short"); empty otherwise
                  (a default described in other words, such as --no-full's "The default is to show full fields",
                  is left in the text, not in this cell)
    Description   the first paragraph of the entry's text, whitespace joined

Cells are otherwise verbatim; runs of whitespace are collapsed to one space.
"""

import csv
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"
SOURCE = FILES / "systemd-journalctl.1.txt"
TARGET = FILES / "systemd-journalctl-options.csv"

_SECTION = re.compile(r"^[A-Z][A-Z ()]+$")
_HEADER = re.compile(r"^ {7}-")
_DEFAULTS = [
    re.compile(r"The default value is (\S+?)(?: if no argument is given)?\."),
    re.compile(r"Defaults to (\S+?)\.(?:\s|$)"),
    re.compile(r"(?:^|\s)(\S+) is the default\b"),
]


def _split_header(head: str) -> list[str]:
    """Split a header at ", " outside brackets."""
    items, depth, cur = [], 0, ""
    i = 0
    while i < len(head):
        ch = head[i]
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if depth == 0 and head.startswith(", ", i):
            items.append(cur)
            cur = ""
            i += 2
            continue
        cur += ch
        i += 1
    items.append(cur)
    return [x.strip() for x in items if x.strip()]


def _parse_item(item: str) -> tuple[str, str, str]:
    """Return (kind, name, argument) for one option of a header."""
    if item.startswith("--"):
        m = re.match(r"(--[A-Za-z0-9-]+=?)(.*)$", item)
        name, arg = m.group(1), m.group(2).strip()
        if arg.startswith("="):
            arg = arg[1:]
        return "long", name, arg
    m = re.match(r"(-[A-Za-z0-9])\s*(.*)$", item)
    return "short", m.group(1), m.group(2).strip()


def _join(lines: list[str]) -> str:
    return re.sub(r"\s+", " ", " ".join(x.strip() for x in lines)).strip()


def rows(text: str) -> list[list[str]]:
    out: list[list[str]] = []
    section = ""
    keep = False
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if _SECTION.match(line):
            section = line.strip()
            keep = section.endswith("OPTIONS") or section == "COMMANDS"
            i += 1
            continue
        if not (keep and _HEADER.match(line)):
            i += 1
            continue
        shorts, longs, sargs, largs = [], [], [], []
        for item in _split_header(line.strip()):
            kind, name, arg = _parse_item(item)
            (shorts if kind == "short" else longs).append(name)
            if arg:
                (sargs if kind == "short" else largs).append(arg)
        i += 1
        body: list[str] = []
        while i < len(lines) and not _HEADER.match(lines[i]) and not _SECTION.match(lines[i]):
            body.append(lines[i])
            i += 1
        while body and not body[-1].strip():
            body.pop()
        while body and not body[0].strip():
            body.pop(0)
        first: list[str] = []
        for b in body:
            if not b.strip():
                break
            first.append(b)
        whole = _join(body)
        default = ""
        for pat in _DEFAULTS:
            m = pat.search(whole)
            if m:
                default = m.group(1)
                break
        args = sargs or largs
        out.append([section, "; ".join(shorts), "; ".join(longs), args[0] if args else "", default, _join(first)])
    return out


def main() -> None:
    table = rows(SOURCE.read_text(encoding="utf-8"))
    with TARGET.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["Section", "Short option", "Long option", "Argument", "Default", "Description"])
        w.writerows(table)
    print(f"{TARGET.name}: {len(table)} rows")


if __name__ == "__main__":
    main()
