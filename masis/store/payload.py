"""The stored payload of a chunk and what is read back from it (hits, owners, new ids), shared by every
backend."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from pathlib import PurePath
from typing import Any, Protocol, TypeVar

from masis.chunk_ids import chunk_id
from masis.judge.terms import document_vector
from masis.store.base import (
    DOCUMENT_KEY,
    TENANT_KEY,
    VERSION_KEY,
    ChunkRecord,
    Hit,
    Scope,
    SparseVec,
    tenant_scope,
    unpublished_tenant,
)

UPSERT_BATCH = 512

T = TypeVar("T")


class StoredPoint(Protocol):
    """A point as either engine returns it (a record of a scroll or a retrieve, a scored point of a query)."""

    @property
    def id(self) -> Any: ...

    @property
    def payload(self) -> Mapping[str, Any] | None: ...

    @property
    def vector(self) -> Any: ...


P = TypeVar("P", bound=StoredPoint)


def chunk_payload(workspace_id: str, chunk: ChunkRecord, version: str | None = None) -> dict[str, Any]:
    """A chunk's payload; with a `version`, that of a point of a new version, hidden until it is published."""
    payload = {
        TENANT_KEY: workspace_id if version is None else unpublished_tenant(workspace_id),
        DOCUMENT_KEY: chunk.doc_name,
        "chunk_id": chunk.chunk_id,
        "text": chunk.text,
        "ordinal": chunk.ordinal,
        "page": chunk.page,
        "section": chunk.section,
    }
    if chunk.title:
        payload["title"] = chunk.title
    if version is not None:
        payload[VERSION_KEY] = version
    return payload


def index_text(chunk: ChunkRecord | Hit) -> str:
    """What BM25 indexes for a chunk: its text under its section heading and its document's name (without the
    extension), so a chunk from the middle of a document still matches the words that say what the document is
    about — a row of `distro-info-debian.csv` matches "Debian 12" (the relevance score and the registry's term
    statistics read the same text)."""
    heading = (chunk.section or "").strip()
    lines = [_stem(chunk.doc_name)] if chunk.doc_name else []
    if heading and not chunk.text.startswith(heading):
        lines.append(heading)
    return "\n".join([*lines, chunk.text])


@lru_cache(maxsize=4096)  # a document's chunks and hits share its name: one PurePath for them all
def _stem(doc_name: str) -> str:
    return PurePath(doc_name).stem


def sparse_vectors(chunks: Sequence[ChunkRecord], vectors: Sequence[SparseVec] | None) -> Sequence[SparseVec]:
    """The chunks' BM25 vectors: the ones given (the ingest pipeline builds them once), else built here."""
    if vectors is None:
        return [document_vector(index_text(chunk)) for chunk in chunks]
    if len(vectors) != len(chunks):
        raise ValueError(f"{len(vectors)} vectors for {len(chunks)} chunks")
    return vectors


def hit_from_payload(payload: Mapping[str, Any] | None, score: float, dense_score: float | None = None) -> Hit:
    payload = payload or {}
    return Hit(
        chunk_id=payload["chunk_id"],
        doc_name=payload[DOCUMENT_KEY],
        text=payload.get("text", ""),
        score=float(score),
        page=payload.get("page"),
        section=payload.get("section"),
        dense_score=dense_score,
        title=payload.get("title"),
    )


def batches(items: Sequence[T], size: int = UPSERT_BATCH) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def version_scopes(
    workspace_id: str, versions: Mapping[str, str], *, published: bool | None = None, others: bool = False
) -> Iterator[Scope]:
    """The scopes, a batch of documents each, of the points of these versions (document name -> version id),
    published or not; with `others`, of every other point of these documents."""
    tenant_scope(workspace_id)
    for batch in batches(sorted(versions.items())):
        names, ids = [name for name, _ in batch], [version for _, version in batch]
        if others:
            yield tenant_scope(workspace_id, doc_names=names, other_than=ids, published=None)
        else:
            yield tenant_scope(workspace_id, doc_names=names, versions=ids, published=published)


def owners_of(points: Iterable[StoredPoint]) -> dict[str, str]:
    """The document each of these stored chunks belongs to, by chunk id."""
    payloads = [point.payload or {} for point in points]
    return {payload["chunk_id"]: payload[DOCUMENT_KEY] for payload in payloads}


def texts_of(points: Iterable[StoredPoint]) -> list[str]:
    """The chunk texts of these stored points."""
    return [str((point.payload or {}).get("text", "")) for point in points]


def renumbering(pages: Iterable[Iterable[P]]) -> list[tuple[P, dict[str, Any]]]:
    """The stored points whose chunk id is not the one `masis.chunk_ids` gives now, each with its payload
    under the new id."""
    return [(point, new) for page in pages for point in page if (new := renumbered(point.payload))]


def renumbered(payload: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A stored chunk's payload with the id `masis.chunk_ids` gives it now, or None when it already has it
    (a store written before per-document keys holds `legacy_key` ids)."""
    payload = payload or {}
    new_id = chunk_id(payload[DOCUMENT_KEY], int(payload["ordinal"]))
    return None if payload.get("chunk_id") == new_id else {**payload, "chunk_id": new_id}
