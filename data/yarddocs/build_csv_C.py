#!/usr/bin/env python3
"""Build files/gpg-agent-gpg-agent-options.csv from files/gpg-agent-gpg-agent.1.txt.

yarddocs part C. Standard library only; run from anywhere (paths
are taken relative to this script). Deterministic: the same input gives the same
bytes.

One row per entry of the COMMANDS and OPTIONS sections of the rendered gpg-agent(1)
page (groff output, MANWIDTH=80):

* An entry starts at a header line indented by exactly 7 spaces whose first
  character is "-". Header lines that follow each other (blank lines between them
  allowed) before the first body line form ONE entry ("-v" + "--verbose",
  "--no-allow-loopback-pinentry" + "--allow-loopback-pinentry", the six
  "--display string" ... "--xauthority string" lines).
* A header line is split at its first run of two or more spaces: the left part is
  the tag ("--options file"), the right part, if any, is the first body line
  ("-h     Print  a  usage ..." / "--csh  Format ...").
* The tag's first word is the option; the rest (if any) is its argument
  ("--daemon [command line]" gives "[command line]").
* Body lines are the lines indented by 8 or more spaces after the header(s); the
  entry ends at the next header line, at a line indented by 0 to 7 spaces that is
  not a header (prose of the section, e.g. "How these messages are mapped ..."),
  or at the next section heading. Those stray prose paragraphs belong to no row.
* Text is joined with single spaces; a line ending in groff's hyphenation mark
  U+2010 is joined to the next line without the mark and without a space; a line
  ending in an ASCII "-" after a letter or digit ("per-", "--s2k-") is joined
  without a space, keeping the "-".

Columns:
  Section      COMMANDS or OPTIONS
  Option       the option names of the entry, in page order, joined with "; "
  Argument     the distinct arguments of the header lines, in page order, joined
               with "; "; empty when the header names none
  Default      a value only where the entry's text states one in one of the
               patterns of DEFAULT_PATTERNS below (first match wins); empty otherwise
  Description  the entry's first paragraph (up to the first blank line)
"""
import csv
import io
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "files", "gpg-agent-gpg-agent.1.txt")
DST = os.path.join(HERE, "files", "gpg-agent-gpg-agent-options.csv")

SECTIONS = ("COMMANDS", "OPTIONS")

# (regex over the whitespace-joined entry text, group holding the value)
DEFAULT_PATTERNS = [
    # "The default is 600 seconds." / "The default is 2 hours (7200 seconds)." /
    # "The default is 64."
    re.compile(r"The default is (\d[^.]*?)\.(?:\s|$)"),
    # "Defaults to 8."
    re.compile(r"Defaults to (\d+)\."),
    # "The default is --no-grab."
    re.compile(r"The default is (--[A-Za-z0-9-]+)\."),
    # "Allow is the default."
    re.compile(r"\b([A-Z][a-z]+) is the default\."),
    # "The default value of 0 does not ask ..."
    re.compile(r"The default value of (\d+)\b"),
    # "the home directory defaults to '~/.gnupg'"
    re.compile(r"defaults to ‘([^’]+)’"),
    # "The default configuration file is named 'gpg-agent.conf'"
    re.compile(r"The default configuration file is named ‘([^’]+)’"),
    # 'Changes the default name for the global trustlist from "trustlist.txt"'
    re.compile(r'the default name for the [a-z ]+ from "([^"]+)"'),
]

HEADER = re.compile(r"^ {7}-")
HEADING = re.compile(r"^[A-Z][A-Z0-9 ()/-]*$")


def indent(line):
    return len(line) - len(line.lstrip(" "))


def join_lines(lines):
    out = ""
    for raw in lines:
        s = raw.strip()
        if not s:
            continue
        if not out:
            out = s
        elif out.endswith("\u2010"):
            out = out[:-1] + s
        elif re.search(r"[A-Za-z0-9]-$", out):
            out = out + s
        else:
            out = out + " " + s
    if out.endswith("\u2010"):
        out = out[:-1]
    return re.sub(r"\s+", " ", out).strip()


def split_header(line):
    body = line.strip()
    m = re.match(r"^(\S.*?)(?: {2,}(\S.*))?$", body)
    tag, inline = m.group(1), m.group(2)
    parts = tag.split(" ", 1)
    return parts[0], (parts[1] if len(parts) > 1 else ""), inline


def parse(text):
    lines = text.split("\n")
    entries = []
    section = None
    cur = None

    def close():
        nonlocal cur
        if cur is not None:
            entries.append(cur)
        cur = None

    for line in lines:
        if HEADING.match(line) and line.strip():
            close()
            section = line.strip() if line.strip() in SECTIONS else None
            continue
        if section is None:
            continue
        if HEADER.match(line):
            opt, arg, inline = split_header(line)
            if cur is None or cur["body"]:
                close()
                cur = {"section": section, "opts": [], "args": [], "body": []}
            cur["opts"].append(opt)
            if arg and arg not in cur["args"]:
                cur["args"].append(arg)
            if inline:
                cur["body"].append(" " * 14 + inline)
            continue
        if cur is None:
            continue
        if not line.strip():
            if cur["body"]:
                cur["body"].append("")
            continue
        if indent(line) <= 7:
            close()
            continue
        cur["body"].append(line)
    close()
    return entries


def first_paragraph(body):
    para = []
    for line in body:
        if not line.strip():
            if para:
                break
            continue
        para.append(line)
    return join_lines(para)


def default_of(body):
    text = join_lines(body)
    for pat in DEFAULT_PATTERNS:
        m = pat.search(text)
        if m:
            return m.group(1)
    return ""


def main():
    with open(SRC, encoding="utf-8") as fh:
        text = fh.read()
    rows = []
    for e in parse(text):
        rows.append([
            e["section"],
            "; ".join(e["opts"]),
            "; ".join(e["args"]),
            default_of(e["body"]),
            first_paragraph(e["body"]),
        ])
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["Section", "Option", "Argument", "Default", "Description"])
    w.writerows(rows)
    with open(DST, "w", encoding="utf-8", newline="") as fh:
        fh.write(buf.getvalue())
    print(f"{len(rows)} rows, {sum(1 for r in rows if r[3])} with a Default -> {DST}")


if __name__ == "__main__":
    main()
