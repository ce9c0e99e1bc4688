"""What every loader builds: text sections of blocks, a loader's refusal, and a table row read as a sentence."""

from __future__ import annotations

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


class SectionBuilder:
    """Collects blocks under the latest heading; a new heading starts a new section."""

    def __init__(self) -> None:
        self._done: list[Section] = []
        self._heading: str | None = None
        self._titles = False
        self._blocks: list[str] = []

    def start_section(self, heading: str | None, titles_document: bool = False) -> None:
        """Start a section under `heading`; `titles_document`: a top-level heading (`#`, h1, Word's Title), which
        titles the document when nothing comes before it."""
        self._flush()
        self._heading = heading
        self._titles = titles_document and heading is not None and not self._done

    def add_block(self, text: str) -> None:
        block = " ".join(text.split())
        if block:
            self._blocks.append(block)

    def sections(self) -> list[Section]:
        self._flush()
        return self._done

    def _flush(self) -> None:
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
