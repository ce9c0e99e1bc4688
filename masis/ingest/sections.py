"""What every loader builds: text sections of blocks, a loader's refusal, and a table row read as a sentence."""

from __future__ import annotations

import re
from dataclasses import dataclass

BLOCK_BREAK = "\n\n"
ROWS_PER_SECTION = 40  # table rows (CSV, a spreadsheet's sheet) per section


@dataclass(frozen=True, slots=True)
class Section:
    """A run of text from one place in a document; chunks never span two sections."""

    text: str
    page: int | None = None  # 1-based, PDFs only
    heading: str | None = None  # nearest heading (md/rst/html/docx), slide title, or "rows a-b" for tables
    titles_document: bool = False  # its heading is the document's title (a Markdown `#`, an HTML h1, a Word Title)


class Problem(Exception):
    """A loader's reason for refusing a file; `load_document` prefixes the file name."""


# a line of a record's fields: "Requires-Dist: httpx<0.29.0,>=0.27.0", "Status: Draft"
_FIELD_LINE = re.compile(r"[A-Za-z][\w-]{0,30}:\s+\S")


def is_field_record(lines: list[str]) -> bool:
    """Whether a paragraph's lines are a record's fields, one a line (a package's metadata header, a memo's "To:",
    "Date:"): a paragraph joins its lines into one, and the fields would read as one run of text whose values answer
    for each other."""
    return len(lines) > 1 and all(_FIELD_LINE.match(line) for line in lines)


# an option's name alone as a paragraph, its description the next one (reStructuredText's ``--force-reinstall`` line or
# `.. option:: -q, --quiet`): "-q, --quiet", "--upgrade-strategy <strategy>", "--level=N"
_FLAG = r"-{1,2}[A-Za-z][\w-]*(?:[= ]<?[\w.-]+>?)?"
_OPTION_TERM = re.compile(rf"{_FLAG}(?:, {_FLAG}){{0,3}}")


_RELEASE = re.compile(r"(?<![\w-])v?\d+(?:\.\d+)+(?![\w-])|\bv\d+\b")


# a release a heading counts from, not its own: "Fixes since v2.37" under "Git v2.38 Release Notes" is 2.38's
_SINCE_RELEASE = re.compile(
    r"\b(?:since|from|after|over)\s+(?:[A-Za-z][\w.+-]*\s+)?v?\d+(?:\.\d+)+(?![\w-])", re.IGNORECASE)


class ReleaseHeadings:
    """The release a heading sits under: in a changelog, "### Added" under "## 3.2.0 (2023-06-07)" is that release's,
    and a section named "Added" alone says nothing of which one. `titled` gives a heading its release's title; so is
    "Fixes since v2.37" under "Git v2.38 Release Notes", whose release is the one it counts from."""

    def __init__(self) -> None:
        self._open: list[tuple[int, str]] = []  # the headings above the next one, outermost first, with their levels

    def titled(self, title: str, level: int) -> str:
        while self._open and self._open[-1][0] >= level:
            self._open.pop()
        parent = self._open[-1][1] if self._open else None
        self._open.append((level, title))
        if parent and _RELEASE.search(parent) and not _RELEASE.search(_SINCE_RELEASE.sub("", title)):
            return f"{parent}: {title}"
        return title


class SectionBuilder:
    """Collects blocks under the latest heading; a new heading starts a new section. A paragraph that is only an
    option's name is the term of the prose block after it, which is read as its entry ("--force-reinstall: Doesn't
    affect resolution, …"), as the HTML loader writes a definition list's entries."""

    def __init__(self) -> None:
        self._done: list[Section] = []
        self._heading: str | None = None
        self._titles = False
        self._blocks: list[str] = []
        self._term: str | None = None

    def start_section(self, heading: str | None, titles_document: bool = False) -> None:
        """Start a section under `heading`; `titles_document`: a top-level heading (`#`, h1, Word's Title), which
        titles the document when nothing comes before it."""
        self._flush()
        self._heading = heading
        self._titles = titles_document and heading is not None and not self._done

    def add_block(self, text: str) -> None:
        block = " ".join(text.split())
        if not block:
            return
        if self._term is not None:
            term, self._term = self._term, None
            if block[:1].isupper():  # prose: the entry's text
                block = f"{term}: {block}"
            else:
                self._blocks.append(term)
        self._blocks.append(block)

    def add_paragraph(self, text: str) -> None:
        """A paragraph: an option's name alone is kept for the block after it, when that is prose."""
        block = " ".join(text.split())
        if _OPTION_TERM.fullmatch(block) and len(block) <= 80:
            if self._term is not None:
                self._blocks.append(self._term)
            self._term = block
            return
        self.add_block(block)

    def sections(self) -> list[Section]:
        self._flush()
        return self._done

    def _flush(self) -> None:
        if self._term is not None:
            self._blocks.append(self._term)
            self._term = None
        if self._blocks:
            self._done.append(
                Section(text=BLOCK_BREAK.join(self._blocks), heading=self._heading, titles_document=self._titles)
            )
        self._blocks = []


def row_sentence(header: list[str], row: list[str]) -> str:
    """A table row as one sentence, each value beside its column's name: `Region: North; Revenue: 4.2.`"""
    parts = []
    for i, value in enumerate(row):
        if not value:
            continue
        column = header[i] if i < len(header) and header[i] else f"column {i + 1}"
        parts.append(f"{column}: {value}")
    sentence = "; ".join(parts)
    return sentence if sentence.endswith((".", "!", "?")) else sentence + "."


_OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # an OLE container: a pre-2007 Office file, or an encrypted new one


def check_office_zip(data: bytes, kind: str, app: str, old_or_locked: str) -> None:
    """Refuse, with what to do, an old-style or password-protected Office file (`old_or_locked`) and a zip bomb;
    `kind` ("DOCX") and `app` ("Word") name them in the reason."""
    from masis.ingest.archive import ArchiveRefused, check_zip

    if data.startswith(_OLE_MAGIC):
        raise Problem(old_or_locked)
    try:
        check_zip(data)
    except ArchiveRefused as refused:
        raise Problem(f"refused to unpack this {kind}: {refused}; re-save it in {app} and upload again") from None
