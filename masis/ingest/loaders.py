"""Turn an uploaded file's bytes into text sections, keeping the page or heading each came from.

Every loader returns `Section`s whose text separates blocks (paragraphs, list items, table rows, CSV
rows) with a blank line, so the chunker can keep a block's sentences together without guessing where a
line break inside a paragraph is only a wrap. Every failure is an `IngestError` whose message starts with
the file's name and says what to do; no library exception text leaks through unfiltered.
"""

from __future__ import annotations

import csv
import dataclasses
import importlib
import io
import itertools
import re
import warnings
from collections.abc import Callable, Iterable
from pathlib import PurePath
from typing import TYPE_CHECKING

from masis.errors import IngestError, UnsupportedFileError
from masis.ingest import asciidoc, markdown, rst
from masis.ingest.entries import repeat_entry_terms
from masis.ingest.hyphens import rejoin_hyphenated
from masis.ingest.sections import (
    BLOCK_BREAK,
    ROWS_PER_SECTION,
    Problem,
    ReleaseHeadings,
    Section,
    SectionBuilder,
    check_office_zip,
    is_field_record,
    row_sentence,
)
from masis.judge.sentences import RELEASE_LINE_WORDS_MAX

if TYPE_CHECKING:
    from docx.table import Table

# The parsers of pdf, docx and html (~0.3 s to import together; pptx and xlsx 0.35 s more) load when a file of
# their kind is read, not with the engine: a question never needs them. `import_parser` loads one ahead of a
# forked parse, so that each child does not import it again.
_PARSER_MODULES: dict[str, tuple[str, ...]] = {
    ".pdf": ("pypdf",),
    ".docx": ("docx", "docx.table", "docx.text.paragraph"),
    ".html": ("bs4", "masis.ingest.html_text"),
    ".htm": ("bs4", "masis.ingest.html_text"),
    ".pptx": ("pptx", "pptx.shapes.group", "masis.ingest.slides"),
    ".xlsx": ("openpyxl", "masis.ingest.sheets"),
}


def import_parser(name: str) -> None:
    """Import the parsing library the file `name` needs (none for plain text)."""
    for module in _PARSER_MODULES.get(PurePath(name).suffix.lower(), ()):
        importlib.import_module(module)


# configuration files an operations team documents its services with (redis.conf, setup.cfg, php.ini, a compose
# file), read as plain text: their comments are their documentation
CONFIG_SUFFIXES: frozenset[str] = frozenset({".conf", ".cfg", ".ini", ".toml", ".yaml", ".yml"})
SUPPORTED_SUFFIXES: frozenset[str] = frozenset(
    {".txt", ".md", ".rst", ".pdf", ".docx", ".pptx", ".xlsx", ".html", ".htm", ".csv"} | CONFIG_SUFFIXES
)

_SUPPORTED_HINT = (
    "upload PDF, DOCX, PPTX, XLSX, TXT, MD, RST, HTML, CSV or a configuration file (CONF, CFG, INI, TOML, YAML)"
)


def load_document(name: str, data: bytes) -> list[Section]:
    """Extract the text sections of the file `name` (dispatching on its suffix) from `data`.

    Raises `UnsupportedFileError` for a suffix outside `SUPPORTED_SUFFIXES` and `IngestError` for a file
    that cannot be read or holds no text.
    """
    suffix = PurePath(name).suffix.lower()
    loader = _LOADERS.get(suffix)
    if loader is None:
        kind = f"{suffix} files are" if suffix else "files without an extension are"
        raise UnsupportedFileError(f"{kind} not supported; {_SUPPORTED_HINT}")
    if not data:
        raise IngestError("the file is empty")
    try:
        sections = [_without_ligatures(s) for s in loader(data) if s.text.strip()]
    except Problem as problem:
        raise IngestError(str(problem)) from None
    if not sections:
        raise IngestError("no text found")
    return sections


# the Latin ligatures PDF text extraction gives ("speciﬁed", "ﬁle"), as the letters a question types
_LIGATURE = re.compile("[\ufb00-\ufb06]")
_LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"})


def _without_ligatures(section: Section) -> Section:
    if _LIGATURE.search(section.text) is None and _LIGATURE.search(section.heading or "") is None:
        return section
    heading = section.heading.translate(_LIGATURES) if section.heading else section.heading
    return dataclasses.replace(section, text=section.text.translate(_LIGATURES), heading=heading)


# --- plain text, shared by .txt, .md, .rst, .csv and configuration files ---------------------------------

# Unicode's control characters (category Cc: U+0000-U+001F and U+007F-U+009F) less the whitespace ones
# (\t \n \v \f \r): one regex pass instead of a category lookup per character.
_CONTROLS = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f]")
_MB = 1 << 20
_BINARY = "looks like a binary file, not text; upload the document itself, not a renamed file"


def _decode_text(data: bytes) -> str:
    """Decode text of unknown encoding; a non-UTF-8 file is read as cp1252/latin-1, never dropped."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise Problem("looks like a damaged UTF-16 text file; save it as UTF-8 and upload again") from None
    if b"\x00" in data:
        raise Problem(_BINARY)
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        text = data.decode("latin-1")  # maps every byte, so it cannot fail
    if text:
        # counted a megabyte at a time: no list of millions of matches, no long stretch holding the GIL
        controls = sum(len(_CONTROLS.findall(text, start, start + _MB)) for start in range(0, len(text), _MB))
        if controls / len(text) > 0.10:
            raise Problem(_BINARY)
    return text.replace("\r\n", "\n").replace("\r", "\n")


_TITLE_MAX = 200


def _load_txt(data: bytes) -> list[Section]:
    decoded = rejoin_hyphenated(_decode_text(data))
    if asciidoc.is_asciidoc(decoded):
        return _markdown_sections(asciidoc.to_markdown(decoded))
    text = repeat_entry_terms(decoded).strip()
    sectioned = _underlined_sections(text) or _release_line_sections(text)
    if sectioned:
        return sectioned
    title = _title_line(text)
    return [Section(text=text, heading=title, titles_document=title is not None)]


# A heading underlined with one mark, as release notes and READMEs in plain text write them ("Noteworthy changes in
# release 5.18 (2022-06-18)" over a line of "="): the underline, up to three spaces in, of three or more of one mark.
_UNDERLINE_MARKS = "=-~"
_COLUMNS = ("\t", "   ")  # inside a line: a table's header row over its rule, not a heading
_UNDERLINED_MIN = 2  # a lone underlined line may be a table's or a signature's rule; two make a file of sections
_HEADING_MAX = 120


def _underlined_sections(text: str) -> list[Section] | None:
    """A plain-text file cut at its underlined headings, each section under its heading (a changelog's "Bug fixes"
    under its release's, `ReleaseHeadings`), or None when it has fewer than two. The heading's line stays in its
    section's text, where quotes have always found it; the underline goes. Levels follow the marks' first use, as in
    reStructuredText: the first mark seen is the outermost. The first heading titles the document (its words go with
    every chunk into the index) only when no other heading is of its level."""
    lines = text.split("\n")
    marks: list[str] = []
    found: list[tuple[int, str, int]] = []  # (the heading's line, its title, its level)
    for at in range(1, len(lines)):
        title = _underlined_title(lines, at)
        if title is None:
            continue
        mark = lines[at].lstrip()[0]
        if mark not in marks:
            marks.append(mark)
        found.append((at - 1, title, marks.index(mark) + 1))
    if len(found) < _UNDERLINED_MIN:
        return None
    sections = _preamble(lines, found[0][0])
    releases = ReleaseHeadings()
    # the first heading titles the file only when no other is of its level: a changelog's first release does not
    titled = sum(level == 1 for _, _, level in found) == 1
    for index, (at, title, level) in enumerate(found):
        end = found[index + 1][0] if index + 1 < len(found) else len(lines)
        body = "\n".join([lines[at], *lines[at + 2 : end]]).strip()
        sections.append(Section(text=body, heading=releases.titled(title, level),
                                titles_document=titled and not sections and level == 1))
    return sections


def _preamble(lines: list[str], end: int) -> list[Section]:
    """The section of what comes before a file's first heading (`lines[:end]`), titled by its first line when that
    reads like a title; none when it is blank."""
    before = "\n".join(lines[:end]).strip()
    if not before:
        return []
    # read with the first heading's line: a title alone before it ("GNU sed NEWS  -*- outline -*-") is still the
    # file's title, and travels with every release's chunks
    title = _title_line("\n".join(lines[: end + 1]).strip())
    if title is not None and (title.startswith("-*-") or any(map(_is_release, title.split()))):
        title = None  # an Emacs mode line ("-*- text -*-") or a release's own line titles nothing
    return [Section(text=before, heading=title, titles_document=title is not None)]


# A changelog in plain text that underlines nothing heads each release with a line of its own at the margin, worded
# alike: "Changes between GMP version 6.1.* and 6.2.0", "Changes from versions 3.1.* to version 4.0.0:", "Version 4.3 -
# released 2020-06-12", "5.4.1 (2023-01-11)". Such a line, after a blank line and before a blank line or the release's
# indented or listed notes, heads a section when two or more of the file's lines open alike (`_opening`): a lone line
# that names a version is prose's.
_NOTES_START = ("", " ", "\t", "- ", "* ", "+ ")


def _release_line_sections(text: str) -> list[Section] | None:
    """A plain-text changelog cut at its releases' lines (see above), or None when it has fewer than two alike."""
    lines = text.split("\n")
    found = [at for at in range(len(lines)) if _is_release_line(lines, at)]
    openings = [_opening(lines[at]) for at in found]
    # every wording two lines share heads releases: a GNU NEWS file words its recent releases "Noteworthy changes in
    # release 3.8 (…)" and its old ones "Version 2.5.3" or "Major changes in release 4.7.0, …"
    heads = [at for at, opening in zip(found, openings, strict=True) if openings.count(opening) >= _UNDERLINED_MIN]
    if not heads:
        return None
    sections = _preamble(lines, heads[0])
    for index, at in enumerate(heads):
        end = heads[index + 1] if index + 1 < len(heads) else len(lines)
        title = " ".join(_without_outline_star(lines[at]).split()).rstrip(":").rstrip()
        sections.append(Section(text="\n".join(lines[at:end]).strip(), heading=title))
    return sections


def _without_outline_star(line: str) -> str:
    """A line without the star at the margin that heads an Emacs outline's entry ("* Noteworthy changes in release
    2.1.1 (2019-02-08) [beta]", as GNU NEWS files in outline mode head their releases)."""
    return line[2:] if line.startswith("* ") else line


def _is_release_line(lines: list[str], at: int) -> bool:
    line = _without_outline_star(lines[at])
    words = line.split()
    if not words or not (line[0].isalpha() or _dated_release(words)) or len(line) > _HEADING_MAX:
        return False
    if len(words) > RELEASE_LINE_WORDS_MAX:
        return False
    if line.rstrip()[-1] in ".!?,;" or not any(map(_is_release, words)) or (at and lines[at - 1].strip()):
        return False
    after = lines[at + 1] if at + 1 < len(lines) else ""
    return after.startswith(_NOTES_START)


def _is_release(word: str) -> bool:
    """Whether a word is a release's number: "6.2.0", "v2.7", "6.1.*", "4.0.0:", a beta's "3.0f"."""
    parts = word.strip("()[],:;").removeprefix("v").split(".")
    return len(parts) >= 2 and parts[0].isdigit() and parts[1][:1].isdigit()


_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]{0,6}"
# what a line that opens with a release's number says beside it to be that release's line: its date or "release"
# ("5.4.1 (2023-01-11)", "1.7 Enhancement Release - Jun 27, 2010"); a numbered question ("4.1. I keep getting the error
# 506 …") or an address ("192.168.10.1") says neither
_DATED = re.compile(rf"\b(?:release|(?:19|20)\d\d|{_MONTH})\b", re.IGNORECASE)
_FIGURES = re.compile(r"(?<!\d)\d{1,12}(?:[.\-/]\d{1,12}){0,8}")
_MONTHS = re.compile(rf"\b{_MONTH}\b")


def _dated_release(words: list[str]) -> bool:
    return _is_release(words[0]) and _DATED.search(" ".join(words[1:])) is not None


def _opening(line: str) -> str:
    """A release line's first two words, lowercased, each figure (a number, a version, a date) and each month one mark:
    what the file's release lines share ("version #" of "Version 0.20.2 - April 2020", "# (#)" of "5.4.1 (2023-01-11)",
    "<month> #," of "Apr 08, 2022: libarchive 3.6.1 released")."""
    return _MONTHS.sub("<month>", _FIGURES.sub("#", " ".join(_without_outline_star(line).lower().split()[:2])))


def _is_underline(line: str) -> bool:
    """Three or more of one mark (`_UNDERLINE_MARKS`), up to three spaces in, and nothing else but trailing spaces."""
    body = line.rstrip(" \t")
    mark = body.lstrip(" \t")
    return (len(body) - len(mark) <= 3 and len(mark) >= 3 and mark[0] in _UNDERLINE_MARKS
            and mark == mark[0] * len(mark))


def _underlined_title(lines: list[str], at: int) -> str | None:
    """The title that `lines[at]` underlines: the line above it, alone in its block (a blank line or an overline
    before it), a short line of words with no columns in it, with an underline about as long."""
    if not _is_underline(lines[at]):
        return None
    title = lines[at - 1].strip()
    above = lines[at - 2] if at >= 2 else ""
    if (not 3 <= len(title) <= _HEADING_MAX or len(lines[at - 1]) - len(lines[at - 1].lstrip()) > 3
            or not any(c.isalpha() for c in title) or any(gap in title for gap in _COLUMNS) or _is_underline(title)
            or (above.strip() and not _is_underline(above))):
        return None
    rule = len(lines[at].strip())
    return title if len(title) / 2 <= rule <= len(title) * 1.5 + 3 else None


def _title_line(text: str) -> str | None:
    """A plain-text file's first line is its title when it stands alone (a blank line follows) and reads
    like a heading, not a sentence; the title then travels with every chunk of the file into the index."""
    first, blank, rest = text.partition("\n\n")
    title = first.strip()
    if not blank or not rest.strip() or "\n" in title or len(title) > _TITLE_MAX or title[-1] in ".!?,;:":
        return None
    return title


# --- Markdown ---------------------------------------------------------------------------------------------


_ITEM_INDENT = "    "  # a list item's continuation, as Markdown guides indent it under "* " or "1. "


def _load_md(data: bytes) -> list[Section]:
    return _markdown_sections(_decode_text(data))


def _markdown_sections(text: str) -> list[Section]:
    builder = SectionBuilder()
    paragraph: list[str] = []
    # what is said of the next block, put before it: a MyST tab's label ("Windows") or a version note ("New in version
    # 20.1"), with whether it stands alone when no block follows in its section (a version note does)
    labels: list[tuple[str, bool]] = []
    item_paragraph = False  # whether the open paragraph is a list item's: an option's name there is no entry's term

    def add_block(text: str) -> None:
        builder.add_block(f"{labels.pop()[0]}: {text}" if labels else text)

    def flush_labels() -> None:
        if labels and labels[0][1]:
            builder.add_block(f"{labels[0][0]}.")
        labels.clear()

    def end_paragraph() -> None:
        nonlocal item_paragraph
        if paragraph and not item_paragraph and not labels:
            for text in paragraph if is_field_record(paragraph) else [" ".join(paragraph)]:
                builder.add_paragraph(text)
        elif paragraph:
            add_block(" ".join(paragraph))
        paragraph.clear()
        item_paragraph = False

    # MyST directives whose body is Markdown, innermost last (a tab's body may hold a code fence); a code fence (or an
    # unknown directive's) is closed by the next fence line, as it always was
    directives: list[markdown.Fence] = []
    releases = ReleaseHeadings()
    in_code = in_comment = in_list = False
    lines = text.split("\n")
    for raw in lines[markdown.front_matter_lines(lines) :]:
        if in_comment or ("<!--" in raw and not in_code):
            raw, in_comment = markdown.without_comments(raw, in_comment)
            if not raw.strip():  # an HTML comment block ends a paragraph, as in CommonMark
                end_paragraph()
                continue
        continued = in_list and raw.startswith(_ITEM_INDENT)
        if continued:
            # a list item's content is indented: its fence ("    ```bash" under "* `npm install …`:") is a fence, and
            # read as one its closing line ("   ```") no longer opens a fence that turns the rest of the page to code
            raw = raw[len(_ITEM_INDENT) :]
        if not in_code and directives and markdown.closes(raw, directives[-1]):
            end_paragraph()
            if directives.pop().directive in markdown.LABELLED_DIRECTIVES:
                labels.clear()
            continue
        if not in_code and (fence := markdown.opening_fence(raw)) is not None and not fence.literal:
            end_paragraph()
            directives.append(fence)
            if fence.directive in markdown.VERSION_NOTES and fence.argument:
                labels[:] = [(markdown.VERSION_NOTES[fence.directive].format(fence.argument), True)]
            elif fence.directive in markdown.LABELLED_DIRECTIVES and fence.argument:
                labels[:] = [(markdown.strip_inline(fence.argument), False)]
            continue
        if markdown.is_fence(raw):
            end_paragraph()
            in_code = not in_code
            continue
        if in_code:
            if raw.strip():
                add_block(raw.strip())
            continue
        if markdown.is_target(raw):
            continue
        raw = markdown.strip_markup(raw)
        title = markdown.heading(raw)
        if title is not None:
            end_paragraph()
            flush_labels()
            level = markdown.heading_level(raw)
            builder.start_section(releases.titled(markdown.strip_inline(title), level), titles_document=level == 1)
            continue
        if not raw.strip() or markdown.is_thematic_break(raw) or markdown.is_table_rule(raw):
            end_paragraph()
            continue
        if markdown.is_reference_definition(raw):
            continue
        line = markdown.without_quote(raw)
        item = markdown.list_item_text(line)
        in_list = item is not None or continued
        if item is not None:
            end_paragraph()
            line = item
            item_paragraph = True
        elif line.lstrip().startswith("|"):
            end_paragraph()
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            builder.add_block(" | ".join(markdown.strip_inline(c) for c in cells if c))
            continue
        paragraph.append(markdown.strip_inline(line.strip()))
    end_paragraph()
    flush_labels()
    return builder.sections()


# --- reStructuredText --------------------------------------------------------------------------------------


def _load_rst(data: bytes) -> list[Section]:
    return rst.sections(_decode_text(data))


# --- PowerPoint and Excel: their loaders import their parsers when called ---------------------------------


def _load_pptx(data: bytes) -> list[Section]:
    from masis.ingest.slides import load_pptx

    return load_pptx(data)


def _load_xlsx(data: bytes) -> list[Section]:
    from masis.ingest.sheets import load_xlsx

    return load_xlsx(data)


# --- HTML -------------------------------------------------------------------------------------------------

# Paragraphs of the page's text: a line break, blanks, another line break. (No repeat here can run over a
# line break, so no search rescans what an earlier one covered.)
_PARAGRAPH_BREAK = re.compile(r"\n[^\S\n]*+\n")


def _load_html(data: bytes) -> list[Section]:
    from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning, XMLParsedAsHTMLWarning

    from masis.ingest.html_text import Heading, page_parts

    builder = SectionBuilder()
    text: list[str] = []

    def end_text() -> None:
        for block in _PARAGRAPH_BREAK.split("".join(text)):
            builder.add_block(block)
        text.clear()

    # lxml (libxml2) rather than the standard library's html.parser, which is quadratic on unclosed markup
    # (64 KB of `<!--` took 5 s, a megabyte would take the whole time limit). lxml refuses lone surrogates,
    # which only an exotic declared charset can produce.
    markup = _decode_html(data).encode("utf-8", "replace").decode("utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)  # XHTML is read as HTML on purpose
        warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
        soup = BeautifulSoup(markup, "lxml")
    releases = ReleaseHeadings()
    for part in page_parts(soup):
        if isinstance(part, Heading):
            end_text()
            builder.start_section(releases.titled(part.text, part.level) if part.text else None,
                                  titles_document=part.level == 1)
        else:
            text.append(part)
    end_text()
    return builder.sections()


_CHARSET_WINDOW = 4096


def _decode_html(data: bytes) -> str:
    """UTF-8 first, then the page's declared charset, then cp1252/latin-1.

    BeautifulSoup's own detection guesses with charset-normalizer before trying UTF-8, and on short
    pages it can read UTF-8 as Cyrillic; decoding here keeps the order predictable.
    """
    from bs4.dammit import EncodingDetector

    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    # The declaration belongs near the top (browsers look at the first 1,024 bytes); bs4's own search of 5 %
    # of the page would be quadratic on a page of `<meta` repeated.
    declared = EncodingDetector.find_declared_encoding(data[:_CHARSET_WINDOW], is_html=True,
                                                       search_entire_document=True)
    for encoding in ("utf-8-sig", declared, "cp1252"):
        if encoding:
            try:
                return data.decode(encoding)
            except (UnicodeDecodeError, LookupError):
                continue
    return data.decode("latin-1")


# --- DOCX -------------------------------------------------------------------------------------------------


_OLD_OR_LOCKED_DOCX = (
    "this is an old-style Word file or a password-protected one; save it as .docx without a password and upload again"
)


def _load_docx(data: bytes) -> list[Section]:
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    check_office_zip(data, "DOCX", "Word", _OLD_OR_LOCKED_DOCX)
    try:
        document = docx.Document(io.BytesIO(data))
        content = list(document.iter_inner_content())
    # python-docx raises zipfile, KeyError, lxml and its own errors for damaged packages
    except Exception:
        raise Problem(
            "could not open this DOCX; it may be damaged or not a Word document - "
            "open and re-save it in Word, then upload again"
        ) from None

    builder = SectionBuilder()
    for item in content:
        if isinstance(item, Paragraph):
            style = (item.style.name if item.style is not None else "") or ""
            if style.lower().startswith("heading") or style.lower() == "title":
                top = style.lower() in ("title", "heading 1")
                builder.start_section(" ".join(item.text.split()) or None, titles_document=top)
            else:
                builder.add_block(item.text)
        elif isinstance(item, Table):
            for row_text in _docx_table_rows(item):
                builder.add_block(row_text)
    return builder.sections()


def _docx_table_rows(table: Table) -> Iterable[str]:
    for row in table.rows:
        cells: list[str] = []
        previous = None
        for cell in row.cells:
            # a horizontally merged cell is reported once per grid column it spans
            if previous is not None and cell._tc is previous._tc:
                continue
            previous = cell
            text = " ".join(cell.text.split())
            if text:
                cells.append(text)
        if cells:
            yield " | ".join(cells)


# --- PDF --------------------------------------------------------------------------------------------------


def _load_pdf(data: bytes) -> list[Section]:
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError

    damaged = "could not read this PDF ({reason}); it may be damaged or incomplete - re-export it and upload again"
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            # Many PDFs are "encrypted" only to restrict printing/copying; they open with an empty password.
            try:
                opened = reader.decrypt("")
            except DependencyError:
                raise Problem(
                    "this PDF uses AES encryption, which needs the 'cryptography' package; "
                    "install it or upload an unencrypted copy"
                ) from None
            if not opened:
                raise Problem("this PDF is password-protected; remove the password and upload again")
        sections = []
        for number, page in enumerate(reader.pages, start=1):
            text = page.extract_text() or ""
            sections.append(Section(text=text.strip(), page=number))
    except Problem:
        raise
    except FileNotDecryptedError:
        raise Problem("this PDF is password-protected; remove the password and upload again") from None
    except PdfReadError as exc:
        raise Problem(damaged.format(reason=_short_reason(exc))) from None
    # pypdf raises arbitrary errors (KeyError, ValueError, RecursionError...) on malformed files
    except Exception:
        raise Problem(damaged.format(reason="its structure is broken")) from None
    if not any(s.text for s in sections):
        raise Problem("looks scanned; no text to index - run OCR on it or upload a text-based PDF")
    return sections


def _short_reason(exc: Exception) -> str:
    lines = str(exc).strip().splitlines()
    reason = lines[0].rstrip(".") if lines else ""
    if not reason:
        return "its structure is broken"
    return reason if len(reason) <= 80 else reason[:77] + "..."


# --- CSV --------------------------------------------------------------------------------------------------


def _load_csv(data: bytes) -> list[Section]:
    text = _decode_text(data)
    try:
        rows = [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(text), delimiter=_delimiter(text))]
    except csv.Error:
        raise Problem("could not parse this CSV; check its quoting and upload again") from None
    rows = [row for row in rows if any(row)]
    if len(rows) < 2:
        return []
    from masis.judge.tables import rows_heading  # not at the top: the judge's imports would slow every parse child

    header, body = rows[0], rows[1:]
    sentences = [row_sentence(header, row) for row in body]
    sections = []
    for start in range(0, len(sentences), ROWS_PER_SECTION):
        batch = sentences[start : start + ROWS_PER_SECTION]
        heading = rows_heading(start + 1, start + len(batch), header)
        sections.append(Section(text=BLOCK_BREAK.join(batch), heading=heading))
    return sections


def _delimiter(text: str) -> str:
    """The delimiter giving the most rows as wide as the header (so ";" files from Excel work); "," on ties.

    csv.Sniffer is avoided on purpose: on small or ragged files it picks surprising delimiters.
    """
    best, best_score = ",", (0, 0)
    for delimiter in (",", ";", "\t", "|"):
        try:
            rows = list(itertools.islice(csv.reader(io.StringIO(text), delimiter=delimiter), 50))
        except csv.Error:
            continue
        widths = [len(row) for row in rows if any(cell.strip() for cell in row)]
        if not widths or widths[0] < 2:
            continue
        score = (sum(1 for width in widths if width == widths[0]), widths[0])
        if score > best_score:
            best, best_score = delimiter, score
    return best


_LOADERS: dict[str, Callable[[bytes], list[Section]]] = {
    ".txt": _load_txt,
    ".md": _load_md,
    ".pdf": _load_pdf,
    ".docx": _load_docx,
    ".html": _load_html,
    ".htm": _load_html,
    ".csv": _load_csv,
    ".rst": _load_rst,
    ".pptx": _load_pptx,
    ".xlsx": _load_xlsx,
    **dict.fromkeys(CONFIG_SUFFIXES, _load_txt),
}
