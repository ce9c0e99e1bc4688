"""Support: whether a cited passage holds what a claim says (its terms and its figures)."""

from __future__ import annotations

from masis.judge.figures import numbers
from masis.judge.terms import question_terms, terms
from masis.state import EvidenceChunk

SUPPORT_THRESHOLD = 0.8  # share of a claim's terms its cited passage must hold


def supports(chunk_text: str, claim: str) -> bool:
    """A claim is supported when its terms and its numbers are found in the chunk it cites."""
    claim_terms = terms(claim)
    if not claim_terms:
        return False
    chunk_terms = terms(chunk_text)
    if len(claim_terms & chunk_terms) / len(claim_terms) < SUPPORT_THRESHOLD:
        return False
    chunk_numbers = set(numbers(chunk_text))
    return all(n in chunk_numbers for n in numbers(claim))


def source_text(chunk: EvidenceChunk) -> str:
    """What a quote from `chunk` may state: its text under its heading path, the document's title and its section
    heading (a quote may be led by them: "412 customers at the end of Q3 2026" under the Q3 report's title)."""
    path = [part.strip() for part in (chunk.get("title"), chunk.get("section")) if part and part.strip()]
    return "\n".join([*path, chunk["text"]])


def answering(question: str, quotes: list[str]) -> list[str]:
    """The quotes that answer: those holding the most of the question's terms (all of them when none holds any).
    A quote beside them that shares a word with the question says nothing about what it asks."""
    asked = question_terms(question)
    shared = [len(asked & terms(quote)) for quote in quotes]
    return [quote for quote, count in zip(quotes, shared, strict=True) if count == max(shared)]
