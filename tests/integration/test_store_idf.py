"""The embedded store weighs BM25's IDF by the registry's per-workspace statistics (`masis.store.idf`) instead
of having Qdrant Edge count the tenant on every query: the same hits, in the same order, with the same
scores as Qdrant's own per-tenant IDF; tenants stay apart; a data directory written before (its shard
carrying the IDF modifier) still answers as it did; and optimizing the shard changes no answer."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from qdrant_edge import EdgeConfig, EdgeShard, EdgeSparseVectorParams, Modifier

from masis.engine import Engine
from masis.errors import MasisError
from masis.store.base import ChunkRecord, Hit, tenant_scope
from masis.store.edge import EdgeStore, _filter, _scroll
from tests.conftest import make_settings

WS_A = "T1:C_ALPHA"
WS_B = "T1:C_BETA"
TOPICS = ["budget", "launch", "hiring", "security", "travel", "pricing", "roadmap", "benefits"]
LIMIT = 500  # more than any question here matches
QUESTIONS = [
    "budget review costs",
    "security launch quarter",
    "travel pricing thousand",
    "hiring roadmap item",
    "benefits memo review found",
    "quarter 3 costs",
]


def _files(count: int, salt: int) -> list[tuple[str, bytes]]:
    """Documents of uneven topics, so term frequencies (and so IDF) differ between the two workspaces."""
    files = []
    for i in range(count):
        topic = TOPICS[(i * salt) % len(TOPICS)]
        body = " ".join(
            f"The {topic} review number {i} found item {j} costs ${i * 10 + j} thousand in quarter {j % 4 + 1}."
            for j in range(2 + (i * salt) % 6)
        )
        if i % 3 == 0:  # a markdown file: its chunks carry a heading into the index
            files.append((f"note-{i}.md", f"# {topic.title()} plan {i}\n\n{body}\n\n## Details\n\n{body}".encode()))
        else:
            files.append((f"memo-{i}.txt", f"{topic.title()} memo {i}\n\n{body}".encode()))
    return files


def _same(left: list[Hit], right: list[Hit]) -> None:
    """The same hits with the same scores (to float rounding), in the same order of scores: chunks that tie
    may come in either order, so every search here asks for more hits than match."""
    assert len(left) == len(right) and len(left) < LIMIT
    assert [h.score for h in left] == pytest.approx([h.score for h in right], rel=1e-5)
    theirs = {h.chunk_id: h for h in right}
    for hit in left:
        assert hit.chunk_id in theirs
        assert (hit.doc_name, hit.text, hit.section) == (theirs[hit.chunk_id].doc_name,
                                                         theirs[hit.chunk_id].text, theirs[hit.chunk_id].section)
        assert hit.score == pytest.approx(theirs[hit.chunk_id].score, rel=1e-5)


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    with Engine(make_settings(tmp_path / "data")) as engine:
        engine.ingest(WS_A, _files(24, 1))
        engine.ingest(WS_B, _files(9, 3))
        yield engine


def _reference(engine: Engine, tmp_path: Path) -> EdgeStore:
    """The same chunks in a store that has Qdrant count each tenant's IDF (the way every store did before)."""
    store = engine.store
    assert isinstance(store, EdgeStore)
    reference = EdgeStore(tmp_path / "reference")
    for workspace in (WS_A, WS_B):
        for records in _scroll(store._live(), _filter(tenant_scope(workspace)), False):
            payloads = [r.payload or {} for r in records]
            reference.upsert(workspace, [
                ChunkRecord(p["chunk_id"], p["doc_name"], p["text"], p["ordinal"], p.get("page"), p.get("section"))
                for p in payloads
            ])
    return reference


def test_a_new_store_has_no_engine_idf_and_ranks_as_qdrants_per_tenant_idf(engine: Engine, tmp_path: Path) -> None:
    store = engine.store
    assert isinstance(store, EdgeStore)
    assert not store._engine_idf  # a new store: the registry's statistics weigh each query
    with _reference(engine, tmp_path) as reference:
        assert reference._engine_idf
        for workspace in (WS_A, WS_B):
            assert reference.count(workspace) == store.count(workspace) == engine.registry.chunk_total(workspace)
            for question in QUESTIONS:
                _same(store.search(workspace, question, LIMIT), reference.search(workspace, question, LIMIT))
            # a query filtered to one document too
            name = engine.documents(workspace)[1].name
            _same(store.search(workspace, "review costs", LIMIT, doc_name=name),
                  reference.search(workspace, "review costs", LIMIT, doc_name=name))


def test_workspaces_stay_apart_and_each_is_weighed_by_its_own_statistics(engine: Engine) -> None:
    a_names = {doc.name for doc in engine.documents(WS_A)}
    b_names = {doc.name for doc in engine.documents(WS_B)}
    for question in QUESTIONS:
        assert {h.doc_name for h in engine.store.search(WS_B, question, 50)} <= b_names
    assert engine.store.search("T1:C_NOBODY", "budget review", 10) == []
    engine.ingest("T1:C_SECRET", [("vault.txt", b"Vault combination zebra omega seven.")])
    assert all(h.doc_name != "vault.txt" for h in engine.store.search(WS_A, "vault combination zebra", 10))
    # one workspace's statistics never shape another's scores: adding documents to A leaves B's unchanged
    before = {q: engine.store.search(WS_B, q, LIMIT) for q in QUESTIONS}
    engine.ingest(WS_A, [(f"extra-{i}.txt", f"Budget review {i} costs more.".encode()) for i in range(5)])
    for question in QUESTIONS:
        _same(engine.store.search(WS_B, question, LIMIT), before[question])
    assert a_names < {doc.name for doc in engine.documents(WS_A)}


def test_a_data_directory_written_before_still_answers_as_it_did(tmp_path: Path) -> None:
    """A shard created the way MASIS created every shard before (the IDF modifier on its BM25 vectors) keeps
    Qdrant's per-tenant IDF when the new engine opens it, and answers as a new store does."""
    old = make_settings(tmp_path / "old")
    old.edge_store_path.mkdir(parents=True)
    config = EdgeConfig(sparse_vectors={"bm25": EdgeSparseVectorParams(modifier=Modifier.Idf)})
    EdgeShard.create(str(old.edge_store_path), config).close()
    with Engine(old) as before, Engine(make_settings(tmp_path / "new")) as now:
        for engine in (before, now):
            engine.ingest(WS_A, _files(12, 1))
            engine.ingest(WS_B, _files(6, 3))
        assert isinstance(before.store, EdgeStore) and before.store._engine_idf
        assert not before.store._optimizes  # left as it was: never optimized as it grows
        assert isinstance(now.store, EdgeStore) and not now.store._engine_idf and now.store._optimizes
        for workspace in (WS_A, WS_B):
            for question in QUESTIONS:
                _same(before.store.search(workspace, question, LIMIT), now.store.search(workspace, question, LIMIT))
    with Engine(old) as reopened:  # and again after a restart; `masis reindex` rebuilds it as a new store is
        assert isinstance(reopened.store, EdgeStore)
        answers = {(w, q): reopened.store.search(w, q, LIMIT) for w in (WS_A, WS_B) for q in QUESTIONS}
        assert reopened.store.upgrade()
        assert not reopened.store._engine_idf and reopened.store._optimizes and not reopened.store.upgrade()
        for (workspace, question), hits in answers.items():
            _same(reopened.store.search(workspace, question, LIMIT), hits)
    with Engine(old) as upgraded:
        assert isinstance(upgraded.store, EdgeStore) and not upgraded.store._engine_idf
        _same(upgraded.store.search(WS_A, QUESTIONS[0], LIMIT), answers[(WS_A, QUESTIONS[0])])


def test_a_store_weighed_by_the_registry_is_not_searched_without_it(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "data")
    with Engine(settings) as engine:
        engine.ingest(WS_A, _files(3, 1))
    with EdgeStore(settings.edge_store_path) as bare:
        assert bare.count(WS_A) > 0
        with pytest.raises(MasisError, match="term statistics"):
            bare.search(WS_A, "budget review", 3)
    with Engine(settings) as engine:  # the engine gives them
        assert engine.store.search(WS_A, "budget review", 3)


def test_optimizing_the_shard_changes_no_answer(engine: Engine) -> None:
    store = engine.store
    assert isinstance(store, EdgeStore)
    before = {(w, q): store.search(w, q, LIMIT) for w in (WS_A, WS_B) for q in QUESTIONS}
    store.optimize()
    for (workspace, question), hits in before.items():
        _same(store.search(workspace, question, LIMIT), hits)
    assert {w: store.count(w) for w in (WS_A, WS_B)} == {
        w: engine.registry.chunk_total(w) for w in (WS_A, WS_B)
    }


def test_searches_during_an_optimization_all_answer(engine: Engine) -> None:
    """`optimize` loads the shard afresh at its end; a search meanwhile waits for it rather than failing."""
    store = engine.store
    assert isinstance(store, EdgeStore)
    expected = store.search(WS_A, QUESTIONS[0], LIMIT)
    failures: list[BaseException] = []
    done = threading.Event()

    def ask() -> None:
        while not done.is_set():
            try:
                _same(store.search(WS_A, QUESTIONS[0], LIMIT), expected)
            except BaseException as exc:
                failures.append(exc)
                return

    reader = threading.Thread(target=ask)
    reader.start()
    try:
        for _ in range(3):
            store.optimize()
    finally:
        done.set()
        reader.join()
    assert failures == []
