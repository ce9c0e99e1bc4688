"""BM25's IDF per tenant, weighed into the query by MASIS rather than counted by the engine on every query.

Qdrant's `IdfParams(corpus=<tenant filter>)` counts the tenant's documents and each query term's document
frequency at query time: it walks every point of the tenant and the terms' whole posting lists, so a query
costs time in proportion to the workspace (8.6 ms at a million chunks). The registry already keeps the same
counts per workspace (`term_df`, and the chunks of its ready documents) for the relevance score, so a store
given them (`TermStatistics`) keeps its BM25 vectors without the engine's IDF modifier and multiplies each
query term's weight by the tenant's IDF instead: the same scores, in constant time per query term.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Protocol

from masis.store.base import SparseVec


class TermStatistics(Protocol):
    """A workspace's BM25 statistics: the registry (`masis.records.registry.Registry`) is one."""

    def chunk_total(self, workspace_id: str) -> int:
        """The chunks of the workspace's ready documents (BM25's N)."""
        ...

    def document_frequencies(self, workspace_id: str, terms: Iterable[int]) -> dict[int, int]:
        """How many of those chunks hold each term (absent terms are 0)."""
        ...


def bm25_idf(documents: int, frequency: int) -> float:
    """Qdrant's IDF (`fancy_idf` in its segment crate): ln((N - df + 0.5) / (df + 0.5) + 1)."""
    return math.log((documents - frequency + 0.5) / (frequency + 0.5) + 1.0)


def weigh_query(statistics: TermStatistics, workspace_id: str, vector: SparseVec) -> SparseVec:
    """A query's BM25 vector with each term's weight multiplied by its IDF in the workspace, as Qdrant's IDF
    modifier does with a tenant corpus."""
    indices, weights = vector
    documents = statistics.chunk_total(workspace_id)
    frequencies = statistics.document_frequencies(workspace_id, indices)
    return list(indices), [w * bm25_idf(documents, frequencies[t]) for t, w in zip(indices, weights, strict=True)]
