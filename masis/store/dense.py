"""The dense half of hybrid retrieval, shared by both backends: query prefetch sizes, RRF, cosine."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from masis.store.base import DENSE_VECTOR

RRF_K = 60  # the usual RRF constant: rank r contributes 1 / (k + r)
PREFETCH_FACTOR = 3  # each leg fetches this many times the final limit before fusion
DEFAULT_DENSE_FLOOR = 0.55  # a dense neighbour below this cosine adds only noise (the retry relevance threshold)
REINDEX_NEEDS_EMBEDDINGS = (
    "Reindexing needs embeddings: set OPENAI_API_KEY (or MASIS_LLM=openai with OPENAI_BASE_URL) and MASIS_EMBED_MODEL."
)


def prefetch_limit(limit: int) -> int:
    return max(limit * PREFETCH_FACTOR, limit)


def unit(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector] if norm else list(vector)


def cosine(unit_query: Sequence[float], stored: Mapping[str, Any] | None) -> float | None:
    """Cosine of a unit query with a hit's stored dense vector (Qdrant keeps cosine vectors normalised)."""
    vector = (stored or {}).get(DENSE_VECTOR)
    if not vector:
        return None
    return round(sum(q * v for q, v in zip(unit_query, unit(vector), strict=False)), 4)
