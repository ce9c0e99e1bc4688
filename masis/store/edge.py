"""The embedded backend: Qdrant Edge, the Qdrant engine in-process, one shard in a local directory."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import json
import logging
import shutil
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from qdrant_edge import (
    CountRequest,
    Distance,
    EdgeConfig,
    EdgeOptimizersConfig,
    EdgeShard,
    EdgeSparseVectorParams,
    EdgeVectorParams,
    FieldCondition,
    Filter,
    Fusion,
    IdfParams,
    KeywordIndexParams,
    MatchAny,
    MatchValue,
    Memory,
    Modifier,
    Point,
    PointVectors,
    Prefetch,
    Query,
    QueryRequest,
    Record,
    ScrollRequest,
    SearchParams,
    SparseVector,
    UpdateOperation,
)

from masis.errors import MasisError, StoreInUseError
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
from masis.store.idf import TermStatistics, weigh_query
from masis.store.ids import point_id
from masis.store.payload import UPSERT_BATCH, batches, owners_of, renumbering, texts_of, version_scopes

log = logging.getLogger(__name__)

# Qdrant Edge holds an exclusive lock on the shard's WAL; a second open (another process, or this one)
# fails with "failed to open WAL <path>/wal: Can't init WAL: Kind(WouldBlock)".
_LOCKED_MARKER = "WouldBlock"

# Points written between two runs of the shard's optimizers: an appendable segment costs ~3.5 KB of RAM a
# point (its sparse index and id tracker on the heap, its payload and vectors freshly written pages) against
# ~1 KB once optimized. A SciFact-sized upload (12k chunks) never waits for one.
OPTIMIZE_AFTER = 65_536
# Optimized segments a new shard keeps before merging the smallest: with Qdrant's default (one a CPU, so 2
# here) every optimization merged the new segment into the one big segment, rewriting the whole store each
# time (quadratic in the store's size); with 8 a store grows like a log-structured merge.
SEGMENTS = 8

_INDEXES = {
    TENANT_KEY: KeywordIndexParams(is_tenant=True),
    DOCUMENT_KEY: KeywordIndexParams(),
}


def _filter(scope: Scope) -> Filter:
    """The Qdrant Edge filter of a scope (`masis.store.base.tenant_scope` makes every scope)."""
    tenants = list(scope.tenants)
    must = [FieldCondition(TENANT_KEY, match=MatchValue(tenants[0]) if len(tenants) == 1 else MatchAny(tenants))]
    if scope.doc_names is not None:
        names = list(scope.doc_names)
        must.append(FieldCondition(DOCUMENT_KEY, match=MatchValue(names[0]) if len(names) == 1 else MatchAny(names)))
    if scope.versions is not None:
        must.append(FieldCondition(VERSION_KEY, match=MatchAny(list(scope.versions))))
    must_not = [FieldCondition(VERSION_KEY, match=MatchAny(list(scope.other_than)))] if scope.other_than else None
    return Filter(must=must, must_not=must_not)


def _sparse(vector: SparseVec) -> SparseVector:
    return SparseVector(*vector)


def _holds_shard(path: Path) -> bool:
    return (path / "edge_config.json").exists() or (path / "segments").exists()


def _stored_config(path: Path) -> dict[str, Any]:
    try:
        config = json.loads((path / "edge_config.json").read_text())
    except (OSError, ValueError):
        return {}
    return config if isinstance(config, dict) else {}


def _has_dense(path: Path) -> bool:
    return DENSE_VECTOR in (_stored_config(path).get("vectors") or {})


def _engine_idf(path: Path) -> bool:
    """Whether the shard's BM25 vectors carry Qdrant's IDF modifier (every shard written before MASIS
    weighed IDF itself), so the engine counts each tenant's IDF per query."""
    sparse = (_stored_config(path).get("sparse_vectors") or {}).get(SPARSE_VECTOR) or {}
    return str(sparse.get("modifier", "")).lower() == "idf"


def _optimized_as_it_grows(path: Path) -> bool:
    """Whether the shard was created (or rebuilt by `masis reindex`) with MASIS's segment count, so its
    optimizers may run as it grows. A shard written before keeps Qdrant's default of one segment a CPU, with
    which each run would rewrite the whole store: it is left as it was until `masis reindex` rebuilds it."""
    optimizers = _stored_config(path).get("optimizers") or {}
    return optimizers.get("default_segment_number") == SEGMENTS


def _config(dimension: int | None, engine_idf: bool) -> EdgeConfig:
    """A new shard's configuration. Without `engine_idf` the BM25 vectors have no IDF modifier: the store
    weighs each query by the registry's statistics (`masis.store.idf`). The sparse index and the point-id
    tracker of optimized segments live in memory-mapped files (`Memory.Cold`), as the payload does by
    default: the page cache holds what queries touch, not the whole store."""
    vectors = {DENSE_VECTOR: EdgeVectorParams(dimension, Distance.Cosine)} if dimension else None
    sparse = EdgeSparseVectorParams(modifier=Modifier.Idf if engine_idf else None, memory=Memory.Cold)
    return EdgeConfig(
        vectors=vectors,
        sparse_vectors={SPARSE_VECTOR: sparse},
        payload_memory=Memory.Cold,
        id_tracker_memory=Memory.Cold,
        optimizers=EdgeOptimizersConfig(default_segment_number=SEGMENTS),
    )


def _open_shard(path: Path, embedder: Embedder | None, engine_idf: bool) -> EdgeShard:
    try:
        if _holds_shard(path):
            return EdgeShard.load(str(path))
        path.mkdir(parents=True, exist_ok=True)
        return EdgeShard.create(str(path), _config(embedder.dimension if embedder else None, engine_idf))
    except Exception as exc:  # the bindings raise a bare Exception for every engine error
        if _LOCKED_MARKER in str(exc):
            raise StoreInUseError(str(path)) from exc
        raise


def _release_freed_memory() -> None:
    """Give the C heap's free pages back to the system (glibc keeps what an optimization freed)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)


def _ensure_indexes(shard: EdgeShard) -> None:
    present = shard.info().payload_schema
    for field, params in _INDEXES.items():
        if field not in present:
            shard.update(UpdateOperation.create_field_index(field, params))


def _scroll(shard: EdgeShard, flt: Filter | None, with_vector: bool | list[str]) -> Iterator[list[Record]]:
    return _pages(shard.scroll, flt, with_vector)


def _pages(
    scroll: Callable[[ScrollRequest], tuple[list[Record], Any]], flt: Filter | None, with_vector: bool | list[str]
) -> Iterator[list[Record]]:
    offset: Any = None
    while True:
        request = ScrollRequest(
            offset=offset, limit=UPSERT_BATCH, filter=flt, with_payload=True, with_vector=with_vector
        )
        records, offset = scroll(request)
        if records:
            yield records
        if offset is None:
            return


class EdgeStore:
    """A `VectorStore` in a local directory; one process at a time may hold it open.

    With an `embedder`, a new store keeps a dense vector per chunk besides BM25 and searches both, fused
    by RRF. A store created without dense vectors stays BM25-only until `reindex` adds them.

    Given `statistics` (the registry), a new store weighs each query by the workspace's IDF from them
    (`masis.store.idf`); without, or for a shard written before, Qdrant counts the tenant's IDF per query.
    A shard that needs statistics is not searched without them (it can be counted, written and deleted from).
    Every `OPTIMIZE_AFTER` points written, a shard created by this MASIS runs its optimizers, which turn its
    appendable segment (its index in RAM) into optimized, memory-mapped ones.
    """

    def __init__(
        self,
        path: Path,
        embedder: Embedder | None = None,
        dense_floor: float = DEFAULT_DENSE_FLOOR,
        statistics: TermStatistics | None = None,
    ) -> None:
        self._path = Path(path)
        self._lock = threading.Lock()
        # held while the shard is used and while `optimize` swaps it for a freshly loaded one
        self._swap = threading.Lock()
        self._embedder = embedder
        self._dense_floor = dense_floor
        self._statistics = statistics
        self._written = 0  # points written since the shard was last optimized
        self._shard: EdgeShard | None = _open_shard(self._path, embedder, engine_idf=statistics is None)
        self._engine_idf = _engine_idf(self._path)
        self._optimizes = _optimized_as_it_grows(self._path)
        try:
            _ensure_indexes(self._shard)
        except BaseException:
            self._shard.close()
            raise
        self._dense = embedder is not None and _has_dense(self._path)
        if embedder is not None and not self._dense:
            log.warning("The store at %s has no dense vectors: BM25 only until `masis reindex` adds them.", path)

    @property
    def hybrid(self) -> bool:
        """True when searches fuse BM25 with dense vectors."""
        return self._dense

    @property
    def path(self) -> Path:
        return self._path

    def _live(self) -> EdgeShard:
        shard = self._shard
        if shard is None:
            raise RuntimeError(f"The document store at {self._path} is closed; open a new EdgeStore.")
        return shard

    @contextlib.contextmanager
    def _using(self) -> Iterator[EdgeShard]:
        """The live shard, which `optimize` does not swap until the block ends."""
        with self._swap:
            yield self._live()

    def upsert(
        self,
        workspace_id: str,
        chunks: Sequence[ChunkRecord],
        vectors: Sequence[SparseVec] | None = None,
        versions: Mapping[str, str] | None = None,
    ) -> None:
        tenant_scope(workspace_id)
        for batch in new_points(workspace_id, chunks, vectors, self._embedder if self._dense else None, versions):
            points = [Point(point.id, point.vectors(_sparse), point.payload) for point in batch]
            with self._using() as shard:
                shard.update(UpdateOperation.upsert_points(points))
            self._written += len(points)
        if self._optimizes and self._written >= OPTIMIZE_AFTER:
            self.optimize()

    def optimize(self) -> None:
        """Run the shard's optimizers now (Qdrant Edge runs them only when asked): the appendable segment,
        whose sparse index and id tracker live on the heap, becomes optimized segments whose index, payload
        and ids are memory-mapped files; small segments merge and deleted points are vacuumed.

        Searches and writes go on meanwhile. The pages the optimizer wrote stay mapped into this process
        (resident, ~3 KB a point) until the shard is loaded afresh, so it is: a moment (~1 s at 100k points)
        in which other calls wait. Then the heap's freed pages go back to the system."""
        self._written = 0
        self._live().optimize()
        with self._swap:
            shard = self._live()
            shard.close()
            self._shard = None
            self._shard = EdgeShard.load(str(self._path))
        _release_freed_memory()

    def publish(self, workspace_id: str, versions: Mapping[str, str]) -> None:
        for scope in version_scopes(workspace_id, versions, published=False):
            with self._using() as shard:
                shard.update(UpdateOperation.set_payload_by_filter(_filter(scope), {TENANT_KEY: workspace_id}))

    def delete_other_versions(self, workspace_id: str, versions: Mapping[str, str]) -> None:
        for scope in version_scopes(workspace_id, versions, others=True):
            with self._using() as shard:
                shard.update(UpdateOperation.delete_points_by_filter(_filter(scope)))

    def delete_versions(self, workspace_id: str, versions: Mapping[str, str]) -> None:
        for scope in version_scopes(workspace_id, versions):
            with self._using() as shard:
                shard.update(UpdateOperation.delete_points_by_filter(_filter(scope)))

    def delete_document(self, workspace_id: str, doc_name: str) -> None:
        scope = tenant_scope(workspace_id, doc_name, published=None)
        with self._using() as shard:
            shard.update(UpdateOperation.delete_points_by_filter(_filter(scope)))

    def search(self, workspace_id: str, query: str, limit: int, doc_name: str | None = None) -> list[Hit]:
        scope = tenant_scope(workspace_id, doc_name)
        vectors = query_vectors(query, limit, self._embedder if self._dense else None)
        if vectors is None:
            return []
        if self._engine_idf:
            sparse = Query.Nearest(_sparse(vectors.sparse), using=SPARSE_VECTOR)
            idf: SearchParams | None = SearchParams(idf=IdfParams(corpus=_filter(tenant_scope(workspace_id))))
        elif self._statistics is None:
            raise MasisError(
                f"The document store at {self._path} weighs BM25 by the registry's term statistics: "
                "search it through the engine (masis.Engine), which gives them."
            )
        else:
            weighed = weigh_query(self._statistics, workspace_id, vectors.sparse)
            sparse, idf = Query.Nearest(_sparse(weighed), using=SPARSE_VECTOR), None
        if vectors.dense is None:
            request = QueryRequest(
                fetch_limit(limit), query=sparse, filter=_filter(scope), with_payload=True, params=idf
            )
            with self._using() as shard:
                return in_stable_order(hits(shard.query(request), None), limit)
        fetch = prefetch_limit(limit)
        request = QueryRequest(
            fetch_limit(limit),
            query=Fusion.Rrf(k=RRF_K),
            prefetches=[
                Prefetch(fetch, query=sparse, filter=_filter(scope), params=idf),
                Prefetch(
                    fetch,
                    query=Query.Nearest(vectors.dense, using=DENSE_VECTOR),
                    filter=_filter(scope),
                    score_threshold=self._dense_floor,
                ),
            ],
            filter=_filter(scope),
            with_payload=True,
            with_vector=[DENSE_VECTOR],
        )
        with self._using() as shard:
            return in_stable_order(hits(shard.query(request), vectors.dense), limit)

    def reindex(self, workspace_id: str | None = None) -> int:
        """Give every chunk (of one workspace, or all) its dense vector; returns how many were embedded.

        A store created without dense vectors is first rebuilt with them: Qdrant cannot add a named vector
        to an existing shard, so the points are copied into a new shard that then replaces the old one.
        """
        if self._embedder is None:
            raise MasisError(REINDEX_NEEDS_EMBEDDINGS)
        scope = _filter(tenant_scope(workspace_id, published=None)) if workspace_id is not None else None
        with self._lock:
            if not self._dense:
                self._rebuild_with_dense()
            shard = self._live()
            embedded = 0
            for records in _scroll(shard, scope, [DENSE_VECTOR]):
                updates = dense_updates(records, self._embedder)
                if updates:
                    points = [PointVectors(point, {DENSE_VECTOR: vector}) for point, vector in updates]
                    shard.update(UpdateOperation.update_vectors(points))
                    embedded += len(updates)
            shard.flush()
        return embedded

    def _rebuild_with_dense(self) -> None:
        assert self._embedder is not None
        self._rebuild(self._embedder.dimension, self._engine_idf)
        self._dense = True

    def upgrade(self) -> bool:
        """Rebuild a shard written before MASIS weighed IDF itself (its BM25 vectors carry Qdrant's IDF
        modifier) or kept its segments as it does, as a new store is, when this store has the registry's
        statistics; returns whether it did.
        The stored BM25 vectors are copied as they are (the modifier applies at query time only), so every
        query answers as before. Run by `masis reindex`."""
        with self._lock:
            if self._statistics is None or (not self._engine_idf and self._optimizes):
                return False
            if _has_dense(self._path) and self._embedder is None:  # its dense vectors' size is the embedder's
                return False
            self._rebuild(self._embedder.dimension if self._embedder and self._dense else None, engine_idf=False)
            self._engine_idf = False
        return True

    def _rebuild(self, dimension: int | None, engine_idf: bool) -> None:
        """Copy every point into a new shard of this configuration, optimize it, and put it in this one's
        place (the old directory is renamed away only once the new one is complete)."""
        old = self._live()
        fresh_path = self._path.with_name(self._path.name + ".reindex")
        shutil.rmtree(fresh_path, ignore_errors=True)
        fresh = EdgeShard.create(str(fresh_path), _config(dimension, engine_idf))
        try:
            _ensure_indexes(fresh)
            for records in _scroll(old, None, True):
                fresh.update(UpdateOperation.upsert_points([Point(r.id, r.vector or {}, r.payload) for r in records]))
            fresh.optimize()
            fresh.flush()
        finally:
            fresh.close()
        with self._swap:
            old.flush()
            old.close()
            self._shard = None
            retired = self._path.with_name(self._path.name + ".old")
            shutil.rmtree(retired, ignore_errors=True)
            self._path.rename(retired)
            fresh_path.rename(self._path)
            shutil.rmtree(retired, ignore_errors=True)
            self._shard = EdgeShard.load(str(self._path))
        self._written = 0
        self._optimizes = _optimized_as_it_grows(self._path)
        _release_freed_memory()

    def count(self, workspace_id: str, doc_name: str | None = None, *, unpublished: bool = False) -> int:
        scope = tenant_scope(workspace_id, doc_name, published=not unpublished)
        with self._using() as shard:
            return shard.count(CountRequest(exact=True, filter=_filter(scope)))

    def owners(self, workspace_id: str, chunk_ids: Sequence[str]) -> dict[str, str]:
        tenant_scope(workspace_id)
        found: dict[str, str] = {}
        for batch in batches(list(chunk_ids)):
            with self._using() as shard:
                found.update(owners_of(shard.retrieve([point_id(workspace_id, cid) for cid in batch], True, False)))
        return found

    def passages(self, workspace_id: str, doc_names: Sequence[str] | None = None) -> Iterator[list[str]]:
        flt = _filter(tenant_scope(workspace_id, doc_names=doc_names))
        for records in _pages(self._scroll_once, flt, False):
            yield texts_of(records)

    def _scroll_once(self, request: ScrollRequest) -> tuple[list[Record], Any]:
        """One page, the shard held only while it is read (a long reading of pages must not hold off `optimize`)."""
        with self._using() as shard:
            return shard.scroll(request)

    def renumber_document(self, workspace_id: str, doc_name: str) -> int:
        flt = _filter(tenant_scope(workspace_id, doc_name))
        with self._using() as shard:
            moved = renumbering(_scroll(shard, flt, True))
            for batch in batches(moved):
                points = [Point(point_id(workspace_id, new["chunk_id"]), r.vector or {}, new) for r, new in batch]
                shard.update(UpdateOperation.upsert_points(points))
                shard.update(UpdateOperation.delete_points([r.id for r, _ in batch]))
        return len(moved)

    def flush(self) -> None:
        with self._using() as shard:
            shard.flush()

    def close(self) -> None:
        with self._lock, self._swap:
            shard, self._shard = self._shard, None
        if shard is None:
            return
        # no flush first: Qdrant Edge's close "cleanly destroys the shard instance, ensuring the data is flushed"
        shard.close()

    def __enter__(self) -> EdgeStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
