"""Sentence-aware chunking: whole sentences packed into chunks, with a little overlap inside a section.

A chunk never spans two sections (so never two pages), carries its section's page and heading, and has a
readable id, `<document key>#<1-based ordinal>` (`masis.chunk_ids`), unique to its document and the same
every time the same document is chunked with the same settings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from masis.chunk_ids import chunk_id
from masis.ingest.loaders import Section
from masis.judge.sentences import ends_with_mark, sentence_blocks
from masis.store.base import ChunkRecord

_BLOCK_SPLIT = re.compile(r"\n\s*\n")


@dataclass(frozen=True, slots=True)
class _Unit:
    """A sentence (or a piece of an over-long one), the block (paragraph, row) it came from, and the line's block inside
    it (a list's item, an entry) that `sentence_blocks` read it in."""

    text: str
    block: int
    line: int = 0


def chunk_sections(
    doc_name: str, sections: Sequence[Section], chunk_chars: int, overlap_chars: int
) -> list[ChunkRecord]:
    """Split `sections` into chunks of at most `chunk_chars` characters.

    Each chunk after the first in a section starts with the previous chunk's trailing sentences, at
    most `overlap_chars` of them. A sentence is split only when it alone exceeds `chunk_chars`.
    """
    if chunk_chars <= 0:
        raise ValueError(f"chunk_chars must be positive, got {chunk_chars}")
    if not 0 <= overlap_chars < chunk_chars:
        raise ValueError(f"overlap_chars must be in [0, chunk_chars), got {overlap_chars}")
    records: list[ChunkRecord] = []
    title = document_title(sections)
    for section in sections:
        for units in _pack(_units(section.text, chunk_chars), chunk_chars, overlap_chars):
            ordinal = len(records)
            records.append(
                ChunkRecord(
                    chunk_id=chunk_id(doc_name, ordinal),
                    doc_name=doc_name,
                    text=_render(units),
                    ordinal=ordinal,
                    page=section.page,
                    section=section.heading,
                    title=title if title and title != section.heading else None,
                )
            )
    return records


def document_title(sections: Sequence[Section]) -> str | None:
    """The document's title: the top-level heading that starts it (a Markdown `#`, an HTML h1, a Word Title or
    Heading 1, a text file's title line). Every chunk carries it, so a passage under "Customers" is read with the
    "Q3 2026" of "Kestrel Labs Quarterly Report: Q3 2026"; a document that starts with text or a lower heading
    ("## 2.4.0") has none."""
    first = sections[0] if sections else None
    return first.heading if first is not None and first.titles_document and first.heading else None


def _units(text: str, limit: int) -> list[_Unit]:
    units = []
    for block, paragraph in enumerate(_BLOCK_SPLIT.split(text)):
        for line, sentences in enumerate(sentence_blocks(paragraph)):
            for sentence in sentences:
                if len(sentence) <= limit:
                    units.append(_Unit(sentence, block, line))
                else:
                    units.extend(_Unit(piece, block, line) for piece in _hard_split(sentence, limit))
    return units


def _hard_split(sentence: str, limit: int) -> list[str]:
    """Pieces of an over-long sentence, cut between words (inside a word only if it alone is too long)."""
    pieces: list[str] = []
    current = ""
    for word in sentence.split():
        if len(word) > limit:
            if current:
                pieces.append(current)
                current = ""
            # whole pieces by position, not by cutting the rest off each time (quadratic in the word's length:
            # 17 s for a 20 MiB word); the last part, 1 to `limit` characters, goes on as a word
            cut = (len(word) - 1) // limit * limit
            pieces.extend(word[start : start + limit] for start in range(0, cut, limit))
            word = word[cut:]
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


def _pack(units: list[_Unit], chunk_chars: int, overlap_chars: int) -> list[list[_Unit]]:
    # length(i, j): characters of units[i:j] joined with one separator between neighbours, as `_render` does
    prefix = [0]
    for unit in units:
        prefix.append(prefix[-1] + len(unit.text))

    def length(i: int, j: int) -> int:
        return prefix[j] - prefix[i] + (j - i - 1 if j > i else 0)

    # where each unit's block ends: a short block (a list entry, a definition: a third of a chunk at most) that would
    # not fit whole starts the next chunk once this one is half full, so that "Default: 256." is not cut off from
    # the entry it belongs to; a long paragraph is still packed sentence by sentence
    block_end = [0] * len(units)
    for i in range(len(units) - 1, -1, -1):
        same = i + 1 < len(units) and units[i + 1].block == units[i].block
        block_end[i] = block_end[i + 1] if same else i + 1

    chunks: list[list[_Unit]] = []
    start = 0
    while start < len(units):
        end = start + 1  # every unit fits alone: _units hard-splits longer ones
        while end < len(units) and length(start, end + 1) <= chunk_chars:
            opens_block = units[end].block != units[end - 1].block
            short_block = length(end, block_end[end]) <= chunk_chars // 3
            whole_fits = length(start, block_end[end]) <= chunk_chars
            if opens_block and short_block and not whole_fits and length(start, end) >= chunk_chars // 2:
                break
            end += 1
        chunks.append(units[start:end])
        if end == len(units):
            break
        # Start the next chunk with this one's trailing sentences, as many as fit in the overlap budget
        # while leaving room for at least one new sentence (else the next chunk would repeat this one).
        start_next = end
        while (
            start_next - 1 > start
            and length(start_next - 1, end) <= overlap_chars
            and length(start_next - 1, end + 1) <= chunk_chars
        ):
            start_next -= 1
        heads = start_next - 1 > start and _heads_next(units, start_next - 1)
        if heads and length(start_next - 1, end + 1) <= chunk_chars:
            start_next -= 1  # "/var/spool/anacron" is not cut off from "This directory is used by Anacron …"
        start = start_next
    return chunks


HEAD_LINE_MAX = 80


def _heads_next(units: list[_Unit], index: int) -> bool:
    """Whether the unit is a line that heads what follows it: the first of its paragraph, short and without a closing
    mark (a heading, or a definition's term on the line above its text)."""
    unit = units[index]
    first = index == 0 or units[index - 1].block != unit.block
    return first and index + 1 < len(units) and len(unit.text) <= HEAD_LINE_MAX and not _is_sentence(unit.text)


def _render(units: Sequence[_Unit]) -> str:
    """Sentences of one block joined by a space; blocks, a block's lines as `sentence_blocks` read them (a plain-text
    list's items: "* Added an interface …" / "* Added --tips option …"), and unpunctuated units, on lines of their own.

    The own lines keep headings, labels, list items and table rows apart when the chunk's text is split into
    sentences again later, as they were read at ingest (`split_sentences` treats a short unpunctuated line as standing
    alone; a list's items run together on one line were one sentence).
    """
    parts = [units[0].text]
    sentence = [_is_sentence(unit.text) for unit in units]
    for i, (previous, unit) in enumerate(pairwise(units), start=1):
        same_line = (unit.block, unit.line) == (previous.block, previous.line) and sentence[i - 1] and sentence[i]
        parts.append(" " if same_line else "\n")
        parts.append(unit.text)
    return "".join(parts)


def _is_sentence(text: str) -> bool:
    return ends_with_mark(text)
