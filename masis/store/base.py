"""The vector store contract every backend honours, and the one place tenant scoping is built."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from masis.errors import InvalidWorkspaceError

TENANT_KEY = "workspace_id"
# What a workspace id may be, for every face alike (the CLI, the API's paths, Slack's "<team_id>:<channel_id>").
WORKSPACE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$")
WORKSPACE_RULE = "A workspace id is 1-128 letters, digits and ._:@- (starting with a letter or digit)"
DOCUMENT_KEY = "doc_name"
SPARSE_VECTOR = "bm25"
DENSE_VECTOR = "dense"

# A chunk's BM25 vector as `masis.judge.terms.document_vector` builds it: (token ids, weights).
SparseVec = tuple[list[int], list[float]]


@dataclass(frozen=True, slots=True)
class ChunkRecord:
    """One chunk as stored: `chunk_id` is readable and stable within a workspace."""

    chunk_id: str
    doc_name: str
    text: str
    ordinal: int
    page: int | None = None
    section: str | None = None


@dataclass(frozen=True, slots=True)
class Hit:
    """A retrieved chunk with the engine's raw score (higher is better): BM25 with per-tenant IDF, or the
    RRF-fused rank score of BM25 and dense retrieval, with the dense cosine when the chunk has a vector."""

    chunk_id: str
    doc_name: str
    text: str
    score: float
    page: int | None = None
    section: str | None = None
    dense_score: float | None = None


def tenant_scope(workspace_id: str, doc_name: str | None = None) -> dict[str, str]:
    """The payload conditions every query, prefetch, count and delete must carry.

    Backends turn this mapping into their own filter type; nothing else builds tenant filters, and an
    empty tenant is refused here so that an unscoped query cannot happen by accident.
    """
    if not isinstance(workspace_id, str) or not workspace_id.strip():
        raise InvalidWorkspaceError("A workspace id is required for every store operation.")
    if not WORKSPACE_ID.fullmatch(workspace_id):
        raise InvalidWorkspaceError(f"{WORKSPACE_RULE}; {workspace_id[:130]!r} is not one.")
    scope = {TENANT_KEY: workspace_id}
    if doc_name is not None:
        scope[DOCUMENT_KEY] = doc_name
    return scope


class VectorStore(Protocol):
    """What the engine needs from a store. Every method is scoped to one workspace."""

    def upsert(
        self, workspace_id: str, chunks: Sequence[ChunkRecord], vectors: Sequence[SparseVec] | None = None
    ) -> None:
        """Write `chunks`; `vectors`, when given, are their BM25 vectors, already built from `index_text`."""
        ...

    def delete_document(self, workspace_id: str, doc_name: str) -> None: ...

    def delete_documents(self, workspace_id: str, doc_names: Sequence[str]) -> None:
        """`delete_document` of several documents in one operation."""
        ...

    def search(self, workspace_id: str, query: str, limit: int, doc_name: str | None = None) -> list[Hit]: ...

    def count(self, workspace_id: str, doc_name: str | None = None) -> int: ...

    def owners(self, workspace_id: str, chunk_ids: Sequence[str]) -> dict[str, str]:
        """The document each of these chunk ids is stored under, for the ids that are stored."""
        ...

    def renumber_document(self, workspace_id: str, doc_name: str) -> int:
        """Give the document's stored chunks the ids `masis.chunk_ids.chunk_id` gives them now (vectors
        copied, not recomputed); returns how many chunks changed id."""
        ...

    def close(self) -> None: ...
