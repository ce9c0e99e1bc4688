"""Markdown syntax read and stripped line by line, in time linear in a line's length whatever the line holds.

No pattern here has an unbounded repeat: block syntax (headings, rules, table rules, list markers) is read
with `str` methods, and inline syntax is removed by passes that each search a line only for a few fixed
characters. A pass asks its searches (`Scan`) for positions that never move backwards, so each answer
starts where the last one left off and every character is looked at a bounded number of times. The passes
give exactly what the regular expressions MASIS used before gave (tests/unit/test_markdown.py keeps them as
the reference); those were quadratic or worse on lines such as `**x ` repeated or a heading of spaces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE = re.compile(r"\s{0,3}(?:```|~~~)")
_QUOTE = re.compile(r"\s{0,3}>\s?")
_ORDINAL = re.compile(r"\d{1,9}[.)]")
_ANY_INLINE = re.compile(r"[\[<`*_~\\]")  # a line without these has no inline syntax
# CommonMark's backslash escapes: a backslash before ASCII punctuation, outside a code span (where it is literal)
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_TICK_OR_BACKSLASH = re.compile(r"[`\\]")
_ESCAPED_BASE = 0xF0000  # escaped punctuation is held as a private-use character while the markup is read

_OPEN_BRACKET = re.compile(r"\[")
_OPEN_IMAGE = re.compile(r"!\[")
_CLOSE_BRACKET = re.compile(r"\]")
_CLOSE_PAREN = re.compile(r"\)")
_OPEN_AUTOLINK = re.compile(r"<https?://")
_END_AUTOLINK = re.compile(r"[>\s]")
_TICK = re.compile("`")
# Emphasis: an opener is followed by a non-space, a closer preceded by one; single `*` and `_` must not
# touch a word (snake_case, 2*3*4) or another of their kind.
_OPEN_STRONG = re.compile(r"(?:\*\*|__)(?=\S)")
_CLOSE_STRONG = {"**": re.compile(r"(?<=\S)\*\*"), "__": re.compile(r"(?<=\S)__")}
_OPEN_STAR = re.compile(r"(?<![\w*])\*(?=\S)")
_CLOSE_STAR = {"*": re.compile(r"(?<=\S)\*(?![\w*])")}
_OPEN_UNDERSCORE = re.compile(r"(?<![\w_])_(?=\S)")
_CLOSE_UNDERSCORE = {"_": re.compile(r"(?<=\S)_(?![\w_])")}
_OPEN_STRIKE = re.compile(r"~~(?=\S)")
_CLOSE_STRIKE = {"~~": re.compile(r"(?<=\S)~~")}


class Scan:
    """The first match of a fixed-width pattern at or after a position, asked for positions that never
    decrease: no match starts between the last position asked and the last answer, so an answer at or after
    the new position is still the answer, and a search never covers ground an earlier one covered."""

    __slots__ = ("_asked", "_found", "_line", "_pattern")

    def __init__(self, line: str, pattern: re.Pattern[str]) -> None:
        self._line = line
        self._pattern = pattern
        self._asked = -1
        self._found: re.Match[str] | None = None

    def next(self, start: int) -> re.Match[str] | None:
        if start < self._asked:
            raise ValueError("a scan only moves forwards")
        if self._asked >= 0 and (self._found is None or self._found.start() >= start):
            self._asked = start
            return self._found
        self._asked, self._found = start, self._pattern.search(self._line, start)
        return self._found


@dataclass(frozen=True)
class Fence:
    """An open code fence (```` ``` ```` or `~~~`), or a MyST directive written as one (```` ```{tab} Windows ````)."""

    mark: str  # its character, as many times as it was written: a closing fence has at least as many
    directive: str | None = None  # "tab" for ```` ```{tab} Windows ````
    argument: str = ""  # "Windows"

    @property
    def literal(self) -> bool:
        """Whether its lines are code, kept as written: a plain fence's, or an unknown directive's."""
        return self.directive not in MARKDOWN_DIRECTIVES


_DIRECTIVE_NAME = re.compile(r"[a-z][\w-]{0,40}")
# MyST directives that say what their version did, as Sphinx prints their argument
VERSION_NOTES = {"versionadded": "New in version {}", "versionchanged": "Changed in version {}",
                 "deprecated": "Deprecated since version {}", "versionremoved": "Removed in version {}"}
# MyST directives whose argument labels their body ("```{tab} Windows": the Windows path)
LABELLED_DIRECTIVES = frozenset({"tab", "tab-item", "admonition", "dropdown"})
# MyST directives whose body is Markdown (the others' bodies are kept line by line, as code is)
MARKDOWN_DIRECTIVES = frozenset(VERSION_NOTES) | LABELLED_DIRECTIVES | frozenset(
    {"note", "warning", "caution", "danger", "attention", "tip", "important", "hint", "seealso", "error", "tab-set"})


def is_fence(line: str) -> bool:
    return _FENCE.match(line) is not None


def opening_fence(line: str) -> Fence | None:
    """The fence `line` opens, with its MyST directive and argument if it names one; None if it is no fence."""
    mark, info = _fence_parts(line)
    if not mark or (mark[0] == "`" and "`" in info):  # a backtick fence's info string holds no backtick
        return None
    close = info.find("}")
    if info.startswith("{") and close > 0 and _DIRECTIVE_NAME.fullmatch(info[1:close].lower()):
        return Fence(mark, info[1:close].lower(), info[close + 1 :].strip())
    return Fence(mark)


def closes(line: str, fence: Fence) -> bool:
    """Whether `line` closes `fence`: the same character, at least as many times, and nothing after it."""
    mark, info = _fence_parts(line)
    return bool(mark) and not info and mark[0] == fence.mark[0] and len(mark) >= len(fence.mark)


def _fence_parts(line: str) -> tuple[str, str]:
    """A fence line's run of three or more backticks or tildes (after at most three spaces) and the rest of the line,
    stripped; ("", "") when the line is no fence."""
    body = line.lstrip(" ")
    if len(line) - len(body) > 3 or body[:1] not in ("`", "~"):
        return "", ""
    rest = body.lstrip(body[0])
    mark = body[: len(body) - len(rest)]
    return (mark, rest.strip()) if len(mark) >= 3 else ("", "")


def heading(line: str) -> str | None:
    """The text of an ATX heading (`## Title ##`), closing hashes and spaces removed, or None."""
    body = line.lstrip()
    if len(line) - len(body) > 3:
        return None
    rest = body.lstrip("#")
    if not 1 <= len(body) - len(rest) <= 6 or not rest[:1].isspace():
        return None
    return rest.strip().rstrip("#").rstrip()


def heading_level(line: str) -> int:
    """An ATX heading's level (the number of `#`), 0 for any other line."""
    if heading(line) is None:
        return 0
    body = line.lstrip()
    return len(body) - len(body.lstrip("#"))


def is_thematic_break(line: str) -> bool:
    """`---`, `* * *`, `___`: three or more of one mark and nothing else but spaces."""
    body = line.lstrip()
    if len(line) - len(body) > 3 or body[:1] not in ("-", "*", "_"):
        return False
    marks = "".join(body.split())
    return len(marks) >= 3 and marks.count(marks[0]) == len(marks)


def is_table_rule(line: str) -> bool:
    """A table's header rule, `| --- | :---: |`: cells of three or more dashes, each with optional colons."""
    body = line.strip()
    body = body.removeprefix("|")
    body = body.removesuffix("|")
    for cell in body.split("|"):
        dashes = cell.strip().removeprefix(":").removesuffix(":")
        if len(dashes) < 3 or dashes.strip("-"):
            return False
    return True


def is_reference_definition(line: str) -> bool:
    """`[label]: https://...`: a link target, not text."""
    body = line.lstrip()
    if len(line) - len(body) > 3 or not body.startswith("["):
        return False
    close = body.find("]", 1)
    if close <= 1 or body[close + 1 : close + 2] != ":":
        return False
    target = body[close + 2 :]
    return target[:1].isspace() and bool(target.strip())


def without_quote(line: str) -> str:
    """The line without its block-quote marker (`> `)."""
    match = _QUOTE.match(line)
    return line[match.end() :] if match else line


def list_item_text(line: str) -> str | None:
    """The text of a list item (`- x`, `* x`, `+ x`, `1. x`, `2) x`) without its marker, or None."""
    body = line.lstrip()
    if body[:1] in ("-", "*", "+"):
        marker = 1
    elif match := _ORDINAL.match(body):
        marker = match.end()
    else:
        return None
    rest = body[marker:]
    return rest.lstrip() if rest[:1].isspace() else None


def strip_inline(line: str) -> str:
    """`line` without inline Markdown: images and links become their text, autolinks their URL, and code
    spans, strong, emphasis and strike-through their content."""
    if _ANY_INLINE.search(line) is None:
        return line
    line = _held_escapes(line)
    line = _links(line, _OPEN_IMAGE, nonempty=False)
    line = _links(line, _OPEN_BRACKET, nonempty=True)
    line = _reference_links(line)
    line = _autolinks(line)
    line = _code_spans(line)
    line = unwrap(line, _OPEN_STRONG, _CLOSE_STRONG)
    line = unwrap(line, _OPEN_STAR, _CLOSE_STAR)
    line = unwrap(line, _OPEN_UNDERSCORE, _CLOSE_UNDERSCORE)
    return unwrap(line, _OPEN_STRIKE, _CLOSE_STRIKE).translate(_ESCAPES_BACK)


def _held_escapes(line: str) -> str:
    """`line` with each backslash-escaped punctuation mark (`CHANGELOG\\_V012.md`, `\\*\\*params`) as a stand-in that
    no markup pass reads (`_ESCAPES_BACK` gives the mark back), code spans as written. One pass: a run of backticks
    is closed by the next run of the same length, and a length found unclosed once is not looked for again."""
    if "\\" not in line:
        return line
    out: list[str] = []
    unclosed: set[int] = set()
    index, end = 0, len(line)
    while index < end:
        char = line[index]
        if char == "`":
            after = index
            while after < end and line[after] == "`":
                after += 1
            run = after - index
            close = -1 if run in unclosed else line.find("`" * run, after)
            if close < 0:
                unclosed.add(run)
                out.append(line[index:after])
                index = after
            else:
                out.append(line[index : close + run])
                index = close + run
        elif char == "\\" and index + 1 < end and line[index + 1] in _PUNCTUATION:
            out.append(chr(_ESCAPED_BASE + ord(line[index + 1])))
            index += 2
        else:
            found = _TICK_OR_BACKSLASH.search(line, index + 1)
            stop = end if found is None else found.start()
            out.append(line[index:stop])  # the plain text up to the next backtick or backslash, at once
            index = stop
    return "".join(out)


_ESCAPES_BACK = {_ESCAPED_BASE + code: chr(code) for code in range(0x21, 0x7F)}


# Each pass below replaces, leftmost first and without overlaps (as re.sub does), one kind of construct by
# the part of it that is text; when a construct cannot close at one opener, the next opener is tried.


def _links(line: str, opener: re.Pattern[str], *, nonempty: bool) -> str:
    """`[text](url)` (or `![alt](url)`) -> text: the text runs to the first `]`, the URL to the first `)`."""
    opens, text_ends, url_ends = Scan(line, opener), Scan(line, _CLOSE_BRACKET), Scan(line, _CLOSE_PAREN)
    out: list[str] = []
    kept = pos = 0
    while (start := opens.next(pos)) is not None:
        text = start.end()
        end = text_ends.next(text)
        if end is None:
            break
        close = end.start()
        if (close > text or not nonempty) and line.startswith("(", close + 1):
            url_end = url_ends.next(close + 2)
            if url_end is not None:
                out += (line[kept : start.start()], line[text:close])
                kept = pos = url_end.end()
                continue
        pos = start.start() + 1
    out.append(line[kept:])
    return "".join(out)


def _reference_links(line: str) -> str:
    """`[text][ref]` -> text."""
    opens, text_ends, ref_ends = Scan(line, _OPEN_BRACKET), Scan(line, _CLOSE_BRACKET), Scan(line, _CLOSE_BRACKET)
    out: list[str] = []
    kept = pos = 0
    while (start := opens.next(pos)) is not None:
        text = start.end()
        end = text_ends.next(text)
        if end is None:
            break
        close = end.start()
        if close > text and line.startswith("[", close + 1):
            ref_end = ref_ends.next(close + 2)
            if ref_end is not None:
                out += (line[kept : start.start()], line[text:close])
                kept = pos = ref_end.end()
                continue
        pos = start.start() + 1
    out.append(line[kept:])
    return "".join(out)


def _autolinks(line: str) -> str:
    """`<https://example.com>` -> the URL (which has no space and no `>`)."""
    opens, ends = Scan(line, _OPEN_AUTOLINK), Scan(line, _END_AUTOLINK)
    out: list[str] = []
    kept = pos = 0
    while (start := opens.next(pos)) is not None:
        end = ends.next(start.end())
        if end is None:
            break
        if end.start() > start.end() and end.group() == ">":
            out += (line[kept : start.start()], line[start.start() + 1 : end.start()])
            kept = pos = end.end()
            continue
        pos = start.start() + 1
    out.append(line[kept:])
    return "".join(out)


def _code_spans(line: str) -> str:
    """`` `code` `` -> code."""
    opens, closes = Scan(line, _TICK), Scan(line, _TICK)
    out: list[str] = []
    kept = pos = 0
    while (start := opens.next(pos)) is not None:
        end = closes.next(start.end())
        if end is None:
            break
        if end.start() > start.end():
            out += (line[kept : start.start()], line[start.end() : end.start()])
            kept = pos = end.end()
            continue
        pos = start.start() + 1
    out.append(line[kept:])
    return "".join(out)


def unwrap(line: str, opener: re.Pattern[str], closers: dict[str, re.Pattern[str]]) -> str:
    """`**text**`-like spans -> text: the nearest closer of the opener's kind, at least one character on."""
    opens = Scan(line, opener)
    close_scans = {mark: Scan(line, pattern) for mark, pattern in closers.items()}
    out: list[str] = []
    kept = pos = 0
    while (start := opens.next(pos)) is not None:
        mark = start.group()
        end = close_scans[mark].next(start.end() + 1)
        if end is not None:
            out += (line[kept : start.start()], line[start.end() : end.start()])
            kept = pos = end.end()
            continue
        pos = start.start() + 1
    out.append(line[kept:])
    return "".join(out)


# --- Markup that is not text: HTML comments and tags, MyST roles and targets, front matter ---------------------

_COMMENT_OPEN = "<!--"
_COMMENT_CLOSE = "-->"
# MyST roles ({mod}`ensurepip`, {pypi}`keyring`): the role's name goes, the code span stays
_ROLE = re.compile(r"\{[A-Za-z][\w:.+-]{0,40}\}(?=`)")
# HTML elements that carry no text of their own in documentation (`<a id="ERR_X"></a>`, `<br/>`, `<sup>`); a
# placeholder such as `--flag=<number>` is not one of them. The attributes are bounded, so a line is read once.
_TAG = re.compile(
    r"</?(?:a|abbr|b|br|code|del|details|div|em|i|img|ins|kbd|p|s|samp|small|span|strong|sub|summary|sup|u|var"
    r"|table|thead|tbody|tfoot|tr|td|th|caption|colgroup|col)"
    r"(?:\s[^<>]{0,400})?/?>",
    re.IGNORECASE,
)
_TARGET = re.compile(r"\([^()\s]{1,100}\)=")  # a MyST target line: `(pip-install)=`
FRONT_MATTER_MAX_LINES = 200


def without_comments(line: str, in_comment: bool) -> tuple[str, bool]:
    """`line` without the HTML comments on it (`<!-- YAML added: v11.6.0 -->`), and whether a comment is still
    open at its end; each character is looked at once."""
    kept: list[str] = []
    position = 0
    while position <= len(line):
        if in_comment:
            end = line.find(_COMMENT_CLOSE, position)
            if end < 0:
                break
            position, in_comment = end + len(_COMMENT_CLOSE), False
        else:
            start = line.find(_COMMENT_OPEN, position)
            if start < 0:
                kept.append(line[position:])
                break
            kept.append(line[position:start])
            position, in_comment = start + len(_COMMENT_OPEN), True
    return "".join(kept), in_comment


def is_target(line: str) -> bool:
    """A MyST cross-reference target, `(name)=`, which labels the next heading and is not text."""
    return _TARGET.fullmatch(line.strip()) is not None


def strip_markup(line: str) -> str:
    """`line` without MyST role names and HTML tags; code literals and placeholders stay."""
    if "{" in line:
        line = _ROLE.sub("", line)
    if "<" in line:
        line = _TAG.sub("", line)
    return line


def front_matter_lines(lines: list[str]) -> int:
    """How many leading lines are YAML front matter (`---` … `---` at the top of the file), or 0."""
    if not lines or lines[0].strip() != "---":
        return 0
    for index in range(1, min(len(lines), FRONT_MATTER_MAX_LINES)):
        if lines[index].strip() in ("---", "..."):
            return index + 1
    return 0
