"""A document's numbering standing alone ("Chapter 2.", "2.2.") is a heading, never a quote or an answer's figure."""

from __future__ import annotations

import pytest

from masis.judge.sentences import is_heading, split_sentences


@pytest.mark.parametrize("label", ["Chapter 2.", "Chapter 2", "Section 4.1", "2.2.", "Part IV", "APPENDIX 3"])
def test_numbering_alone_is_a_heading(label: str) -> None:
    assert is_heading(label)


@pytest.mark.parametrize("sentence", ["It had uid 37.", "Default: 5.", "Revenue was 4.2 million.", "civil."])
def test_a_sentence_with_a_figure_is_not(sentence: str) -> None:
    assert not is_heading(sentence)


def test_the_chapter_line_of_an_html_manual_splits_into_a_heading() -> None:
    # real case (base-passwd's users-and-groups.html, realdocs rd-077/rd-136): "Chapter 2." was quoted, and its
    # figure counted as the uid asked for
    first, rest = split_sentences("Chapter 2. Users and Groups")
    assert first == "Chapter 2." and is_heading(first) and rest == "Users and Groups"
