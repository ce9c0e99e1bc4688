"""Build files/manpages-tcp-sysctls.csv from files/manpages-tcp.7.txt (part C of data/coredocs).

    python data/coredocs/build_csv_C.py

Stdlib only. One row per /proc/sys/net/ipv4/tcp_* file of the "/proc interfaces" section of tcp(7)
(Linux man-pages 6.03, rendered to text with MANWIDTH=80). Columns:

    Name         the file name (tcp_abc, ...)
    Type         the first item of the parenthesised header when it is a type (Integer, integer, Boolean,
                 String, Bitmask), as written; empty when the header gives none
    Default      what follows "default:" in the header, as written ("0", "enabled", "see below"); empty when
                 the header gives no default
    Kernel       the version items of the header ("since Linux 2.4", "Linux 2.6.15 to Linux 3.8",
                 "obsolete since Linux 4.14"), joined with "; "
    Notes        any other header item ("read-only"); else empty
    Description  the first paragraph of the entry's text, whitespace joined; a word that groff hyphenated
                 at a line end (U+2010 HYPHEN) is joined back without the hyphen, and a compound word broken
                 after its own hyphen ("denial-of-" / "service") is joined back keeping it

Cells are otherwise verbatim; runs of whitespace inside the header are collapsed to one space.
"""

import csv
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"
SOURCE = FILES / "manpages-tcp.7.txt"
TARGET = FILES / "manpages-tcp-sysctls.csv"

_ENTRY = re.compile(r"^ {7}(tcp_[a-z0-9_]+)\b(.*)$")
_TYPES = {"integer", "boolean", "string", "bitmask"}


def _join(lines: list[str]) -> str:
    """Join wrapped lines: drop groff's line-end hyphenation (U+2010), else join with one space."""
    out = ""
    for line in lines:
        part = line.strip()
        if out.endswith("\u2010"):
            out = out[:-1] + part
        elif re.search(r"[A-Za-z]-$", out):
            out += part  # a real hyphen of a compound word at a line end ("denial-of-" / "service")
        elif out:
            out += " " + part
        else:
            out = part
    return re.sub(r"\s+", " ", out).strip()


def entries(text: str) -> list[tuple[str, str, list[str]]]:
    """(name, header inside the parentheses, first paragraph lines) for each tcp_* entry."""
    start = text.index("\n   /proc interfaces\n")
    end = text.index("\n   Socket options\n", start)
    lines = text[start:end].splitlines()
    found: list[tuple[str, str, list[str]]] = []
    i = 0
    while i < len(lines):
        m = _ENTRY.match(lines[i])
        if not m:
            i += 1
            continue
        name, header = m.group(1), m.group(2)
        i += 1
        # a header whose parenthesis is still open continues on the next line (indented by 7 spaces)
        while header.count("(") > header.count(")") and i < len(lines):
            header += " " + lines[i].strip()
            i += 1
        body: list[str] = []
        while i < len(lines) and not lines[i].strip():
            i += 1
        while i < len(lines) and lines[i].strip():
            body.append(lines[i])
            i += 1
        header = re.sub(r"\s+", " ", header).strip()
        if header.startswith("(") and header.endswith(")"):
            header = header[1:-1]
        found.append((name, header, body))
    return found


def row(name: str, header: str, body: list[str]) -> list[str]:
    typ = default = ""
    kernel: list[str] = []
    notes: list[str] = []
    for item in (p.strip() for p in header.split(";") if p.strip()):
        if item.lower() in _TYPES:
            typ = item
        elif item.startswith("default:"):
            default = item[len("default:"):].strip()
        elif "Linux" in item:
            kernel.append(item)
        else:
            notes.append(item)
    return [name, typ, default, "; ".join(kernel), "; ".join(notes), _join(body)]


def main() -> None:
    text = SOURCE.read_text(encoding="utf-8")
    rows = [["Name", "Type", "Default", "Kernel", "Notes", "Description"]]
    rows += [row(*e) for e in entries(text)]
    with open(TARGET, "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


if __name__ == "__main__":
    main()
