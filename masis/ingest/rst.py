"""reStructuredText read as text: headings kept as headings, markup stripped, in time linear in the file.

Block syntax is read line by line with `str` methods and a one- or two-line look-ahead (section titles are
a line of text under, and maybe over, a line of one punctuation mark). Directives keep their text
(`.. note::`, `.. warning::`, tables, `.. code-block::` as literal lines) unless they hold none or point
elsewhere: images, `raw`, `include` (never followed: a document names no file of this machine), tables of
contents, comments and link targets are dropped with their indented bodies. Inline markup is removed by one
forward pass over the backquotes (roles such as :mod:`x` give `x`, links `Title <url>`_ give `Title`) and
by passes whose patterns have only bounded repeats, or the forward-only scans of `masis.ingest.markdown`.
"""

from __future__ import annotations

import re

from masis.ingest import markdown
from masis.ingest.sections import Section, SectionBuilder, is_field_record

# Directives whose content is no text to read, or which point elsewhere; dropped with their bodies.
_DROPPED = frozenset({
    "image", "raw", "include", "literalinclude", "toctree", "contents", "sectnum", "section-numbering", "header",
    "footer", "target-notes", "meta", "index", "highlight", "default-role", "role", "tabularcolumns", "graphviz",
    "digraph", "graph", "plot", "math", "automodule", "autoclass", "autofunction", "automethod", "autodata",
    "autoattribute", "autoexception", "autosummary", "currentmodule", "module", "title", "only", "ifconfig",
})  # fmt: skip
# Directives whose body is code or verbatim text: kept line by line, with no markup stripped.
_LITERAL = frozenset({"code", "code-block", "sourcecode", "parsed-literal", "doctest", "testcode", "testoutput"})
# Directives whose argument is a path, a language or a class name, not text to read (their bodies are kept).
_ARGUMENT_DROPPED = _LITERAL | {"figure", "container", "class"}

_ADORNMENT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_BULLETS = ("- ", "* ", "+ ", "• ", "‣ ", "⁃ ")
_ENUMERATED = re.compile(r"(?:\d{1,9}|#)[.)]\s|\((?:\d{1,9}|#|[a-zA-Z]|[ivxlcdm]{1,9})\)\s")
_DIRECTIVE = re.compile(r"\.\.\s([A-Za-z][\w:+.-]{0,63})::(?=\s|$)")
_FIELD = re.compile(r":([^:\s`][^:`]{0,99}):(?=\s|$)")

_ANY_INLINE = re.compile(r"[`*|_\[\\]")
_ESCAPE = re.compile(r"\\(.)")
_ROLE_BEFORE = re.compile(r"(?::[\w.+-]{1,40}){1,3}:$")
_ROLE_AFTER = re.compile(r"(?::[\w.+-]{1,40}){1,3}:")
_ROLE_WINDOW = 130  # how far before a backquote a role (`:py:func:`, at most three names) is looked for
_FOOTNOTE_REFERENCE = re.compile(r" ?\[(?:#[\w-]{0,40}|\*|\d{1,9}|[\w.-]{1,40})\]_")
_SUBSTITUTION = re.compile(r"\|([^|\s][^|]{0,98})\|(?:__?)?")
_WORD_REFERENCE = re.compile(r"(?<![\w`])([^\W_][\w.-]{0,99}?)__?(?![\w])")
_OPEN_STRONG = re.compile(r"\*\*(?=\S)")
_CLOSE_STRONG = {"**": re.compile(r"(?<=\S)\*\*")}
_OPEN_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)")
_CLOSE_EMPHASIS = {"*": re.compile(r"(?<=\S)\*(?![\w*])")}

# Markup characters inside literals and after a backslash stand for themselves: they are swapped for
# private-use characters while the later passes run, and swapped back at the end.
_MARKUP = "`*_|[]\\:<>"
_PROTECT = str.maketrans({c: chr(0xE000 + i) for i, c in enumerate(_MARKUP)})
_UNPROTECT = str.maketrans({chr(0xE000 + i): c for i, c in enumerate(_MARKUP)})


def sections(text: str) -> list[Section]:
    """The sections of a reStructuredText document: each title starts one, blocks are its paragraphs, list
    items, table rows and literal lines."""
    return _Reader(text.expandtabs(8).split("\n")).read()


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def is_adornment(line: str) -> bool:
    """A line of one punctuation mark repeated (`=====`, `-----`, `~~~~`): a title's under- or overline."""
    return len(line) >= 2 and line[0] in _ADORNMENT and line.count(line[0]) == len(line)


def _is_grid_rule(line: str) -> bool:
    """`+-----+------+` or `+=====+======+`: a grid table's border."""
    return len(line) >= 3 and line[0] == "+" and line[-1] == "+" and not line.strip("+-=:")


def _is_simple_rule(line: str) -> bool:
    """`=====  ======`: a simple table's border (two columns or more)."""
    return " " in line and not line.replace(" ", "").strip("=") and line.startswith("=")


class _Reader:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.stripped = [line.strip() for line in lines]
        self.builder = SectionBuilder()
        self.paragraph: list[str] = []
        self.paragraph_indent = 0
        self.skip: int | None = None  # a dropped body: lines indented more than this
        self.literal: int | None = None  # a literal body: lines indented more than this, kept verbatim
        self.expect_literal: int | None = None  # the paragraph ended with `::`: a literal body may follow
        self.options: int | None = None  # a directive's `:option: value` lines
        self.doctest = False  # inside a doctest block (`>>> ...`), which ends at a blank line
        self.table = ""  # "grid" or "simple" inside a table

    def read(self) -> list[Section]:
        i = 0
        while i < len(self.lines):
            i += self._line(i)
        self._end_paragraph()
        return self.builder.sections()

    def _line(self, i: int) -> int:
        """Read line `i` (and the lines it needs ahead); how many lines were read."""
        text, indent = self.stripped[i], _indent(self.lines[i])
        if self.skip is not None:
            if not text or indent > self.skip:
                return 1
            self.skip = None
        if self.options is not None:
            if text and indent > self.options and _FIELD.match(text):
                return 1
            self.options = None
        if self.literal is not None:
            if not text:
                return 1
            if indent > self.literal:
                self.builder.add_block(text)
                return 1
            self.literal = None
        if not text:
            self._end_paragraph()
            self.doctest = False
            if self.table == "grid":
                self.table = ""
            return 1
        if self.doctest:
            self.builder.add_block(text)
            return 1
        if self.expect_literal is not None:
            literal, self.expect_literal = self.expect_literal, None
            if indent > literal:
                self.literal = literal
                self.builder.add_block(text)
                return 1
        if text.startswith(".. ") or text == "..":
            self._end_paragraph()
            self._explicit(text, indent)
            return 1
        if text.startswith("__ "):  # an anonymous link target
            self._end_paragraph()
            self.skip = indent
            return 1
        return self._body(i, text, indent)

    def _body(self, i: int, text: str, indent: int) -> int:
        ahead = self.stripped[i + 1] if i + 1 < len(self.lines) else ""
        if is_adornment(text):
            after = self.stripped[i + 2] if i + 2 < len(self.lines) else ""
            if ahead and not is_adornment(ahead) and after == text:  # an overlined title
                self._end_paragraph()
                self.builder.start_section(strip_inline(ahead) or None)
                return 3
        elif (indent == 0 and is_adornment(ahead) and _indent(self.lines[i + 1]) == 0 and not self.table
              and len(ahead) >= min(len(text), 3)):  # a title and its underline
            self._end_paragraph()
            self.builder.start_section(strip_inline(text) or None)
            return 2
        if _is_grid_rule(text):
            self._end_paragraph()
            self.table = "grid"
            return 1
        if _is_simple_rule(text):
            self._end_paragraph()
            # a simple table ends at a border followed by a blank line (or the end)
            self.table = "" if self.table == "simple" and not ahead else "simple"
            return 1
        if is_adornment(text) and len(text) >= 4:  # a transition
            self._end_paragraph()
            return 1
        if self.table == "grid" and text.startswith("|"):
            cells = (strip_inline(cell.strip()) for cell in text.strip("|").split("|"))
            self.builder.add_block(" | ".join(cell for cell in cells if cell))
            return 1
        if self.table == "simple":
            self.builder.add_block(strip_inline(text))
            return 1
        if text == "|" or text.startswith("| "):  # a line block: each line stands alone
            self._end_paragraph()
            self.builder.add_block(strip_inline(text[2:]))
            return 1
        if text.startswith(">>>"):  # a doctest block: verbatim to its end
            self._end_paragraph()
            self.builder.add_block(text)
            self.doctest = True
            return 1
        if (field := _FIELD.match(text)) is not None:
            self._start_paragraph(f"{field.group(1)}:{text[field.end():]}", indent)
        elif text.startswith(_BULLETS):
            self._start_paragraph(text[2:], indent)
        elif (number := _ENUMERATED.match(text)) is not None:
            self._start_paragraph(text[number.end():], indent)
        elif not self.paragraph:
            self._start_paragraph(text, indent)
        else:
            self.paragraph.append(text)
        return 1

    def _explicit(self, text: str, indent: int) -> None:
        """`.. ` markup: a directive, a footnote, or something without text to keep (a target, a comment)."""
        if text.startswith(".. ["):  # a footnote or citation: its text is kept
            close = text.find("]")
            if close > 0:
                self._start_paragraph(text[close + 1 :], indent)
                return
        directive = _DIRECTIVE.match(text)
        if directive is None or text.startswith(".. |"):  # comment, link target, substitution definition
            self.skip = indent
            return
        name = directive.group(1).lower().rpartition(":")[2]  # "py:function" -> "function"
        if name in _DROPPED:
            self.skip = indent
            return
        self.options = indent
        if name in _LITERAL:
            self.literal = indent
            return
        argument = text[directive.end() :].strip()
        if argument and name in markdown.VERSION_NOTES:  # as Sphinx prints it: "New in version 3.21.", not "3.21"
            version, _, said = argument.partition(" ")
            note = markdown.VERSION_NOTES[name].format(version)
            self._start_paragraph(f"{note}: {said.strip()}" if said.strip() else f"{note}.", indent)
        elif argument and name not in _ARGUMENT_DROPPED:
            self._start_paragraph(argument, indent)

    def _start_paragraph(self, text: str, indent: int) -> None:
        self._end_paragraph()
        self.paragraph = [text]
        self.paragraph_indent = indent

    def _end_paragraph(self) -> None:
        lines, self.paragraph = self.paragraph, []
        if not lines:
            return
        if is_field_record(lines):
            for field in lines:
                self.builder.add_paragraph(strip_inline(field))
            return
        text = " ".join(lines)
        if text.endswith("::"):  # "Example::" shows as "Example:", "Example ::" as "Example"; a literal block follows
            self.expect_literal = self.paragraph_indent
            head = text[:-2]
            text = head.rstrip() if not head or head[-1].isspace() else head + ":"
        self.builder.add_paragraph(strip_inline(text))


def strip_inline(text: str) -> str:
    """`text` without inline markup: emphasis, literals, roles, links, references and substitutions give their
    text; footnote references go."""
    if _ANY_INLINE.search(text) is None:
        return text
    text = _ESCAPE.sub(lambda m: "" if m.group(1).isspace() else m.group(1).translate(_PROTECT), text)
    text = _backquoted(text)
    text = _FOOTNOTE_REFERENCE.sub("", text)
    text = _SUBSTITUTION.sub(lambda m: m.group(1), text)
    text = markdown.unwrap(text, _OPEN_STRONG, _CLOSE_STRONG)
    text = markdown.unwrap(text, _OPEN_EMPHASIS, _CLOSE_EMPHASIS)
    text = _WORD_REFERENCE.sub(lambda m: m.group(1), text)
    return text.translate(_UNPROTECT)


def _backquoted(text: str) -> str:
    """One forward pass over the backquotes: ``literal``, `interpreted` with its role before or after it,
    `link <url>`_ and _`target`, each replaced by its text (protected from the later passes)."""
    out: list[str] = []
    pos = 0
    while (start := text.find("`", pos)) >= 0:
        if text.startswith("``", start):
            end = text.find("``", start + 2)
            if end < 0:
                break
            out += (text[pos:start], text[start + 2 : end].translate(_PROTECT))
            pos = end + 2
            continue
        end = text.find("`", start + 1)
        if end < 0:
            break
        before = start
        window = max(pos, start - _ROLE_WINDOW)
        if (role := _ROLE_BEFORE.search(text[window:start])) is not None:
            before = window + role.start()
        elif start > pos and text[start - 1] == "_":  # an inline target
            before = start - 1
        after = end + 1
        if (role := _ROLE_AFTER.match(text[after : after + _ROLE_WINDOW])) is not None:
            after += role.end()
        elif text.startswith("__", after):
            after += 2
        elif text.startswith("_", after):
            after += 1
        out += (text[pos:before], _interpreted(text[start + 1 : end]).translate(_PROTECT))
        pos = after
    out.append(text[pos:])
    return "".join(out)


def _interpreted(content: str) -> str:
    """What an interpreted text shows: `Title <target>` -> Title, `~a.b.c` -> c, `!name` -> name."""
    if content.endswith(">") and (open_at := content.rfind("<")) >= 0:
        title = content[:open_at].strip()
        return title or content[open_at + 1 : -1]
    if content.startswith("~"):
        return content[1:].rpartition(".")[2]
    return content.removeprefix("!")
