"""Text helpers shared by retrieval, the citation engine and the extractive provider.

Terms are the token ids of Qdrant's own BM25 (English stemmer and stop words), so "what retrieval
matched" and "what the critic checks" are measured with one tokenizer.
"""

from __future__ import annotations

import re
from functools import lru_cache

from qdrant_edge import Bm25, Bm25Config

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
_NUMBER = re.compile(r"(?<![\w.])[$€£]?\d[\d,]*(?:\.\d+)?\s*(?:%|percent|million|billion|thousand|[kKmMbB]\b)?")


@lru_cache(maxsize=1)
def _bm25() -> Bm25:
    return Bm25(Bm25Config(language="english"))


def terms(text: str) -> frozenset[int]:
    """The distinct stemmed, stop-word-free term ids of `text`."""
    return frozenset(_bm25().embed_query(text).indices)


def query_vector(text: str) -> tuple[list[int], list[float]]:
    vec = _bm25().embed_query(text)
    return list(vec.indices), list(vec.values)


def document_vector(text: str) -> tuple[list[int], list[float]]:
    vec = _bm25().embed_document(text)
    return list(vec.indices), list(vec.values)


def split_sentences(text: str) -> list[str]:
    """Sentences of `text`, whitespace collapsed; abbreviations like "e.g. the" stay joined."""
    flat = " ".join(text.split())
    if not flat:
        return []
    return [s.strip() for s in _SENTENCE_END.split(flat) if s.strip()]


def numbers(text: str) -> list[str]:
    """Numeric expressions ("$4.2 million", "38%", "2026") normalised for comparison."""
    found = []
    for match in _NUMBER.finditer(text):
        token = match.group(0).strip().lower().replace(",", "").replace(" ", "")
        token = token.replace("percent", "%")
        if token:
            found.append(token)
    return found
