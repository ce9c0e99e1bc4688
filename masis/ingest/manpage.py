"""A manual page rendered as plain text (`man -P cat`, `groff -Tutf8`): its sections, entries and tables.

Read as ordinary text, a man page is one section whose option entries run into each other: "-mmap N / Set default
mmap size to N / -nullvalue string / Set string used to represent NULL values. Default is ''" gave a neighbour's
default. The page's layout says what each line is, by its indentation:

- the first line is the header (`SQLITE3(1)   General Commands Manual   SQLITE3(1)`) and the last the footer: the
  footer goes, the header titles the document, its NAME section (`sqlite3 - A command line interface for SQLite`)
  the title's text;
- a line at the left margin is a section heading (`OPTIONS`, `EXIT STATUS`), one indented by a few spaces a
  subsection heading (`   Download Options`);
- in a section, lines at its text's indent are paragraphs or entry terms; the lines indented further after a term
  are its description, read as "term: description" (`-nullvalue string: Set string used … Default is ''`), a
  description's paragraphs that a blank line cut mid-sentence joined again;
- lines whose second column starts at the same place (after a gap of two spaces or more in each) are table rows,
  each its own block with its two cells joined by " | " (a line indented further after a row goes on its second).

Every step reads each line a bounded number of times with `str` methods: linear in the page's length.
"""

from __future__ import annotations

from masis.ingest.sections import Section, SectionBuilder

SUBSECTION_INDENT = 4  # at most this many spaces before a subsection heading
TERM_MAX = 80  # a longer first line is a paragraph's, not an entry's term


def is_manpage(text: str) -> bool:
    """Whether `text` starts with a man page's header line: the same `NAME(section)` first and last."""
    first = text.lstrip("\n").split("\n", 1)[0].split()
    return len(first) >= 2 and first[0] == first[-1] and _is_page_name(first[0])


def _is_page_name(word: str) -> bool:
    name, bracket, section = word.partition("(")
    return bool(name) and bracket == "(" and section.endswith(")") and 1 <= len(section) <= 8 and section[0].isalnum()


def load_manpage(text: str) -> list[Section]:
    lines = text.strip("\n").split("\n")
    header = lines[0].split()
    if len(lines) > 1 and lines[-1].split()[-1:] == header[-1:]:  # the footer: version, date, page name
        lines = lines[:-1]
    builder = SectionBuilder()
    body: list[str] = []
    for line in lines[1:]:
        indent = _indent(line)
        if line.strip() and indent <= SUBSECTION_INDENT and not _continues(body, indent):
            _add_items(builder, body)
            body = []
            heading = " ".join(line.split()).rstrip(":")
            if heading == "NAME" and not builder.sections():  # the page's name and summary title the document
                builder.start_section(" ".join(header[:-1]), titles_document=True)
            else:
                builder.start_section(heading)
            continue
        body.append(line)
    _add_items(builder, body)
    return builder.sections()


def _continues(body: list[str], indent: int) -> bool:
    """A line at a subsection's indent inside running text at the same indent is text, not a heading."""
    last = next((line for line in reversed(body) if line.strip()), None)
    return indent > 0 and last is not None and _indent(last) == indent


def _add_items(builder: SectionBuilder, lines: list[str]) -> None:
    """A section's lines as blocks: paragraphs, "term: description" entries and table rows."""
    filled = [line for line in lines if line.strip()]
    if not filled:
        return
    margin = min(_indent(line) for line in filled)
    pending: list[str] = []  # the paragraphs of the entry being read; a description may go on past blank lines
    term = False  # whether the last group was a term alone, whose description a blank line put below it
    for group in _groups(lines):
        leads = [line for line in group if _indent(line) == margin]
        if leads and (column := _column(leads, margin)):
            _flush(builder, pending)
            for row in _rows(group, margin, column):
                builder.add_block(row)
            term = False
            continue
        if not leads:  # more of the description above, or the description of a term a blank line left alone
            description = _paragraphs(group)
            if term:
                pending[-1] = f"{pending[-1]}: {description.pop(0)}"
            pending.extend(description)
            term = False
            continue
        _flush(builder, pending)
        split = next((i for i, line in enumerate(group) if _indent(line) > margin), len(group))
        lead = " ".join(" ".join(group[:split]).split())
        description = _paragraphs(group[split:])
        alone = "  " not in group[0].strip()  # "-mmap N" alone on its line, not "2   Parse error---for instance …"
        term = split == 1 and alone and len(lead) <= TERM_MAX and not lead.endswith((".", ":"))
        if description and term:
            pending.extend([f"{lead}: {description[0]}", *description[1:]])
            term = False
        elif description and split == 1 and not alone:  # the description began on the term's line and goes on
            pending.extend([f"{lead} {description[0]}", *description[1:]])
        else:
            pending.extend([lead, *description])
            term = term and not description
    _flush(builder, pending)


def _groups(lines: list[str]) -> list[list[str]]:
    """The lines in runs between blank lines."""
    groups: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            groups[-1].append(line)
        elif groups[-1]:
            groups.append([])
    return [group for group in groups if group]


def _flush(builder: SectionBuilder, paragraphs: list[str]) -> None:
    """Add an entry's paragraphs, one that a blank line cut mid-sentence (no closing stop, the next starting in
    lower case) joined to the next, as a page rendered with blank lines between its lines needs."""
    joined: list[str] = []
    for text in paragraphs:
        if joined and not joined[-1].endswith((".", ":", "!", "?")) and text[:1].islower():
            joined[-1] = f"{joined[-1]} {text}"
        else:
            joined.append(text)
    for text in joined:
        builder.add_block(text)
    paragraphs.clear()


def _paragraphs(lines: list[str]) -> list[str]:
    return [" ".join(" ".join(line.strip() for line in lines).split())] if lines else []


def _column(leads: list[str], margin: int) -> int | None:
    """Where a table's second column starts: two or more rows, at least two in three of the lines at the margin, have
    a gap of two spaces or more that ends at the same place (the others, "sqlite> .help" above a listing, are rows of
    one cell); None otherwise."""
    starts: dict[int, int] = {}
    for line in leads:
        gap = line.find("  ", margin)
        if gap >= 0:
            start = len(line) - len(line[gap:].lstrip(" "))
            starts[start] = starts.get(start, 0) + 1
    column, rows = max(starts.items(), key=lambda item: item[1], default=(0, 0))
    return column if rows >= 2 and 3 * rows >= 2 * len(leads) else None


def _rows(group: list[str], margin: int, column: int) -> list[str]:
    """Each row of a table: its first column and the rest (the lines indented past the margin after it included),
    joined with " | "."""
    rows: list[list[str]] = []
    for line in group:
        if _indent(line) == margin or not rows:
            aligned = line[column - 2 : column] == "  " and line[column : column + 1] != " "
            rows.append([line[:column].strip(), line[column:].strip()] if aligned else [line.strip(), ""])
        else:
            rows[-1][1] = f"{rows[-1][1]} {line.strip()}".strip()
    return [" | ".join(" ".join(cell.split()) for cell in row if cell.strip()) for row in rows]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))
