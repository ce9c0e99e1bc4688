"""The shared backend: a Qdrant server (or qdrant-client's local mode) through `qdrant-client`."""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType
from urllib.parse import urlsplit

from qdrant_client import QdrantClient
from qdrant_client.http import models
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from masis.errors import MasisError
from masis.store.base import DOCUMENT_KEY, SPARSE_VECTOR, TENANT_KEY, ChunkRecord, Hit, tenant_scope
from masis.store.ids import point_id
from masis.store.payload import batches, chunk_payload, hit_from_payload, index_text
from masis.text import document_vector, query_vector

_INDEXES: dict[str, models.PayloadSchemaType | models.KeywordIndexParams] = {
    TENANT_KEY: models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD, is_tenant=True),
    DOCUMENT_KEY: models.PayloadSchemaType.KEYWORD,
}


def _filter(scope: dict[str, str]) -> models.Filter:
    return models.Filter(
        must=[models.FieldCondition(key=key, match=models.MatchValue(value=value)) for key, value in scope.items()]
    )


def _safe_url(url: str) -> str:
    """`url` without any user:password part, for messages."""
    parts = urlsplit(url)
    if parts.hostname is None:
        return url.split("@")[-1]
    host = parts.hostname + (f":{parts.port}" if parts.port else "")
    return parts._replace(netloc=host).geturl()


def _reason(exc: Exception) -> str:
    if isinstance(exc, UnexpectedResponse):
        return f"HTTP {exc.status_code}"
    if isinstance(exc, ResponseHandlingException):
        return type(exc.source).__name__
    return type(exc).__name__


class QdrantServerStore:
    """A `VectorStore` in one collection of a Qdrant server, shared by every process that points at it.

    The store owns `client`: `close()` closes it.
    """

    def __init__(self, client: QdrantClient, collection: str) -> None:
        self._client = client
        self._collection = collection
        self._closed = False
        self._ensure_collection()

    @classmethod
    def from_url(cls, url: str, api_key: str | None, collection: str) -> QdrantServerStore:
        client: QdrantClient | None = None
        try:
            client = QdrantClient(url=url, api_key=api_key)
            return cls(client, collection)
        except Exception as exc:
            if client is not None:
                client.close()
            # `from None` and a message built only from our own parts: the client's errors are not
            # needed to act on this, and no credential can ride along into a log line.
            raise MasisError(
                f"Could not open the Qdrant collection {collection!r} at {_safe_url(url)} "
                f"({_reason(exc)}); check QDRANT_URL and QDRANT_API_KEY, or unset QDRANT_URL "
                "to use the embedded store."
            ) from None

    def _ensure_collection(self) -> None:
        if not self._client.collection_exists(self._collection):
            try:
                self._client.create_collection(
                    self._collection,
                    # Sparse-only for now. Hybrid retrieval adds a named dense vector here, and `search`
                    # becomes `prefetch=[dense, sparse]` (each with the tenant filter) fused by RRF.
                    vectors_config={},
                    sparse_vectors_config={SPARSE_VECTOR: models.SparseVectorParams(modifier=models.Modifier.IDF)},
                )
            except Exception:
                # Another process may have created it between our check and our create.
                if not self._client.collection_exists(self._collection):
                    raise
        present = self._client.get_collection(self._collection).payload_schema or {}
        for field, schema in _INDEXES.items():
            if field not in present:
                self._client.create_payload_index(self._collection, field, schema, wait=True)

    def _live(self) -> QdrantClient:
        if self._closed:
            raise RuntimeError(f"The store for collection {self._collection!r} is closed.")
        return self._client

    def upsert(self, workspace_id: str, chunks: Sequence[ChunkRecord]) -> None:
        tenant_scope(workspace_id)
        client = self._live()
        for batch in batches(chunks):
            points = [
                models.PointStruct(
                    id=point_id(workspace_id, chunk.chunk_id),
                    vector={SPARSE_VECTOR: _sparse(document_vector(index_text(chunk)))},
                    payload=chunk_payload(workspace_id, chunk),
                )
                for chunk in batch
            ]
            client.upsert(self._collection, points=points, wait=True)

    def delete_document(self, workspace_id: str, doc_name: str) -> None:
        scope = tenant_scope(workspace_id, doc_name)
        self._live().delete(self._collection, points_selector=models.FilterSelector(filter=_filter(scope)), wait=True)

    def search(self, workspace_id: str, query: str, limit: int, doc_name: str | None = None) -> list[Hit]:
        scope = tenant_scope(workspace_id, doc_name)
        corpus = _filter(tenant_scope(workspace_id))
        client = self._live()
        vector = query_vector(query)
        if not vector[0] or limit < 1:
            return []
        response = client.query_points(
            self._collection,
            query=_sparse(vector),
            using=SPARSE_VECTOR,
            query_filter=_filter(scope),
            limit=limit,
            with_payload=True,
            search_params=models.SearchParams(idf=models.IdfCorpusParams(corpus=corpus)),
        )
        return [hit_from_payload(point.payload, point.score) for point in response.points]

    def count(self, workspace_id: str, doc_name: str | None = None) -> int:
        scope = tenant_scope(workspace_id, doc_name)
        return self._live().count(self._collection, count_filter=_filter(scope), exact=True).count

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._client.close()

    def __enter__(self) -> QdrantServerStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def _sparse(vector: tuple[list[int], list[float]]) -> models.SparseVector:
    indices, values = vector
    return models.SparseVector(indices=indices, values=values)
