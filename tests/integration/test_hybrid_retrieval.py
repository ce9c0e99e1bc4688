"""Hybrid retrieval: dense vectors (OpenAIEmbeddings over HTTP to the local server) beside BM25, fused by
RRF; cached, batched embedding; a BM25-only store upgraded by `masis reindex`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from masis.cli import main
from masis.engine import Engine
from masis.store import ChunkRecord, EdgeStore, QdrantServerStore
from masis.store.embeddings import make_embedder
from tests.conftest import make_settings
from tests.openai_server import OpenAICompatServer, openai_settings

pytestmark = pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning")

WS = "T1:C_HYBRID"
PAYROLL = [
    ChunkRecord("payroll.md#0", "payroll.md", "Staff parking is free at the north entrance.", 0),
    ChunkRecord("payroll.md#1", "payroll.md", "Interns earn course credit instead of a stipend.", 1),
    ChunkRecord("payroll.md#2", "payroll.md", "Staff salaries average $80,000.", 2),
    ChunkRecord("payroll.md#3", "payroll.md", "The cafeteria opens at eight and closes at three.", 3),
]
QUESTION = "How much do staff earn?"  # the answer says "salaries", not "earn"


@pytest.fixture(scope="module")
def server() -> Iterator[OpenAICompatServer]:
    srv = OpenAICompatServer().start()
    yield srv
    srv.stop()


@pytest.mark.parametrize("backend", ["edge", "server"])
def test_a_paraphrased_question_ranks_its_answer_higher_than_bm25_alone(
    backend: str, tmp_path: Path, server: OpenAICompatServer
) -> None:
    embedder = make_embedder(openai_settings(tmp_path / "data", server))
    assert embedder is not None
    if backend == "edge":
        bm25, hybrid = EdgeStore(tmp_path / "bm25"), EdgeStore(tmp_path / "hybrid", embedder)
    else:
        bm25 = QdrantServerStore(QdrantClient(":memory:"), "bm25")
        hybrid = QdrantServerStore(QdrantClient(":memory:"), "hybrid", embedder)
    try:
        for store in (bm25, hybrid):
            store.upsert(WS, PAYROLL)
        plain = [h.chunk_id for h in bm25.search(WS, QUESTION, limit=4)]
        fused = hybrid.search(WS, QUESTION, limit=4)
    finally:
        bm25.close()
        hybrid.close()
        embedder.close()

    assert plain.index("payroll.md#2") > 0, plain  # BM25 prefers the chunks that repeat the question's words
    assert fused[0].chunk_id == "payroll.md#2"
    assert fused[0].dense_score is not None and fused[0].dense_score >= 0.6
    assert "payroll.md#3" not in [h.chunk_id for h in fused]


def test_embeddings_are_batched_and_unchanged_chunks_are_not_embedded_again(
    tmp_path: Path, server: OpenAICompatServer
) -> None:
    settings = openai_settings(tmp_path / "data", server, embed_batch_size=3, chunk_chars=80, chunk_overlap_chars=0)
    texts = [f"Paragraph {i} of the handbook talks about topic number {i}." for i in range(7)]
    with Engine(settings) as engine:
        assert engine.embedder is not None
        server.reset()
        engine.ingest("ws", [("handbook.txt", "\n\n".join(texts).encode())])
        first = [len(r.body["input"]) for r in server.embedding_requests()]
        server.reset()
        engine.ingest("ws", [("copy.txt", "\n\n".join(texts).encode())])  # same chunk texts: all cached
        second = server.embedding_requests()

    assert len(first) >= 3 and max(first) <= 3  # several requests of at most MASIS_EMBED_BATCH_SIZE texts
    assert second == [], "identical chunk texts come from the cache"


def test_a_bm25_only_store_keeps_working_and_reindex_adds_dense_vectors(
    tmp_path: Path, server: OpenAICompatServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    docs = [("payroll.md", "\n\n".join(c.text for c in PAYROLL).encode()), ("other.md", b"Other team notes.")]
    with Engine(make_settings(data)) as offline:  # the extractive engine: a store without dense vectors
        assert not offline.ingest(WS, docs).failed
        assert not offline.ingest("T1:C_OTHER", [("x.md", b"Staff salaries are reviewed in May.")]).failed

    with Engine(openai_settings(data, server)) as engine:
        assert engine.store.hybrid is False  # type: ignore[attr-defined]
        hits = engine.store.search(WS, "staff parking", limit=3)
        assert hits and hits[0].dense_score is None

    for key, value in {
        "MASIS_DATA_DIR": str(data),
        "MASIS_LLM": "openai",
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_BASE_URL": server.base_url,
        "MASIS_EMBED_MODEL": "test-embed-small",
        "QDRANT_URL": "",
    }.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("QDRANT_URL")
    assert main(["reindex", "--workspace", WS]) == 0
    assert "workspace T1:C_HYBRID" in capsys.readouterr().out

    with Engine(openai_settings(data, server)) as engine:
        assert engine.store.hybrid is True  # type: ignore[attr-defined]
        assert engine.store.count(WS) >= 1 and engine.store.count("T1:C_OTHER") == 1
        fused = engine.store.search(WS, QUESTION, limit=3)
        assert any(h.dense_score is not None for h in fused)
        other = engine.store.search("T1:C_OTHER", "staff salaries", limit=3)
        assert other and other[0].dense_score is None, "only the named workspace was embedded"
        assert engine.reindex(WS) == 0, "nothing left to embed"
        assert engine.reindex() == 1, "the other workspace's one chunk"


def test_an_embeddings_outage_during_ingest_is_the_files_reason(tmp_path: Path, server: OpenAICompatServer) -> None:
    with Engine(openai_settings(tmp_path / "data", server)) as engine:
        server.reset()
        server.fail("500", role="embed", times=3)  # the first try and both retries
        report = engine.ingest("ws", [("a.md", b"Staff salaries average $80,000.")])
        retried = engine.ingest("ws", [("a.md", b"Staff salaries average $80,000.")])

    assert [r.status for r in report.results] == ["failed"]
    reason = report.results[0].reason or ""
    assert "test-embed-small" in reason and "HTTP 500" in reason and "sk-test" not in reason
    assert [r.status for r in retried.results] == ["indexed"], "nothing was recorded for the failed attempt"


def test_an_embeddings_outage_while_replacing_a_document_keeps_the_old_version(
    tmp_path: Path, server: OpenAICompatServer
) -> None:
    with Engine(openai_settings(tmp_path / "data", server)) as engine:
        server.reset()
        assert not engine.ingest("ws", [("pay.md", b"Staff salaries average $80,000 a year.")]).failed
        server.fail("500", role="embed", times=3)
        report = engine.ingest("ws", [("pay.md", b"Staff salaries average $95,000 a year now.")])
        documents = engine.documents("ws")
        outcome = engine.ask("ws", "What do staff salaries average?")

    assert [r.status for r in report.results] == ["failed"]
    assert [d.name for d in documents] == ["pay.md"]
    assert "$80,000" in (outcome.answer or "")


def test_reindex_without_embeddings_renumbers_and_says_what_to_set_for_dense_vectors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for key in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "QDRANT_URL", "MASIS_LLM"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("MASIS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)  # no .env here

    assert main(["reindex"]) == 0
    out = capsys.readouterr().out
    assert "Chunk ids in every workspace are up to date" in out
    assert "No dense vectors added: hybrid retrieval needs embeddings" in out and "OPENAI_API_KEY" in out


def test_the_openai_provider_without_key_or_server_says_what_to_set(tmp_path: Path) -> None:
    from masis.errors import MasisError

    with pytest.raises(MasisError, match="OPENAI_API_KEY"):
        Engine(make_settings(tmp_path / "data", llm="openai"))


def test_reindex_rebuilds_a_bm25_only_server_collection_with_dense_vectors(
    tmp_path: Path, server: OpenAICompatServer
) -> None:
    client = QdrantClient(":memory:")
    plain = QdrantServerStore(client, "chunks")
    plain.upsert(WS, PAYROLL)
    plain.upsert("T1:C_OTHER", [ChunkRecord("x.md#0", "x.md", "Staff salaries are reviewed in May.", 0)])
    embedder = make_embedder(openai_settings(tmp_path / "data", server))
    assert embedder is not None
    upgraded = QdrantServerStore(client, "chunks", embedder)  # the same collection, now with an embedder
    try:
        assert upgraded.hybrid is False
        assert upgraded.search(WS, QUESTION, limit=4)[0].dense_score is None

        assert upgraded.reindex(WS) == len(PAYROLL)

        assert upgraded.hybrid is True
        assert upgraded.count(WS) == len(PAYROLL) and upgraded.count("T1:C_OTHER") == 1
        assert upgraded.search(WS, QUESTION, limit=4)[0].chunk_id == "payroll.md#2"
        assert upgraded.search("T1:C_OTHER", "staff salaries", limit=1)[0].dense_score is None
        assert upgraded.reindex() == 1
        assert not client.collection_exists("chunks__reindex")
    finally:
        upgraded.close()
        embedder.close()
