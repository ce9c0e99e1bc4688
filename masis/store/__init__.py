"""The vector store: one protocol, an embedded backend (Qdrant Edge) and a server backend (Qdrant).

The server backend (and `qdrant-client`, ~0.5 s to import) loads only when it is used: with `QDRANT_URL`,
or when `QdrantServerStore` is asked for by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from masis.config import Settings
from masis.store.base import ChunkRecord, Hit, VectorStore, tenant_scope
from masis.store.edge import EdgeStore
from masis.store.embeddings import Embedder
from masis.store.idf import TermStatistics

if TYPE_CHECKING:
    from masis.store.server import QdrantServerStore

__all__ = [
    "ChunkRecord",
    "EdgeStore",
    "Hit",
    "QdrantServerStore",
    "VectorStore",
    "open_store",
    "tenant_scope",
]


def __getattr__(name: str) -> Any:
    if name == "QdrantServerStore":
        from masis.store.server import QdrantServerStore

        return QdrantServerStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def open_store(
    settings: Settings, embedder: Embedder | None = None, statistics: TermStatistics | None = None
) -> VectorStore:
    """The Qdrant server when `QDRANT_URL` is set, else the embedded store under the data directory.

    With an `embedder` (the OpenAI path), retrieval is hybrid: BM25 and dense vectors fused by RRF. With
    `statistics` (the registry), a new embedded store weighs BM25's IDF by them (`masis.store.idf`)."""
    if settings.qdrant_url:
        from masis.store.server import QdrantServerStore

        api_key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        return QdrantServerStore.from_url(settings.qdrant_url, api_key, settings.collection, embedder)
    return EdgeStore(settings.edge_store_path, embedder, statistics=statistics)
