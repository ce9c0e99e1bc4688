"""Build files/zip-options.csv from files/zip-zip.1.txt (part C of data/basedocs).

    python data/basedocs/build_csv_C.py

Stdlib only. One row per entry of the OPTIONS section of zip(1) (Info-ZIP zip 3.0, Debian zip 3.0-13, rendered to
text with MANWIDTH=80). An entry starts with its header lines: the lines indented by exactly 7 spaces that begin
with "-" (or "(", the "(-0, -1, ...)" line of "-#"). Columns:

    Option       the short option(s) of the header, as written ("-b", "-F; -FF", "-h; -?"); the "(-0, ..., -9)"
                 line of "-#" is appended to it
    Long option  the long option(s) ("--temp-path", "--fix; --fixfix"); empty when the page gives none
    Argument     the argument word after the option in the header ("path", "mmddyyyy"); empty when none
    Platform     the bracketed system tag that opens the entry ("WIN32", "Unix", "VM/CMS and MVS"); empty when the
                 entry names none
    Description  the first paragraph of the entry's text, whitespace joined (text that follows the header on the
                 same line, as for -Bn and -FI, comes first); a word that groff hyphenated at a line end
                 (U+2010 HYPHEN) is joined back without the hyphen, a word broken after its own "-" keeps it

Cells are otherwise verbatim; runs of whitespace are collapsed to one space.
"""

import csv
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"
SOURCE = FILES / "zip-zip.1.txt"
TARGET = FILES / "zip-options.csv"

_HEADER = re.compile(r"^ {7}[-(]")
_TAG = re.compile(r"^\[([^\]]+)\]\s*")


def _join(lines: list[str]) -> str:
    out = ""
    for line in lines:
        part = line.strip()
        if out.endswith("\u2010"):
            out = out[:-1] + part
        elif re.search(r"[A-Za-z]-$", out):
            out += part
        elif out:
            out += " " + part
        else:
            out = part
    return re.sub(r"\s+", " ", out).strip()


def rows(text: str) -> list[list[str]]:
    start = text.index("\nOPTIONS\n")
    end = text.index("\nEXAMPLES\n", start)
    lines = text[start:end].splitlines()
    out: list[list[str]] = []
    i = 0
    while i < len(lines):
        if not _HEADER.match(lines[i]):
            i += 1
            continue
        shorts: list[str] = []
        longs: list[str] = []
        args: list[str] = []
        extra: list[str] = []  # the "(-0, ..., -9)" line
        tag = ""
        first_text = ""
        while i < len(lines) and _HEADER.match(lines[i]):
            head = lines[i].strip()
            parts = re.split(r"\s{2,}", head, maxsplit=1)  # header text, then body text on the same line
            head = parts[0]
            if len(parts) > 1:
                first_text = parts[1]
            if head.startswith("("):
                extra.append(head)
            else:
                words = head.split()
                name, rest = words[0], words[1:]
                if rest and rest[-1].startswith("[") and rest[-1].endswith("]"):
                    tag = rest.pop()[1:-1]
                (longs if name.startswith("--") else shorts).append(name)
                if rest and " ".join(rest) not in args:
                    args.append(" ".join(rest))
            i += 1
        body: list[str] = [first_text] if first_text else []
        while i < len(lines) and not lines[i].strip() and not body:
            i += 1
        while i < len(lines) and lines[i].strip() and not _HEADER.match(lines[i]):
            body.append(lines[i])
            i += 1
        desc = _join(body)
        m = _TAG.match(desc)
        if m and not tag:
            tag = re.sub(r"\s+", " ", m.group(1))
        option = "; ".join(shorts)
        if extra:
            option = (option + " " + " ".join(extra)).strip()
        out.append([option, "; ".join(longs), "; ".join(args), tag, desc])
    return out


def main() -> None:
    table = rows(SOURCE.read_text(encoding="utf-8"))
    with TARGET.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["Option", "Long option", "Argument", "Platform", "Description"])
        w.writerows(table)
    print(f"{TARGET.name}: {len(table)} rows")


if __name__ == "__main__":
    main()
