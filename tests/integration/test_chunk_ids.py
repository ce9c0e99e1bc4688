"""Two documents whose names an older MASIS slugged alike (`Budget.md` / `budget.md`, `отчёт.md` / `бюджет.md`)
keep their own chunks, on both store backends; a store written by the older scheme is detected, reported and
renumbered by `masis reindex`, and no document is lost without a word."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from masis.chunk_ids import legacy_key
from masis.cli import main
from masis.config import Settings
from masis.engine import Engine
from masis.ingest.chunking import chunk_sections
from masis.ingest.loaders import Section
from masis.judge.terms import terms
from masis.records.registry import DocumentInfo, now_iso
from masis.store import QdrantServerStore
from tests.conftest import make_settings

pytestmark = pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning")

WS = "T1:C_IDS"
FACT_A = "The marketing budget for 2027 is 4.2 million euros."
FACT_B = "The cafeteria opens at half past seven every weekday."
QUESTION_A = "What is the marketing budget for 2027?"
QUESTION_B = "When does the cafeteria open on a weekday?"
PAIRS = [
    ("Budget.md", "budget.md"),
    ("Q3 report.md", "q3-report.md"),
    ("résumé.md", "resume.md"),
    ("отчёт.md", "бюджет.md"),
]


@pytest.fixture(params=["edge", "server"])
def make_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[type[Engine] | object]:
    """Engines over the embedded store, or over qdrant-client's local mode (the server backend's code)."""
    engines: list[Engine] = []

    def build(settings: Settings | None = None) -> Engine:
        settings = settings or make_settings(tmp_path / "data")
        store = QdrantServerStore(QdrantClient(":memory:"), "chunks") if request.param == "server" else None
        engine = Engine(settings, store=store)
        engines.append(engine)
        return engine

    yield build
    for engine in engines:
        engine.close()


def _answer(engine: Engine, question: str) -> tuple[str, list[str]]:
    outcome = engine.ask(WS, question)
    assert outcome.status == "answered", (outcome.status, outcome.answer)
    return outcome.answer or "", [c.doc_name for c in outcome.citations]


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_two_documents_whose_names_slug_alike_keep_their_own_chunks(make_engine, first: str, second: str) -> None:
    engine = make_engine()
    report = engine.ingest(WS, [(first, FACT_A.encode()), (second, FACT_B.encode())])
    assert [r.status for r in report.results] == ["indexed", "indexed"]
    assert engine.store.count(WS, first) == 1 and engine.store.count(WS, second) == 1

    answer, cited = _answer(engine, QUESTION_A)
    assert "4.2 million euros" in answer and cited == [first]
    answer, cited = _answer(engine, QUESTION_B)
    assert "half past seven" in answer and cited == [second]

    engine.remove_document(WS, second)
    assert [d.name for d in engine.documents(WS)] == [first]
    assert engine.store.count(WS) == engine.store.count(WS, first) == 1
    answer, cited = _answer(engine, QUESTION_A)
    assert "4.2 million euros" in answer and cited == [first]

    again = engine.ingest(WS, [(second, FACT_B.encode())])
    assert [r.status for r in again.results] == ["indexed"]
    answer, cited = _answer(engine, QUESTION_B)
    assert "half past seven" in answer and cited == [second]


def test_unicode_names_keep_their_letters_in_citations(make_engine) -> None:
    engine = make_engine()
    engine.ingest(WS, [("отчёт.md", FACT_A.encode())])
    outcome = engine.ask(WS, QUESTION_A)
    assert [c.chunk_id for c in outcome.citations] == ["отчёт.md#1"]
    assert "[отчёт.md#1]" in (outcome.answer or "")


def _index_the_old_way(engine: Engine, name: str, text: str) -> None:
    """What MASIS did before per-document keys: the same chunks under `legacy_key(name)#n` ids."""
    chunks = [
        dataclasses.replace(c, chunk_id=f"{legacy_key(name)}#{c.ordinal + 1}")
        for c in chunk_sections(name, [Section(text=text)], 900, 150)
    ]
    engine.store.upsert(WS, chunks)
    info = DocumentInfo(name, len(chunks), len(text), None, "old", now_iso(), f"sha-{name}")
    engine.registry.save_document(WS, info, (terms(c.text) for c in chunks))


def test_a_collision_left_by_an_older_store_is_reported_at_start_up_and_the_survivor_is_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = make_settings(tmp_path / "data")
    with Engine(settings) as old:
        _index_the_old_way(old, "Budget.md", f"{FACT_A} It was approved in March. " * 1)
        _index_the_old_way(old, "budget.md", FACT_B)  # overwrote Budget.md's chunk 1
    with caplog.at_level(logging.ERROR), Engine(settings) as engine:
        assert engine.recovery.collisions == [(WS, "Budget.md", ["budget.md"])]
        message = " ".join(r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR)
        assert "Budget.md" in message and "budget.md" in message and "upload it again" in message
        assert "masis reindex" in message
        assert [d.name for d in engine.documents(WS)] == ["budget.md"]
        assert engine.store.count(WS) == 1

        report = engine.ingest(WS, [("Budget.md", FACT_A.encode())])
        assert [r.status for r in report.results] == ["indexed"], "the survivor's old ids do not block it"
        assert "4.2 million euros" in _answer(engine, QUESTION_A)[0]
        assert "half past seven" in _answer(engine, QUESTION_B)[0]


def test_an_upload_whose_ids_an_older_document_holds_is_refused_until_reindex(
    make_engine, tmp_path: Path
) -> None:
    engine = make_engine()
    _index_the_old_way(engine, "Budget.md", FACT_A)  # stored as budget.md#1
    refused = engine.ingest(WS, [("budget.md", FACT_B.encode())])
    assert [r.status for r in refused.results] == ["failed"]
    assert "Budget.md" in (refused.results[0].reason or "") and "masis reindex" in (refused.results[0].reason or "")
    assert [d.name for d in engine.documents(WS)] == ["Budget.md"], "nothing was overwritten"
    assert "4.2 million euros" in _answer(engine, QUESTION_A)[0]

    assert engine.renumber_chunks() == {(WS, "Budget.md"): 1}
    assert engine.renumber_chunks(WS) == {}, "a second run has nothing to do"
    assert engine.store.count(WS, "Budget.md") == 1
    report = engine.ingest(WS, [("budget.md", FACT_B.encode())])
    assert [r.status for r in report.results] == ["indexed"]
    answer, cited = _answer(engine, QUESTION_A)
    assert "4.2 million euros" in answer and cited == ["Budget.md"] and "[Budget.md#1]" in answer
    answer, cited = _answer(engine, QUESTION_B)
    assert "half past seven" in answer and cited == ["budget.md"]


def test_masis_reindex_renumbers_an_older_store_without_embeddings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = make_settings(tmp_path / "data")
    with Engine(settings) as old:
        _index_the_old_way(old, "Q3 report.md", FACT_A)
    for key in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "QDRANT_URL", "MASIS_LLM"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("MASIS_DATA_DIR", str(settings.data_dir))
    monkeypatch.chdir(tmp_path)

    assert main(["reindex"]) == 0
    out = capsys.readouterr().out
    assert f"Renumbered 1 chunk(s) of Q3 report.md in {WS}." in out
    with Engine(settings) as engine:
        assert engine.recovery.clean
        outcome = engine.ask(WS, QUESTION_A)
        assert [c.chunk_id for c in outcome.citations] == ["Q3-report.md~dfd0bb6d#1"]
