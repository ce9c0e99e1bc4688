"""Hybrid retrieval's data, the same in every backend: the points an upsert writes (BM25 and, on a hybrid
store, dense vectors), a search's query vectors, the hits read back, and the dense vectors `reindex` adds.

Plain data in and out: each backend only wraps it in its own client's types (`qdrant_edge`, or
`qdrant_client.models`) and makes the calls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from masis.judge.terms import query_vector
from masis.store.base import DENSE_VECTOR, DOCUMENT_KEY, SPARSE_VECTOR, VERSION_KEY, ChunkRecord, Hit, SparseVec
from masis.store.dense import cosine, unit
from masis.store.embeddings import Embedder
from masis.store.ids import point_id, version_point_id
from masis.store.payload import UPSERT_BATCH, StoredPoint, chunk_payload, hit_from_payload, sparse_vectors

S = TypeVar("S")
S_P = TypeVar("S_P", bound=StoredPoint)


class ScoredPoint(StoredPoint, Protocol):
    """A point a query returns, with the engine's score."""

    @property
    def score(self) -> float: ...


@dataclass(frozen=True, slots=True)
class NewPoint:
    """A chunk as it is written: its point id, BM25 vector, dense vector (on a hybrid store) and payload."""

    id: str
    sparse: SparseVec
    dense: list[float] | None
    payload: dict[str, Any]

    def vectors(self, sparse: Callable[[SparseVec], S]) -> dict[str, S | list[float]]:
        """The point's named vectors, the BM25 one made by `sparse` in the client's own type."""
        named: dict[str, S | list[float]] = {SPARSE_VECTOR: sparse(self.sparse)}
        if self.dense is not None:
            named[DENSE_VECTOR] = self.dense
        return named


def new_points(
    workspace_id: str,
    chunks: Sequence[ChunkRecord],
    vectors: Sequence[SparseVec] | None,
    embedder: Embedder | None,
    versions: Mapping[str, str] | None = None,
) -> Iterator[list[NewPoint]]:
    """`chunks` as points, `UPSERT_BATCH` at a time; given an `embedder` (a hybrid store), each with its
    dense vector, embedded a batch at a time. `vectors` are the chunks' BM25 vectors when already built.
    With `versions` (document name -> version id), the points of each document's new, unpublished version."""
    sparse = sparse_vectors(chunks, vectors)
    for start in range(0, len(chunks), UPSERT_BATCH):
        batch = chunks[start : start + UPSERT_BATCH]
        dense: Sequence[list[float] | None] = (
            embedder.embed_documents([chunk.text for chunk in batch]) if embedder else [None] * len(batch)
        )
        yield [
            _point(workspace_id, chunk, vector, dense_vector, versions)
            for chunk, vector, dense_vector in zip(batch, sparse[start : start + UPSERT_BATCH], dense, strict=True)
        ]


def _point(
    workspace_id: str,
    chunk: ChunkRecord,
    sparse: SparseVec,
    dense: list[float] | None,
    versions: Mapping[str, str] | None,
) -> NewPoint:
    if versions is None:
        return NewPoint(point_id(workspace_id, chunk.chunk_id), sparse, dense, chunk_payload(workspace_id, chunk))
    version = versions[chunk.doc_name]
    return NewPoint(
        version_point_id(workspace_id, chunk.chunk_id, version),
        sparse,
        dense,
        chunk_payload(workspace_id, chunk, version),
    )


@dataclass(frozen=True, slots=True)
class QueryVectors:
    """What a search looks for: the query's BM25 vector and, on a hybrid store, its unit dense vector."""

    sparse: SparseVec
    dense: list[float] | None


def query_vectors(query: str, limit: int, embedder: Embedder | None) -> QueryVectors | None:
    """The query's vectors (dense ones given an `embedder`), or None when nothing can be found: the query
    has no indexed term, or `limit` leaves no room for a hit."""
    sparse = query_vector(query)
    if not sparse[0] or limit < 1:
        return None
    return QueryVectors(sparse, unit(embedder.embed_query(query)) if embedder else None)


def hits(points: Iterable[ScoredPoint], dense: Sequence[float] | None) -> list[Hit]:
    """The engine's scored points as hits; given the query's dense vector, each with its cosine to the
    chunk's own (the points must then carry their dense vectors)."""
    return [
        hit_from_payload(point.payload, point.score, None if dense is None else cosine(dense, point.vector))
        for point in one_version_each(points)
    ]


# A search fetches this many points beyond its limit, so that points tied at the limit are cut by chunk order, not by
# where the store's background optimizer happened to put them (it merges segments on its own schedule, and with them
# the order of equal scores and their last float bits)
TIE_SLACK = 5
SCORE_DIGITS = 4  # scores equal to this many decimals are a tie


def fetch_limit(limit: int) -> int:
    """How many points a search of `limit` hits asks the store for (`in_stable_order` cuts them back)."""
    return limit + TIE_SLACK


def in_stable_order(found: Iterable[Hit], limit: int) -> list[Hit]:
    """The first `limit` hits by score, ties broken by document name and chunk number: the same hits in the same
    order however the store's segments are laid out, so a question's answer does not depend on what was asked or
    ingested before it."""
    return sorted(found, key=lambda hit: (-round(hit.score, SCORE_DIGITS), hit.doc_name, _ordinal(hit.chunk_id)))[
        :limit
    ]


def _ordinal(chunk_id: str) -> int:
    number = chunk_id.rpartition("#")[2]
    return int(number) if number.isdigit() else 0


def one_version_each(points: Iterable[S_P]) -> list[S_P]:
    """The points less those of any second version of a document: only the version of the document's best
    point stays. During the switch of a replacement both versions are visible for a moment (the new one
    published, the old not yet deleted), and a search must not mix them."""
    chosen: dict[Any, Any] = {}
    kept = []
    for point in points:
        payload = point.payload or {}
        version = payload.get(VERSION_KEY)
        if chosen.setdefault(payload.get(DOCUMENT_KEY), version) == version:
            kept.append(point)
    return kept


def dense_updates(records: Sequence[StoredPoint], embedder: Embedder) -> list[tuple[Any, list[float]]]:
    """What `reindex` writes for these records: (point id, dense vector) for each one without a dense vector,
    embedded from its stored text."""
    missing = [r for r in records if not (r.vector or {}).get(DENSE_VECTOR)]
    if not missing:
        return []
    vectors = embedder.embed_documents([(r.payload or {}).get("text", "") for r in missing])
    return [(r.id, vector) for r, vector in zip(missing, vectors, strict=True)]
