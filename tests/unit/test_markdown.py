"""The linear Markdown reader gives what the regular expressions it replaced gave.

The old patterns are kept here as the reference (they are correct, only slow: quadratic or cubic on hostile
lines). Hypothesis draws short lines from an alphabet made of Markdown's syntax characters, spaces, letters
and a few Unicode oddities, where every construct, near-miss and overlap is likely, and each function must
agree with its pattern on every line drawn.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from masis.ingest import markdown

OLD_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
OLD_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
OLD_RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
OLD_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")
OLD_QUOTE = re.compile(r"^\s{0,3}>\s?")
OLD_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
OLD_REF_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s+\S+")
OLD_INLINE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"!\[([^\]]*)\]\([^)]*\)"), r"\1"),
    (re.compile(r"\[([^\]]+)\]\([^)]*\)"), r"\1"),
    (re.compile(r"\[([^\]]+)\]\[[^\]]*\]"), r"\1"),
    (re.compile(r"<(https?://[^>\s]+)>"), r"\1"),
    (re.compile(r"`([^`]+)`"), r"\1"),
    (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), r"\2"),
    (re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])"), r"\1"),
    (re.compile(r"(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])"), r"\1"),
    (re.compile(r"~~(?=\S)(.+?)(?<=\S)~~"), r"\1"),
)


def old_strip_inline(line: str) -> str:
    for pattern, replacement in OLD_INLINE:
        line = pattern.sub(replacement, line)
    return line


def old_heading(line: str) -> str | None:
    match = OLD_HEADING.match(line)
    return match.group(2) if match else None


def old_list_item_text(line: str) -> str | None:
    return OLD_LIST_ITEM.sub("", line, count=1) if OLD_LIST_ITEM.match(line) else None


SYNTAX = "*_~`[]()!<>#|-:+.1 \t"
ODD = "\u00a0\u2028\u3000é٣x"  # no-break space, line separator, ideographic space, a letter, an Arabic digit
PIECES = [*SYNTAX, *ODD, "http://", "<https://", "**", "__", "~~", "![", "[](", "](", "]["]
lines = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


@settings(max_examples=3000, deadline=None)
@given(lines)
@example("[](x) ![](y) [a](b) <http://> <http://a> <http://a b> `` ` ``")
def test_inline_stripping_matches_the_old_patterns(line: str) -> None:
    assert markdown.strip_inline(line) == old_strip_inline(line)


@settings(max_examples=2000, deadline=None)
@given(lines)
def test_block_syntax_matches_the_old_patterns(line: str) -> None:
    assert markdown.heading(line) == old_heading(line)
    assert markdown.is_fence(line) == bool(OLD_FENCE.match(line))
    assert markdown.is_thematic_break(line) == bool(OLD_RULE.match(line))
    assert markdown.is_table_rule(line) == bool(OLD_TABLE_RULE.match(line))
    assert markdown.is_reference_definition(line) == bool(OLD_REF_DEFINITION.match(line))
    assert markdown.without_quote(line) == OLD_QUOTE.sub("", line)
    assert markdown.list_item_text(line) == old_list_item_text(line)


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("snake_case_name and __init__ stay", "snake_case_name and init stay"),
        ("2 * 3 * 4 is 24, and 2*3*4 too", "2 * 3 * 4 is 24, and 2*3*4 too"),
        ("call `a*b*c` or `*args`", "call a*b*c or *args"),
        ("**bold** *em* _em_ ~~gone~~", "bold em em gone"),
        ("![logo](x.png) [site](https://x.io) [ref][1] <https://x.io/a>", "logo site ref https://x.io/a"),
        ("**x " * 4, "**x " * 4),
    ],
)
def test_ordinary_inline_syntax(line: str, text: str) -> None:
    assert markdown.strip_inline(line) == text


@pytest.mark.parametrize(
    ("line", "title"),
    [("# Budget", "Budget"), ("## Budget by department ##", "Budget by department"), ("   ### x #  ", "x"),
     ("#", None), ("####### seven", None), ("    # indented code", None), ("#hashtag", None)],
)
def test_headings(line: str, title: str | None) -> None:
    assert markdown.heading(line) == title


def test_a_scan_refuses_to_move_backwards() -> None:
    scan = markdown.Scan("a-b-c", re.compile("-"))
    assert scan.next(0) is not None
    with pytest.raises(ValueError, match="forwards"):
        scan.next(-1)


def test_markup_that_is_not_text_goes_and_code_stays() -> None:
    # nodejs-cli.md, pip's MyST docs: YAML history in comments, anchors, roles, targets
    assert markdown.without_comments("A <!-- YAML added: v11.6.0 --> B", False) == ("A  B", False)
    assert markdown.without_comments("text <!-- YAML", False) == ("text ", True)
    assert markdown.without_comments("changes: v20.0.0 -->after", True) == ("after", False)
    assert markdown.strip_markup('<a id="ERR_SYNTHETIC"></a>An attempt') == "An attempt"
    assert markdown.strip_markup("install {pypi}`keyring` first") == "install `keyring` first"
    assert markdown.strip_markup("--max-http-header-size=<size> sets it") == "--max-http-header-size=<size> sets it"
    assert markdown.is_target("(pip-install)=") and not markdown.is_target("(see below)")
    assert markdown.front_matter_lines(["---", "title: CLI", "---", "# CLI"]) == 3
    assert markdown.front_matter_lines(["# CLI", "---"]) == 0


@pytest.mark.parametrize(("line", "text"), [
    # Node.js's CHANGELOG and dns pages, man-db's NEWS, an SDK's API reference: CommonMark backslash escapes
    ("doc/changelogs/CHANGELOG\\_V012.md#0.12.14", "doc/changelogs/CHANGELOG_V012.md#0.12.14"),
    ("| text records | {string\\[]} |", "| text records | {string[]} |"),
    ("client.responses.create(\\*\\*params) -> Response", "client.responses.create(**params) -> Response"),
    ("**bold** and \\*not emphasis\\*", "bold and *not emphasis*"),
    ("`a\\_b` stays in code, c\\_d does not", "a\\_b stays in code, c_d does not"),
    ("C:\\Users\\me is no escape", "C:\\Users\\me is no escape"),
])
def test_backslash_escapes_give_their_mark(line: str, text: str) -> None:
    assert markdown.strip_inline(line) == text
