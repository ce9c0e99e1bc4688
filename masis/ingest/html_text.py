"""The text of a parsed HTML page in one walk of its tree: blocks apart, table rows as `a | b`, headings marked.

The walk reads the tree without changing it and visits each node once, on an explicit stack, so a page
nested 100,000 levels deep costs what a flat page of as many tags costs. (Rewriting the tree in place, as
MASIS did before, made each inserted block break walk down to the end of its tag: quadratic in the depth,
minutes for a few hundred kilobytes of nested `<div>`s.)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from bs4.element import NavigableString, PageElement, Tag

DROPPED = frozenset({"script", "style", "nav", "noscript", "template", "head", "svg", "iframe"})
HEADINGS = frozenset({"h1", "h2", "h3", "h4"})
BLOCKS = frozenset({
    "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "section", "article", "main", "aside", "header",
    "footer", "blockquote", "pre", "table", "caption", "figure", "figcaption", "h5", "h6", "br", "hr",
    "address", "form", "fieldset", "details", "summary",
})  # fmt: skip
CELLS = frozenset({"td", "th"})
BLOCK_BREAK = "\n\n"


@dataclass(frozen=True, slots=True)
class Heading:
    """An h1-h4 heading: the text after it belongs to its section."""

    text: str
    level: int = 2  # 1 for an h1


def page_parts(root: Tag) -> list[str | Heading]:
    """The page's text in order: strings (blocks separated by blank lines) and the headings between them.

    Scripts, styles, navigation and the like are skipped, and so are comments and other markup strings;
    a table row is one block of its cells joined by ` | `.
    """
    parts: list[str | Heading] = []
    term = False  # a definition list's term was just read: its definition goes on the same line
    for node in _walk(root, flatten=(HEADINGS | {"tr", "dt"})):
        if node is _BREAK:
            if not term:
                parts.append(BLOCK_BREAK)
        elif isinstance(node, Tag):
            if node.name == "dt":
                # "6" then "Error in one of the documents": one entry, as "6: Error in one of the documents", not
                # two lines that a reader (or the sentence splitter) may join to the neighbouring entries
                text = _cell_text(node)
                # an empty definition (pod2html's "default: 2" under the levels it closes) leaves its term a line
                term = bool(text) and _defined(node)
                if term:
                    parts.append(f"{BLOCK_BREAK}{text}: ")
                elif text:
                    parts.append(f"{BLOCK_BREAK}{text}{BLOCK_BREAK}")
            elif node.name == "tr":
                term = False
                parts.append(_row(node))
            else:
                term = False
                text = " ".join(" ".join(_heading_strings(node)).split())
                parts.append(Heading(text, level=int(node.name[1])))
        else:
            text = str(node)
            if term and not text.strip():
                continue  # the page's line breaks between a term and its definition ("</dt>\n<dd>\n\n<p>")
            if term:
                term = False
                text = text.lstrip()
            parts.append(text)
    return parts


def _defined(term: Tag) -> bool:
    """Whether a definition list's term has a definition with text: the `dd` after it."""
    definition = term.find_next_sibling(("dd", "dt"))
    return definition is not None and definition.name == "dd" and bool(definition.get_text(strip=True))


class _Break:
    """A block break: before and after each block tag's content."""


_BREAK = _Break()


def _walk(root: Tag, *, flatten: frozenset[str], blocks: bool = True) -> Iterator[PageElement | _Break]:
    """Text strings under `root` in document order, and the tags named in `flatten` instead of their content.

    Dropped tags and markup strings (comments, doctypes, CDATA, ruby annotations) are skipped. With
    `blocks`, a block tag's content comes between two `_BREAK`s.
    """
    stack: list[PageElement | _Break] = list(reversed(root.contents))
    while stack:
        node = stack.pop()
        if isinstance(node, Tag):
            if node.name in DROPPED or _is_permalink(node):
                continue
            if node.name in flatten and not (node.name == "tr" and _lays_out_the_page(node)):
                yield node
                continue
            if blocks and (node.name in BLOCKS or node.name in CELLS):
                yield _BREAK
                stack.append(_BREAK)
            stack.extend(reversed(node.contents))
        elif node is _BREAK or type(node) is NavigableString:  # exactly: not a Comment, Doctype, ...
            yield node


_LAYOUT_TAGS = ("h1", "h2", "h3", "h4", "table")


def _lays_out_the_page(row: Tag) -> bool:
    """Whether a table row is a page's layout, not a record: a cell of it holds a heading or a table of its own among
    its children (libxslt's pages put their menu and their whole text in the cells of one row). Its cells are read as
    the page's blocks, not joined into one line of " | ". Only the cells' children are looked at, so that tables
    nested a thousand deep are read in linear time."""
    return any(
        cell.find(_LAYOUT_TAGS, recursive=False) is not None
        for cell in row.find_all(("td", "th"), recursive=False)
    )


# what a generated page links each heading to itself with: Sphinx's "¶", a "#" or a "§"
_PERMALINK_MARKS = frozenset({"¶", "#", "§", "🔗"})


def _is_permalink(tag: Tag) -> bool:
    """A heading's link to itself (Sphinx's `<a class="headerlink" href="#…">¶</a>`): no text of the page."""
    if tag.name != "a":
        return False
    classes = tag.get("class") or []
    href = tag.get("href")
    return "headerlink" in classes or (
        isinstance(href, str) and href.startswith("#") and tag.get_text().strip() in _PERMALINK_MARKS
    )


def _row(row: Tag) -> str:
    """The row's cells (td and th, not those of a table nested in a cell) joined by ` | `, empty ones left out;
    text in the row outside any cell is not shown."""
    cells = (_cell_text(cell) for cell in _walk(row, flatten=CELLS, blocks=False) if isinstance(cell, Tag))
    return BLOCK_BREAK + " | ".join(cell for cell in cells if cell) + BLOCK_BREAK


def _cell_text(cell: Tag) -> str:
    strings = (str(node).strip() for node in _walk(cell, flatten=frozenset(), blocks=False))
    return " ".join(s for s in strings if s)


def _heading_strings(heading: Tag) -> Iterator[str]:
    for node in _walk(heading, flatten=frozenset({"tr"}), blocks=False):
        yield _row(node) if isinstance(node, Tag) else str(node)
