"""Evidence read sentence by sentence: each sentence with its passage, terms and words, and term weights."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from masis.judge import matching
from masis.judge.citations import neutralise_markers
from masis.judge.sentences import (
    is_entry_row,
    is_field,
    is_keyed_entry,
    is_option_term,
    is_table_row,
    sentence_blocks,
    table_cells,
)
from masis.judge.terms import terms
from masis.state import EvidenceChunk

# A sentence this short inside a paragraph or a list item ("Default: 256.", "This is the default/status quo.") often
# names no subject of its own: it is read with the item's first sentence, which does ("maxFreeSockets {number}
# Maximum number of sockets …").
ENTRY_SENTENCE_MAX = 40


@dataclass(frozen=True)
class Sentence:
    text: str
    chunk: EvidenceChunk
    terms: frozenset[int]
    words: frozenset[str]
    lead: str | None = None  # the first sentence of its entry, for a short sentence that cannot stand alone


_MEASURED_FIGURE = re.compile(r"\d[.,]\d|\d\s*%|[$€£¥]\s*\d")


def evidence_sentences(evidence: Sequence[EvidenceChunk]) -> list[Sentence]:
    """Every distinct sentence of the evidence (overlapping chunks repeat sentences), citation-like brackets
    neutralised; the same short sentence under two entries ("Default: Infinity.") is two sentences."""
    seen: set[tuple[str | None, str]] = set()
    found: list[Sentence] = []
    for chunk in evidence:
        header: str | None = None  # the first row of the table being read: its rows are read under it
        for block in sentence_blocks(neutralise_markers(chunk["text"])):
            cells = table_cells(block[0]) if len(block) == 1 else 0
            table_lead = header if cells and header and table_cells(header) == cells else None
            # a first row that holds a measured figure or is an option's entry is a record, no header ("ESM
            # (Production) | 8.59 KB", "--devdir=$path | SDK download directory" do not name the rows under them); a
            # year as a column's name is a header's ("Metric | 2024 | 2025")
            record = _MEASURED_FIGURE.search(block[0]) or is_entry_row(block[0])
            header = (table_lead or (None if record else block[0])) if cells else None
            # an option's description is read with the option, however long ("--drop:..." / "Remove certain
            # constructs (console | debugger)"), and a keyed entry's fields with its name ("silent If true …" /
            # "Default: false Required: No. …")
            option, keyed = is_option_term(block[0]), is_keyed_entry(block[0])
            for index, sentence in enumerate(block):
                entry = len(sentence) <= ENTRY_SENTENCE_MAX or option or (keyed and is_field(sentence))
                lead = block[0] if index and entry else table_lead
                key = (lead and lead.lower(), sentence.lower())
                if key in seen:
                    continue
                seen.add(key)
                found.append(Sentence(sentence, chunk, terms(sentence), matching.words(sentence), lead))
    return found


def in_table(sentence: Sentence) -> bool:
    """Whether a sentence is a table's row: a record of its own, which its table's other rows do not continue."""
    lead = sentence.lead
    return is_table_row(sentence.text) or (lead is not None and table_cells(lead) == table_cells(sentence.text) > 0)


def evidence_weights(question_terms: frozenset[int], sentences: Sequence[Sentence]) -> dict[int, float]:
    """Rarer terms (within the evidence) matter more: "Q3" outweighs "revenue" in a revenue report."""
    total = max(1, len(sentences))
    weights = {}
    for term in question_terms:
        df = sum(1 for s in sentences if term in s.terms)
        weights[term] = 1.0 + (total - df) / total
    return weights
