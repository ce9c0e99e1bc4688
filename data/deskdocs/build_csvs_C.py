"""Part C. Build the CSV table of data/deskdocs/files/ from a man page of the same folder (cells verbatim, trimmed).

    python data/deskdocs/build_csvs_C.py

Stdlib only. Reads the "AVAILABLE HASHING METHODS" section of files/libcrypt-dev-crypt.5.txt (crypt(5) rendered to
text) and writes files/libcrypt-dev-crypt-hashing-methods.csv, one row per hashing method, in the page's order
(decreasing strength). Each method in the page is a sub-heading (3-space indent) followed by a description paragraph
and a list of "attribute" (5-space indent) / "value" (9-space indent) pairs. The columns are Method (the sub-heading
as written, e.g. "bsdicrypt (BSDI extended DES)") and the attributes in the order the page first uses them: Prefix,
Hashed passphrase format, Maximum passphrase length, Hash size, Salt size, CPU time cost parameter, and last Effective
key size (first given for bsdicrypt, the tenth method).
A value is copied verbatim and trimmed (the quotes around a prefix are kept, e.g. "$y$" and "" (empty string)); an
attribute the page does not give for a method (Effective key size for all but the three DES-based methods) stays an
empty cell. Description paragraphs and the notes after the lists (e.g. bcrypt's alternative prefixes) are not copied.
The CSV gets the mtime of its source page.
"""

import csv
import os
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"
SRC = FILES / "libcrypt-dev-crypt.5.txt"
DST = FILES / "libcrypt-dev-crypt-hashing-methods.csv"


def crypt_hashing_methods() -> None:
    lines = SRC.read_text(encoding="utf-8").splitlines()
    start = lines.index("AVAILABLE HASHING METHODS") + 1
    end = next(i for i in range(start, len(lines)) if re.match(r"^[A-Z]", lines[i]))  # next section (SEE ALSO)
    body = lines[start:end]
    methods: list[tuple[str, dict[str, str]]] = []
    columns: list[str] = []
    attr = None
    for i, line in enumerate(body):
        if re.match(r"^ {3}\S", line):  # method sub-heading
            methods.append((line.strip(), {}))
            attr = None
        elif not methods or not line.strip():
            continue
        elif re.match(r"^ {9}\S", line) and attr:  # the value under an attribute
            fields = methods[-1][1]
            fields[attr] = (fields.get(attr, "") + " " + line.strip()).strip()
        elif re.match(r"^ {5}\S", line):
            # an attribute name is a 5-space line whose next non-blank line is indented by 9 spaces;
            # any other 5-space line is description text
            nxt = next((s for s in body[i + 1:] if s.strip()), "")
            attr = line.strip() if re.match(r"^ {9}\S", nxt) else None
            if attr and attr not in columns:
                columns.append(attr)
    with open(DST, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["Method"] + columns)
        for name, fields in methods:
            w.writerow([name] + [fields.get(c, "") for c in columns])
    st = os.stat(SRC)
    os.utime(DST, (st.st_atime, st.st_mtime))


BUILDERS = [crypt_hashing_methods]

if __name__ == "__main__":
    for build in BUILDERS:
        build()
