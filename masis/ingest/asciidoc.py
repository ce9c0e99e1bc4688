"""AsciiDoc shipped as plain text, read as the Markdown it stands for.

Projects ship AsciiDoc under a `.txt` name (ccache's NEWS.txt, many a README.txt): read as plain text, its markup
is quoted as if it were words ("… support for MSVC. + [small]#_[contributed by …]_# - Added support for …" became
one sentence) and its sections have no headings. A `.txt` file that opens with an AsciiDoc document title
(`= Title`) and has a section (`== Section`) is turned into Markdown here, line by line, and read by the Markdown
loader: titles become headings, list items stay items, a definition's terms are kept with its text, listing blocks
become code, and inline markup gives way to the text it shows (a link's text, a role's text).
"""

from __future__ import annotations

import re

_DOCUMENT_TITLE = re.compile(r"= \S")
_SECTION_TITLE = re.compile(r"(={1,6}) +(\S.*?)(?: +=+)?\s*$")
_ATTRIBUTE_ENTRY = re.compile(r":!?[\w-]+!?:(?:\s.*)?$")
_BLOCK_ATTRIBUTES = re.compile(r"\[[^\[\]]*\]\s*$|\[\[[^\[\]]+\]\]\s*$")  # [source,bash], [NOTE], [[anchor]]
_BLOCK_TITLE = re.compile(r"\.(?=[A-Za-z`*_])(\S.{0,78}[^.:])$")  # ".Example", not ".gitignore is read first."
_LISTING = re.compile(r"(?:-{4,}|\.{4,})\s*$")  # ---- listing, .... literal: code
_CONTAINER = re.compile(r"(?:={4,}|\*{4,}|_{4,}|\+{4,}|--)\s*$")  # example, sidebar, quote, passthrough, open block
_TABLE_EDGE = re.compile(r"[|!,:]={3,}\s*$")
_COMMENT_BLOCK = re.compile(r"/{4,}\s*$")
_ITEM = re.compile(r"(\*{1,5}|-|\.{1,5})\s+(\S.*)$")
_DEFINITION = re.compile(r"(\S.*?)(?::{2,4}|;;)(?:\s+(\S.*))?$")
_HARD_BREAK = re.compile(r"\s\+$")

# inline markup, replaced over the whole text (a link's text may run over two lines)
_INLINE = (
    (re.compile(r"link:(?:pass:)?\[?([^\s\[\]]+?)\]?\[([^\]]*)\]"), lambda m: m[2] or m[1]),
    (re.compile(r"xref:([^\s\[\]]+)\[([^\]]*)\]"), lambda m: m[2] or m[1]),
    (re.compile(r"\b((?:https?|ftp|mailto):[^\s\[\]<>]+)\[([^\]]*)\]"), lambda m: m[2] or m[1]),
    (re.compile(r"<<([\w:./-]+)(?:,\s*([^>]*))?>>"), lambda m: m[2] or m[1]),
    (re.compile(r"\[[\w .,#-]*\]#([^#\n]+(?:\n[^#\n]+)?)#"), lambda m: m[1]),  # [small]#…#, over two lines at most
    (re.compile(r"\b(?:pass|kbd|btn|menu|footnote):\[([^\]]*)\]"), lambda m: m[1]),
)


def is_asciidoc(text: str) -> bool:
    """Whether plain text is AsciiDoc: it opens with a document title (`= Title`) and has a section (`== …`)."""
    lines = (line for line in text.splitlines() if line.strip() and not line.startswith("//"))
    first = next(lines, "")
    # most text files fail on their first line, and the rest is not looked at
    return _DOCUMENT_TITLE.match(first) is not None and any(
        line.startswith("==") and (title := _SECTION_TITLE.match(line)) is not None and len(title[1]) >= 2
        for line in lines
    )


def to_markdown(text: str) -> str:
    """The Markdown an AsciiDoc text stands for, as far as a reader of its sentences needs."""
    for pattern, replace in _INLINE:
        text = pattern.sub(replace, text)
    out: list[str] = []
    terms: list[str] = []  # a definition's terms waiting for their text ("--verbose::", "-v::", then the text)
    in_listing = in_comment = False
    for raw in text.splitlines():
        line = raw.rstrip()
        if in_comment:
            in_comment = _COMMENT_BLOCK.match(line) is None
            continue
        if _LISTING.match(line):
            out.append("```")
            in_listing = not in_listing
            continue
        if in_listing:
            out.append(line)
            continue
        if _COMMENT_BLOCK.match(line):
            in_comment = True
            continue
        if line.startswith("//") or _ATTRIBUTE_ENTRY.match(line) or _BLOCK_ATTRIBUTES.match(line):
            continue
        if _CONTAINER.match(line) or _TABLE_EDGE.match(line) or line == "+":
            out.append("")  # a block's edge, or a list item's continuation: the paragraph before it ends
            continue
        stripped = _HARD_BREAK.sub("", line).strip()
        if not stripped:
            out.append("")
            continue
        if (title := _SECTION_TITLE.match(stripped)) is not None:
            out.extend(("", f"{'#' * len(title[1])} {title[2]}", ""))
            continue
        if (block_title := _BLOCK_TITLE.match(stripped)) is not None and not stripped.startswith(".."):
            out.extend(("", f"{block_title[1]}:", ""))
            continue
        if (item := _ITEM.match(stripped)) is not None:
            marker = "1." if item[1].startswith(".") else "-"
            out.append(f"{marker} {item[2]}")
            continue
        if (definition := _DEFINITION.match(stripped)) is not None and not stripped.startswith(("|", "http")):
            terms.append(definition[1])
            if definition[2]:
                out.extend(("", f"{', '.join(terms)}: {definition[2]}"))
                terms.clear()
            continue
        if terms:
            out.extend(("", f"{', '.join(terms)}: {stripped}"))
            terms.clear()
            continue
        out.append(stripped)
    return "\n".join(out) + "\n"
