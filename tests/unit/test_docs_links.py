"""Every relative link in README.md and docs/*.md resolves: to a file inside the repository and, for an
`#anchor`, to a heading that GitHub slugs to that anchor.

The Markdown is parsed with markdown-it-py (rich's own Markdown parser), so links in code blocks are not
links and links in tables are.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from itertools import pairwise
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
_PARSER = MarkdownIt("commonmark").enable("table")
_NOT_IN_SLUG = re.compile(r"[^\w\- ]")  # github-slugger keeps letters, marks, numbers, `_`, `-` and spaces


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading's text (before de-duplication)."""
    return _NOT_IN_SLUG.sub("", heading.strip().lower()).replace(" ", "-")


def _inline_children(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield from token.children or ()


def links(page: Path) -> list[str]:
    """Every link and image target of a Markdown page."""
    tokens = _PARSER.parse(page.read_text(encoding="utf-8"))
    found: list[str] = []
    for child in _inline_children(tokens):
        if child.type == "link_open":
            found.append(str(child.attrs["href"]))
        elif child.type == "image":
            found.append(str(child.attrs["src"]))
    return found


@cache
def anchors(page: Path) -> frozenset[str]:
    """The anchors of a page's headings, with GitHub's -1, -2 … suffixes for repeated headings."""
    tokens = _PARSER.parse(page.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    result: set[str] = set()
    for opening, inline in pairwise(tokens):
        if opening.type != "heading_open":
            continue
        text = "".join(c.content for c in inline.children or () if c.type in {"text", "code_inline"})
        slug = github_slug(text)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        result.add(slug if count == 0 else f"{slug}-{count}")
    return frozenset(result)


def broken(page: Path, target: str, root: Path = REPO) -> str | None:
    """Why a link of `page` does not resolve inside `root`, or None when it does (or is not relative)."""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None  # http(s), mailto: not checked here
    path = unquote(parts.path)
    file = (page.parent / path).resolve() if path else page
    if not file.is_relative_to(root):
        return f"{target}: points outside the repository ({file})"
    if not file.exists():
        return f"{target}: no such file {file.relative_to(root)}"
    if parts.fragment:
        if file.suffix != ".md":
            return f"{target}: an anchor into a file that is not Markdown"
        if unquote(parts.fragment) not in anchors(file):
            return f"{target}: {file.relative_to(root)} has no heading with that anchor"
    return None


@pytest.mark.parametrize(
    ("heading", "slug"),
    [
        ("The real-model tier (`make test-real-llm`)", "the-real-model-tier-make-test-real-llm"),
        ("Hybrid retrieval (BM25 + dense)", "hybrid-retrieval-bm25--dense"),
        ("Answers on SQuAD v1.1 dev", "answers-on-squad-v11-dev"),
        ("Growth: `masis gc`", "growth-masis-gc"),
        ("1. Create the Slack app (2 minutes)", "1-create-the-slack-app-2-minutes"),
        ("Relevance by meaning (the local sentence encoder)", "relevance-by-meaning-the-local-sentence-encoder"),
    ],
)
def test_github_slug(heading: str, slug: str) -> None:
    assert github_slug(heading) == slug


def test_a_repeated_heading_gets_a_numbered_anchor(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Results\n\n## Results\n\n## Results\n", encoding="utf-8")
    assert anchors(page) == {"results", "results-1", "results-2"}


def test_the_checker_finds_what_is_broken(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Top\n", encoding="utf-8")
    assert broken(page, "#top", root=tmp_path) is None
    assert broken(page, "#bottom", root=tmp_path) is not None
    assert broken(page, "https://example.com/nowhere", root=tmp_path) is None
    readme = REPO / "README.md"
    assert broken(readme, "../manifest.yml") is not None  # outside the repository
    assert broken(readme, "manifest.yml") is None
    assert broken(readme, "missing.md") is not None


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_resolves(page: Path) -> None:
    problems = [problem for target in links(page) if (problem := broken(page, target))]
    assert not problems, "\n".join(problems)


def test_the_readme_links_every_page_of_docs() -> None:
    linked = {(REPO / unquote(urlsplit(t).path)).resolve() for t in links(REPO / "README.md") if t}
    assert [p.name for p in PAGES[1:] if p not in linked] == []
