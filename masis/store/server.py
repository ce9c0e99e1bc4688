"""The shared backend: a Qdrant server (or qdrant-client's local mode) through `qdrant-client`."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from types import TracebackType
from urllib.parse import urlsplit

from qdrant_client import QdrantClient
from qdrant_client.http import models
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from masis.errors import MasisError
from masis.store.base import (
    DENSE_VECTOR,
    DOCUMENT_KEY,
    SPARSE_VECTOR,
    TENANT_KEY,
    VERSION_KEY,
    ChunkRecord,
    Hit,
    Scope,
    SparseVec,
    tenant_scope,
)
from masis.store.dense import DEFAULT_DENSE_FLOOR, REINDEX_NEEDS_EMBEDDINGS, RRF_K, prefetch_limit
from masis.store.embeddings import Embedder
from masis.store.hybrid import dense_updates, fetch_limit, hits, in_stable_order, new_points, query_vectors
from masis.store.ids import point_id
from masis.store.payload import UPSERT_BATCH, batches, owners_of, renumbering, texts_of, version_scopes

log = logging.getLogger(__name__)

_INDEXES: dict[str, models.PayloadSchemaType | models.KeywordIndexParams] = {
    TENANT_KEY: models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD, is_tenant=True),
    DOCUMENT_KEY: models.PayloadSchemaType.KEYWORD,
}


def _filter(scope: Scope) -> models.Filter:
    """The qdrant-client filter of a scope (`masis.store.base.tenant_scope` makes every scope)."""
    tenants = list(scope.tenants)
    must: list[models.Condition] = [_match(TENANT_KEY, tenants[0]) if len(tenants) == 1 else _any(TENANT_KEY, tenants)]
    if scope.doc_names is not None:
        names = list(scope.doc_names)
        must.append(_match(DOCUMENT_KEY, names[0]) if len(names) == 1 else _any(DOCUMENT_KEY, names))
    if scope.versions is not None:
        must.append(_any(VERSION_KEY, list(scope.versions)))
    must_not: list[models.Condition] | None = [_any(VERSION_KEY, list(scope.other_than))] if scope.other_than else None
    return models.Filter(must=must, must_not=must_not)


def _match(key: str, value: str) -> models.FieldCondition:
    return models.FieldCondition(key=key, match=models.MatchValue(value=value))


def _any(key: str, values: list[str]) -> models.FieldCondition:
    return models.FieldCondition(key=key, match=models.MatchAny(any=values))


def _sparse(vector: SparseVec) -> models.SparseVector:
    indices, values = vector
    return models.SparseVector(indices=indices, values=values)


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

    The store owns `client`: `close()` closes it. With an `embedder`, a new collection keeps a dense vector
    per chunk besides BM25 and searches both, fused by RRF; one created without stays BM25-only until
    `reindex` adds them.
    """

    def __init__(
        self,
        client: QdrantClient,
        collection: str,
        embedder: Embedder | None = None,
        dense_floor: float = DEFAULT_DENSE_FLOOR,
    ) -> None:
        self._client = client
        self._collection = collection
        self._closed = False
        self._embedder = embedder
        self._dense_floor = dense_floor
        self._ensure_collection()
        self._dense = embedder is not None and self._has_dense(collection)
        if embedder is not None and not self._dense:
            log.warning("Collection %r has no dense vectors: BM25 only until `masis reindex` adds them.", collection)

    @property
    def hybrid(self) -> bool:
        """True when searches fuse BM25 with dense vectors."""
        return self._dense

    @classmethod
    def from_url(
        cls, url: str, api_key: str | None, collection: str, embedder: Embedder | None = None
    ) -> QdrantServerStore:
        client: QdrantClient | None = None
        try:
            client = QdrantClient(url=url, api_key=api_key)
            return cls(client, collection, embedder)
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
                self._create(self._collection, self._embedder.dimension if self._embedder else None)
            except Exception:
                # Another process may have created it between our check and our create.
                if not self._client.collection_exists(self._collection):
                    raise
        self._ensure_indexes(self._collection)

    def _create(self, name: str, dimension: int | None) -> None:
        """A collection with BM25 (per-tenant IDF) and, given a dimension, a named cosine dense vector."""
        dense = (
            {DENSE_VECTOR: models.VectorParams(size=dimension, distance=models.Distance.COSINE)} if dimension else {}
        )
        self._client.create_collection(
            name,
            vectors_config=dense,
            sparse_vectors_config={SPARSE_VECTOR: models.SparseVectorParams(modifier=models.Modifier.IDF)},
        )

    def _ensure_indexes(self, name: str) -> None:
        present = self._client.get_collection(name).payload_schema or {}
        for field, schema in _INDEXES.items():
            if field not in present:
                self._client.create_payload_index(name, field, schema, wait=True)

    def _has_dense(self, name: str) -> bool:
        vectors = self._client.get_collection(name).config.params.vectors
        return isinstance(vectors, dict) and DENSE_VECTOR in vectors

    def _live(self) -> QdrantClient:
        if self._closed:
            raise RuntimeError(f"The store for collection {self._collection!r} is closed.")
        return self._client

    def upsert(
        self,
        workspace_id: str,
        chunks: Sequence[ChunkRecord],
        vectors: Sequence[SparseVec] | None = None,
        versions: Mapping[str, str] | None = None,
    ) -> None:
        tenant_scope(workspace_id)
        client = self._live()
        for batch in new_points(workspace_id, chunks, vectors, self._embedder if self._dense else None, versions):
            points = [
                models.PointStruct(id=point.id, vector=point.vectors(_sparse), payload=point.payload) for point in batch
            ]
            client.upsert(self._collection, points=points, wait=True)

    def publish(self, workspace_id: str, versions: Mapping[str, str]) -> None:
        for scope in version_scopes(workspace_id, versions, published=False):
            selector = models.FilterSelector(filter=_filter(scope))
            self._live().set_payload(self._collection, payload={TENANT_KEY: workspace_id}, points=selector, wait=True)

    def delete_other_versions(self, workspace_id: str, versions: Mapping[str, str]) -> None:
        for scope in version_scopes(workspace_id, versions, others=True):
            self._delete(scope)

    def delete_versions(self, workspace_id: str, versions: Mapping[str, str]) -> None:
        for scope in version_scopes(workspace_id, versions):
            self._delete(scope)

    def delete_document(self, workspace_id: str, doc_name: str) -> None:
        self._delete(tenant_scope(workspace_id, doc_name, published=None))

    def _delete(self, scope: Scope) -> None:
        self._live().delete(self._collection, points_selector=models.FilterSelector(filter=_filter(scope)), wait=True)

    def search(self, workspace_id: str, query: str, limit: int, doc_name: str | None = None) -> list[Hit]:
        scope = tenant_scope(workspace_id, doc_name)
        corpus = _filter(tenant_scope(workspace_id))
        client = self._live()
        vectors = query_vectors(query, limit, self._embedder if self._dense else None)
        if vectors is None:
            return []
        idf = models.SearchParams(idf=models.IdfCorpusParams(corpus=corpus))
        if vectors.dense is None:
            response = client.query_points(
                self._collection,
                query=_sparse(vectors.sparse),
                using=SPARSE_VECTOR,
                query_filter=_filter(scope),
                limit=fetch_limit(limit),
                with_payload=True,
                search_params=idf,
            )
            return in_stable_order(hits(response.points, None), limit)
        fetch = prefetch_limit(limit)
        response = client.query_points(
            self._collection,
            prefetch=[
                models.Prefetch(
                    query=_sparse(vectors.sparse), using=SPARSE_VECTOR, filter=_filter(scope), params=idf, limit=fetch
                ),
                models.Prefetch(
                    query=vectors.dense,
                    using=DENSE_VECTOR,
                    filter=_filter(scope),
                    score_threshold=self._dense_floor,
                    limit=fetch,
                ),
            ],
            query=models.RrfQuery(rrf=models.Rrf(k=RRF_K)),
            query_filter=_filter(scope),
            limit=fetch_limit(limit),
            with_payload=True,
            with_vectors=[DENSE_VECTOR],
        )
        return in_stable_order(hits(response.points, vectors.dense), limit)

    def reindex(self, workspace_id: str | None = None) -> int:
        """Give every chunk (of one workspace, or all) its dense vector; returns how many were embedded.

        A collection created without dense vectors is first rebuilt with them (Qdrant cannot add a named
        vector to an existing collection): copied aside, recreated with the dense vector, copied back.
        """
        if self._embedder is None:
            raise MasisError(REINDEX_NEEDS_EMBEDDINGS)
        client = self._live()
        if not self._dense:
            self._rebuild_with_dense()
        scope = _filter(tenant_scope(workspace_id, published=None)) if workspace_id is not None else None
        embedded = 0
        for records in self._scroll(self._collection, scope, [DENSE_VECTOR]):
            updates = dense_updates(records, self._embedder)
            if updates:
                points = [models.PointVectors(id=point, vector={DENSE_VECTOR: vector}) for point, vector in updates]
                client.update_vectors(self._collection, points=points, wait=True)
                embedded += len(updates)
        return embedded

    def _scroll(
        self, name: str, flt: models.Filter | None, with_vectors: bool | list[str]
    ) -> Iterator[list[models.Record]]:
        offset = None
        while True:
            records, offset = self._client.scroll(
                name, scroll_filter=flt, limit=UPSERT_BATCH, offset=offset, with_payload=True, with_vectors=with_vectors
            )
            if records:
                yield records
            if offset is None:
                return

    def _copy(self, source: str, target: str) -> None:
        for records in self._scroll(source, None, True):
            points = [models.PointStruct(id=r.id, vector=r.vector or {}, payload=r.payload) for r in records]
            self._client.upsert(target, points=points, wait=True)

    def _rebuild_with_dense(self) -> None:
        assert self._embedder is not None
        dimension = self._embedder.dimension
        aside = f"{self._collection}__reindex"
        if self._client.collection_exists(aside):
            self._client.delete_collection(aside)
        self._create(aside, None)
        self._copy(self._collection, aside)
        self._client.delete_collection(self._collection)
        self._create(self._collection, dimension)
        self._ensure_indexes(self._collection)
        self._copy(aside, self._collection)
        self._client.delete_collection(aside)
        self._dense = True

    def count(self, workspace_id: str, doc_name: str | None = None, *, unpublished: bool = False) -> int:
        scope = tenant_scope(workspace_id, doc_name, published=not unpublished)
        return self._live().count(self._collection, count_filter=_filter(scope), exact=True).count

    def owners(self, workspace_id: str, chunk_ids: Sequence[str]) -> dict[str, str]:
        tenant_scope(workspace_id)
        client = self._live()
        found: dict[str, str] = {}
        for batch in batches(list(chunk_ids)):
            ids: list[models.ExtendedPointId] = [point_id(workspace_id, cid) for cid in batch]
            found.update(owners_of(client.retrieve(self._collection, ids, with_payload=True, with_vectors=False)))
        return found

    def passages(self, workspace_id: str, doc_names: Sequence[str] | None = None) -> Iterator[list[str]]:
        flt = _filter(tenant_scope(workspace_id, doc_names=doc_names))
        for records in self._scroll(self._collection, flt, False):
            yield texts_of(records)

    def renumber_document(self, workspace_id: str, doc_name: str) -> int:
        flt = _filter(tenant_scope(workspace_id, doc_name))
        client = self._live()
        moved = renumbering(self._scroll(self._collection, flt, True))
        for batch in batches(moved):
            points = [
                models.PointStruct(id=point_id(workspace_id, new["chunk_id"]), vector=r.vector or {}, payload=new)
                for r, new in batch
            ]
            client.upsert(self._collection, points=points, wait=True)
            old = models.PointIdsList(points=[r.id for r, _ in batch])
            client.delete(self._collection, points_selector=old, wait=True)
        return len(moved)

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
