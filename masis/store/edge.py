"""The embedded backend: Qdrant Edge, the Qdrant engine in-process, one shard in a local directory."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from qdrant_edge import (
    CountRequest,
    EdgeConfig,
    EdgeShard,
    EdgeSparseVectorParams,
    FieldCondition,
    Filter,
    IdfParams,
    KeywordIndexParams,
    MatchValue,
    Modifier,
    Point,
    Query,
    QueryRequest,
    SearchParams,
    SparseVector,
    UpdateOperation,
)

from masis.errors import StoreInUseError
from masis.store.base import DOCUMENT_KEY, SPARSE_VECTOR, TENANT_KEY, ChunkRecord, Hit, tenant_scope
from masis.store.ids import point_id
from masis.store.payload import batches, chunk_payload, hit_from_payload, index_text
from masis.text import document_vector, query_vector

# Qdrant Edge holds an exclusive lock on the shard's WAL; a second open (another process, or this one)
# fails with "failed to open WAL <path>/wal: Can't init WAL: Kind(WouldBlock)".
_LOCKED_MARKER = "WouldBlock"

_INDEXES = {
    TENANT_KEY: KeywordIndexParams(is_tenant=True),
    DOCUMENT_KEY: KeywordIndexParams(),
}


def _filter(scope: dict[str, str]) -> Filter:
    return Filter(must=[FieldCondition(key, match=MatchValue(value)) for key, value in scope.items()])


def _holds_shard(path: Path) -> bool:
    return (path / "edge_config.json").exists() or (path / "segments").exists()


def _open_shard(path: Path) -> EdgeShard:
    try:
        if _holds_shard(path):
            return EdgeShard.load(str(path))
        path.mkdir(parents=True, exist_ok=True)
        config = EdgeConfig(sparse_vectors={SPARSE_VECTOR: EdgeSparseVectorParams(modifier=Modifier.Idf)})
        return EdgeShard.create(str(path), config)
    except Exception as exc:  # the bindings raise a bare Exception for every engine error
        if _LOCKED_MARKER in str(exc):
            raise StoreInUseError(str(path)) from exc
        raise


class EdgeStore:
    """A `VectorStore` in a local directory; one process at a time may hold it open."""

    def __init__(self, path: Path) -> None:
        self._path = Path(path)
        self._lock = threading.Lock()
        self._shard: EdgeShard | None = _open_shard(self._path)
        try:
            present = self._shard.info().payload_schema
            for field, params in _INDEXES.items():
                if field not in present:
                    self._shard.update(UpdateOperation.create_field_index(field, params))
        except BaseException:
            self._shard.close()
            raise

    @property
    def path(self) -> Path:
        return self._path

    def _live(self) -> EdgeShard:
        shard = self._shard
        if shard is None:
            raise RuntimeError(f"The document store at {self._path} is closed; open a new EdgeStore.")
        return shard

    def upsert(self, workspace_id: str, chunks: Sequence[ChunkRecord]) -> None:
        tenant_scope(workspace_id)
        shard = self._live()
        for batch in batches(chunks):
            points = [
                Point(
                    point_id(workspace_id, chunk.chunk_id),
                    {SPARSE_VECTOR: SparseVector(*document_vector(index_text(chunk)))},
                    chunk_payload(workspace_id, chunk),
                )
                for chunk in batch
            ]
            shard.update(UpdateOperation.upsert_points(points))

    def delete_document(self, workspace_id: str, doc_name: str) -> None:
        scope = tenant_scope(workspace_id, doc_name)
        self._live().update(UpdateOperation.delete_points_by_filter(_filter(scope)))

    def search(self, workspace_id: str, query: str, limit: int, doc_name: str | None = None) -> list[Hit]:
        scope = tenant_scope(workspace_id, doc_name)
        corpus = _filter(tenant_scope(workspace_id))
        shard = self._live()
        indices, values = query_vector(query)
        if not indices or limit < 1:
            return []
        request = QueryRequest(
            limit,
            query=Query.Nearest(SparseVector(indices, values), using=SPARSE_VECTOR),
            filter=_filter(scope),
            with_payload=True,
            params=SearchParams(idf=IdfParams(corpus=corpus)),
        )
        return [hit_from_payload(point.payload, point.score) for point in shard.query(request)]

    def count(self, workspace_id: str, doc_name: str | None = None) -> int:
        scope = tenant_scope(workspace_id, doc_name)
        return self._live().count(CountRequest(exact=True, filter=_filter(scope)))

    def flush(self) -> None:
        self._live().flush()

    def close(self) -> None:
        with self._lock:
            shard, self._shard = self._shard, None
        if shard is None:
            return
        try:
            shard.flush()
        finally:
            shard.close()

    def __enter__(self) -> EdgeStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
