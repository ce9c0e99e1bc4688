"""Evidence read sentence by sentence: each sentence with its passage, terms and words, and term weights."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from masis.judge import matching
from masis.judge.citations import neutralise_markers
from masis.judge.sentences import split_sentences
from masis.judge.terms import terms
from masis.state import EvidenceChunk


@dataclass(frozen=True)
class Sentence:
    text: str
    chunk: EvidenceChunk
    terms: frozenset[int]
    words: frozenset[str]


def evidence_sentences(evidence: Sequence[EvidenceChunk]) -> list[Sentence]:
    """Every distinct sentence of the evidence (overlapping chunks repeat sentences), citation-like brackets
    neutralised."""
    seen: set[str] = set()
    found: list[Sentence] = []
    for chunk in evidence:
        for sentence in split_sentences(neutralise_markers(chunk["text"])):
            key = sentence.lower()
            if key in seen:
                continue
            seen.add(key)
            found.append(Sentence(sentence, chunk, terms(sentence), matching.words(sentence)))
    return found


def evidence_weights(question_terms: frozenset[int], sentences: Sequence[Sentence]) -> dict[int, float]:
    """Rarer terms (within the evidence) matter more: "Q3" outweighs "revenue" in a revenue report."""
    total = max(1, len(sentences))
    weights = {}
    for term in question_terms:
        df = sum(1 for s in sentences if term in s.terms)
        weights[term] = 1.0 + (total - df) / total
    return weights
