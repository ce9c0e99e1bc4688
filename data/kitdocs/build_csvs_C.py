"""Build files/libldap-common-ldap.conf-options.csv from the option lists of files/libldap-common-ldap.conf.5.txt.

Run from /work/main:  python3 data/kitdocs/build_csvs_C.py
Stdlib only, deterministic; the CSV gets the mtime of its source text.

One row per option heading (a line indented 7 columns that starts with an upper-case NAME) of the
sections OPTIONS, SASL OPTIONS, GSSAPI OPTIONS and TLS OPTIONS, in the page's order. Columns:
  Option      the option name as written (URI, TLS_REQCERT, ...); a heading is a NAME line whose next
              line is indented 14 columns (so a paragraph line that starts with "URI" is not one)
  Argument    the rest of the heading line (<filename>, {2|3}, ...); empty when the heading has none
  Section     the man page section the option is listed in
  Default     "The default is X." in the option's own text, or the keyword of a keyword list whose
              description says "This is the default" (DEREF never); empty when the page gives none.
              Defaults stated only for a sub-property (SASL_SECPROPS minssf/maxssf/maxbufsize) are not
              the option's default and are left out.
  User-only   "yes" when the option's text says it is a user-only option, else empty
  Summary     the first sentence of the option's own text (lines joined, troff hyphenation undone)
"""
import csv
import os
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE / "files" / "libldap-common-ldap.conf.5.txt"
DST = HERE / "files" / "libldap-common-ldap.conf-options.csv"
SECTIONS = ("OPTIONS", "SASL OPTIONS", "GSSAPI OPTIONS", "TLS OPTIONS")
HEAD = re.compile(r"^ {7}([A-Z][A-Z0-9_]+)(?:\s+(.*\S))?\s*$")


def join(lines):
    text = ""
    for ln in lines:
        ln = ln.strip()
        if not ln:
            continue
        if text.endswith("\u2010"):          # troff hyphenation at line end: "op‐" + "tion"
            text = text[:-1] + ln
        else:
            text = (text + " " + ln) if text else ln
    return re.sub(r"\s+", " ", text)


def split_block(body):
    """Split an option's body into its own text and its keyword sub-items.

    A sub-item starts after a blank line at indent 14, and its description starts at column 21
    (on the same line or, for a long keyword, on the next line)."""
    own, items, cur = [], [], None
    prev_blank = False
    for i, ln in enumerate(body):
        starts_item = False
        if prev_blank and re.match(r"^ {14}\S", ln):
            rest = ln[14:]
            m = re.match(r"^(\S.*?)( +)(\S.*)$", rest)
            nxt = body[i + 1] if i + 1 < len(body) else ""
            if m and 14 + len(m.group(1)) + len(m.group(2)) == 21:
                starts_item = True
            elif re.match(r"^ {21}\S", nxt) and len(rest.strip()) < 30:
                starts_item = True
        if starts_item:
            rest = ln[14:]
            m = re.match(r"^(\S.*?)( +)(\S.*)$", rest)
            nxt = body[i + 1] if i + 1 < len(body) else ""
            if (m and 14 + len(m.group(1)) + len(m.group(2)) == 21
                    and (len(ln) > 40 or not re.match(r"^ {21}\S", nxt))):
                key, text = m.group(1), m.group(3)
            else:
                key, text = rest.strip(), ""
            cur = [key, [text]]
            items.append(cur)
        elif cur is not None and (ln.startswith(" " * 21) or not ln.strip()):
            cur[1].append(ln)
        else:
            cur = None
            own.append(ln)
        prev_blank = not ln.strip()
    return join(own), [(k, join(t)) for k, t in items]


def first_sentence(text):
    m = re.search(r"^(.+?\.)(?=\s+[A-Z(<]|$)", text)
    return m.group(1) if m else text


def main():
    lines = SRC.read_text(encoding="utf-8").splitlines()
    rows, section, cur = [], None, None
    blocks = []
    for i, ln in enumerate(lines):
        if ln and not ln[0].isspace():           # a section heading
            section = ln.strip() if ln.strip() in SECTIONS else None
            cur = None
            continue
        if section is None:
            continue
        m = HEAD.match(ln)
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if m and re.match(r"^ {14}\S", nxt):    # a heading's text follows at indent 14
            cur = [m.group(1), m.group(2) or "", section, []]
            blocks.append(cur)
        elif cur is not None:
            cur[3].append(ln)
    for name, arg, sec, body in blocks:
        own, items = split_block(body)
        default = ""
        m = re.search(r"The default is\s+(.+?)\.(?:\s|$)", own)
        if m:
            default = m.group(1)
        else:
            for key, text in items:
                if "This is the default" in text:
                    default = key
                    break
        user_only = "yes" if re.search(r"user-only\s*option", own) else ""
        rows.append([name, arg, sec, default, user_only, first_sentence(own)])
    with open(DST, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["Option", "Argument", "Section", "Default", "User-only", "Summary"])
        w.writerows(rows)
    st = SRC.stat()
    os.utime(DST, (st.st_atime, st.st_mtime))
    print(f"{DST.name}: {len(rows)} rows")


if __name__ == "__main__":
    main()
