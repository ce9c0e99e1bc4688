"""BM25's stop words (Qdrant's English list plus `masis.judge.stopwords`): function words are not terms, words that
name or count something are, and a store indexed with the earlier, shorter list keeps answering."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from qdrant_client import QdrantClient
from qdrant_edge import Bm25, Bm25Config

import masis.judge.terms
from masis.engine import Engine
from masis.judge.matching import question
from masis.judge.terms import AVERAGE_CHUNK_TOKENS, document_vector, terms
from masis.store import ChunkRecord, EdgeStore, QdrantServerStore, VectorStore
from masis.store.payload import index_text

pytestmark = pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning")

# MASIS's BM25 before `masis.judge.stopwords`: Qdrant's English stop words only.
EARLIER = Bm25(Bm25Config(language="english", avg_len=AVERAGE_CHUNK_TOKENS))


def earlier_vector(text: str) -> tuple[list[int], list[float]]:
    vec = EARLIER.embed_document(text)
    return list(vec.indices), list(vec.values)


REFUNDS = "Refunds are issued within thirty days when the customer returns the product unopened."
HANDBOOK = [
    ChunkRecord("handbook.txt#1", "handbook.txt", "Employees accrue twenty days of paid vacation per year.", 0),
    ChunkRecord("handbook.txt#2", "handbook.txt", REFUNDS, 1),
    ChunkRecord("handbook.txt#3", "handbook.txt", "The office is closed on public holidays.", 2),
]


def test_function_words_are_not_terms() -> None:
    assert terms("According to the report, using the data whereby we would like") == terms("report data")
    assert not terms("please nevertheless therefore furthermore")


@pytest.mark.parametrize("text", ["second", "first", "new", "old", "value", "Plan B", "name", "last"])
def test_numerals_letters_and_naming_words_stay_terms(text: str) -> None:
    assert terms(text)


def test_terms_keep_the_ids_of_the_earlier_tokenizer() -> None:
    """Only stop words left: every other term has the id an older store indexed it under."""
    text = f"According to the handbook: {REFUNDS}"
    earlier = frozenset(EARLIER.embed_query(text).indices)
    assert terms(text) < earlier
    assert earlier - terms(text) == frozenset(EARLIER.embed_query("according within").indices)


@pytest.fixture(params=["edge", "server"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[VectorStore]:
    backend: VectorStore = (
        EdgeStore(tmp_path / "edge") if request.param == "edge" else QdrantServerStore(QdrantClient(":memory:"), "t")
    )
    yield backend
    backend.close()


def test_a_store_indexed_with_the_earlier_stop_words_still_ranks_by_its_content_words(store: VectorStore) -> None:
    store.upsert("ws", HANDBOOK, [earlier_vector(index_text(chunk)) for chunk in HANDBOOK])
    hits = store.search("ws", "According to the handbook, when would refunds be issued?", 3)
    assert hits[0].chunk_id == "handbook.txt#2"
    # re-ingesting writes the new vectors: the same chunk ranks first
    store.upsert("ws", HANDBOOK, [document_vector(index_text(chunk)) for chunk in HANDBOOK])
    assert store.search("ws", "According to the handbook, when would refunds be issued?", 3)[0].chunk_id == (
        "handbook.txt#2"
    )


def test_an_engine_over_a_store_indexed_with_the_earlier_stop_words_still_answers(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Vectors and term statistics written by the earlier tokenizer (a store from before this change)."""
    with monkeypatch.context() as old_masis:
        old_masis.setattr(masis.judge.terms, "_bm25", lambda: EARLIER)  # the one place both backends' vectors come from
        text = "\n\n".join(chunk.text for chunk in HANDBOOK)
        assert not engine.ingest("ws", [("handbook.txt", text.encode())]).failed
    masis.judge.terms._question_word_terms.cache_clear()
    question.cache_clear()
    within = EARLIER.embed_query("within").indices[0]  # a stop word now, a term then: the store is the old kind
    assert engine.registry.document_frequencies("ws", [within]) == {within: 1} and not terms("within")
    outcome = engine.ask("ws", "When would refunds normally be issued?")
    assert outcome.status == "answered"
    assert "thirty days" in outcome.answer
