"""The sentence splitter and the long-sentence cutter give what their quadratic predecessors gave.

The predecessors are kept here as the reference: `split_sentences` re-read a growing sentence at each piece
a middle initial joined ("John M. John M. ..." took 6 s for 64 KB), and `_hard_split` cut a long word by
copying its rest each time (17 s for a 20 MiB word).
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from masis.ingest.chunking import _hard_split
from masis.judge import sentences as splitter
from masis.judge.sentences import split_sentences


def old_split_sentences(value: str) -> list[str]:
    sentences: list[str] = []
    for block in splitter._blocks(value):
        parts = splitter._SENTENCE_END.split(" ".join(block.split()))
        pieces = [parts[i] + parts[i + 1] for i in range(0, len(parts) - 1, 2)]
        pieces.append(parts[-1])
        start = len(sentences)
        for piece in (p.strip() for p in pieces):
            if piece and len(sentences) > start and re.search(r"\b[A-Z][a-z]+ [A-Z]\.$", sentences[-1]):
                sentences[-1] = f"{sentences[-1]} {piece}"
            elif piece:
                sentences.append(piece)
    return sentences


def old_hard_split(sentence: str, limit: int) -> list[str]:
    pieces: list[str] = []
    current = ""
    for word in sentence.split():
        while len(word) > limit:
            if current:
                pieces.append(current)
                current = ""
            pieces.append(word[:limit])
            word = word[limit:]
        if not current:
            current = word
        elif len(current) + 1 + len(word) <= limit:
            current = f"{current} {word}"
        else:
            pieces.append(current)
            current = word
    if current:
        pieces.append(current)
    return pieces


WORDS = ["John", "M.", "Smith", "D.", "e.g.", "the", "Fleet", "A.", "ends.", "Why?", "(x)", "Q3", "2026.", "\n",
         "\n\n", "  ", "Dr.", "Mr.", "x" * 12]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join))
def test_sentences_are_split_as_before(value: str) -> None:
    assert split_sentences(value) == old_split_sentences(value)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.text(alphabet="ab", max_size=30), max_size=10).map(" ".join), st.integers(1, 12))
def test_long_sentences_are_cut_as_before(sentence: str, limit: int) -> None:
    assert _hard_split(sentence, limit) == old_hard_split(sentence, limit)
