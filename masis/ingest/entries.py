"""An option's entry in plain text laid out as a man page: its term lines, then its indented paragraphs.

A man page rendered to text gives each option a few short lines ("-j number-of-jobs", "--jobs=number-of-jobs") and
the paragraphs of its description indented below them. Only the first paragraph sits under the term; a later one
("Only the custom and directory archive formats are supported with this option.") reads, once the text is cut into
paragraphs, as if it belonged to no option at all (and with a blank line under the term, as gcloud's pages have it,
so does the first). `repeat_entry_terms` writes the term lines directly above each paragraph of the entry, so every
paragraph is read, found and quoted with its option.
"""

from __future__ import annotations

import re

# a term line: an option's name and its argument ("-j number-of-jobs", "--retry <num>", "-F, --file=FILE"), a few words
# at most (a line of prose that opens with an option is no term), after a bullet and before a colon as jq's page writes
# them ("○   --compact-output / -c:")
_TERM = re.compile(
    r"(?:[○•·*]\s+)?[-+]{1,2}[A-Za-z0-9?@][^\s,=:]*(?:(?:, ?| / | |=)[^\s,=:]+){0,7}:?")
_TERM_MAX = 80
# "-j number-of-jobs" over "--jobs=number-of-jobs", xz's seven BCJ filters: more in a row are a list of options
_TERM_LINES = 8
# what the repeated lines may add, as a share of the text: a file of one-word paragraphs under a long term must not
# multiply into gigabytes
_GROWTH = 0.5
_INDENTED_TERM = re.compile(r"^ +(?:[○•·*]\s+)?[-+]", re.MULTILINE)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_term(line: str) -> bool:
    text = line.strip()
    return bool(text) and len(text) <= _TERM_MAX and _indent(line) > 0 and _TERM.fullmatch(text) is not None


def _next_text(lines: list[str], start: int) -> int | None:
    return next((i for i in range(start, len(lines)) if lines[i].strip()), None)


def repeat_entry_terms(text: str) -> str:
    """`text` with each option entry's term lines directly above every paragraph of its description (the same lines, at
    the term's indentation); text with no such entry comes back unchanged. A paragraph indented unlike the entry's
    first (a term over its own text, as pg_dump's "p" / "plain" under `-F format`, or an example) is left alone."""
    if not _INDENTED_TERM.search(text):
        return text  # most text holds no indented option at all: one pattern search, not a pass over its lines
    lines = text.split("\n")
    out: list[str] = []
    budget = int(len(text) * _GROWTH)  # characters the repeated terms may still add
    term: list[str] = []  # the open entry's term lines, as written
    indent = body_indent = term_chars = -1
    index = 0
    while index < len(lines):
        line = lines[index]
        if term and line.strip() and _indent(line) <= indent:
            term = []  # a line back at the term's indentation or left of it ends the entry
        if not term and _is_term(line):
            ends = index
            while ends + 1 < len(lines) and _is_term(lines[ends + 1]) and _indent(lines[ends + 1]) == _indent(line):
                ends += 1
            if ends - index >= _TERM_LINES:
                out.extend(lines[index : ends + 1])
                index = ends + 1
                continue
            body = _next_text(lines, ends + 1)
            if body is not None and _indent(lines[body]) > _indent(line):
                # the description under its term, with no blank line between (gcloud's pages leave one)
                term, indent, body_indent = lines[index : ends + 1], _indent(line), _indent(lines[body])
                term_chars = sum(len(part) + 1 for part in term)
                out.extend(term)
                index = body
                continue
        if term and not line.strip():
            following = _next_text(lines, index + 1)
            if following is not None and _indent(lines[following]) > indent:
                out.extend(lines[index:following])  # the blank lines between paragraphs, kept
                if term_chars <= budget and _plain_paragraph(lines, following, body_indent):
                    out.extend(term)
                    budget -= term_chars
                index = following
                continue
        out.append(line)
        index += 1
    return "\n".join(out)


def _plain_paragraph(lines: list[str], start: int, body_indent: int) -> bool:
    """Whether the paragraph at `start` is more of the entry's description: every line of it at the indentation of the
    entry's first paragraph (not a term over its own deeper text, nor an example indented apart)."""
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return all(_indent(line) == body_indent for line in lines[start:end])
