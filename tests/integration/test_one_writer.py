"""One document, one writer: uploads, replacements and removals of one (workspace, document name) go one at a
time, a replacement becomes visible whole or not at all, and what the registry lists the store holds, before
and after a restart. Concurrency is staged at pause points (masis.pause), never timed."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from qdrant_client import QdrantClient

from masis.engine import Engine
from masis.ingest import pipeline
from masis.pause import hooked
from masis.store.edge import EdgeStore
from masis.store.server import QdrantServerStore
from tests.bigdoc import document
from tests.conftest import make_settings
from tests.gates import Flag, Gate, Worker, first_of

if TYPE_CHECKING:
    from masis.ingest.pipeline import IngestReport
    from masis.store.base import ChunkRecord, SparseVec

pytestmark = pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning")

WS = "T1:C_WRITERS"
NAME = "doc.txt"
BATCH = 64  # chunks the pipeline writes at a time here (512 in production): the same steps, fewer points
BIG = 200  # paragraphs, about 150 chunks: three batches


ONE_LINE = b"The osprey note says the launch moved to Porto."


@pytest.fixture(autouse=True)
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "UPSERT_BATCH", BATCH)


@pytest.fixture(params=["edge", "server"])
def open_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Engine]]:
    """Opens an Engine on one data directory, again after a restart: over the embedded store, or over
    qdrant-client's local mode on disk (the server backend's code)."""
    settings = make_settings(tmp_path / "data")
    opened: list[Engine] = []

    def build() -> Engine:
        for engine in opened:  # a restart: the previous engine lets go of its store first
            engine.close()
        store = None
        if request.param == "server":
            store = QdrantServerStore(QdrantClient(path=str(tmp_path / "qdrant")), "chunks")
        opened.append(Engine(settings, store=store))
        return opened[-1]

    yield build
    for engine in opened:
        engine.close()


def statuses(report: IngestReport) -> list[str]:
    return [r.status for r in report.results]


def assert_whole(engine: Engine, word: str, count: int, other: str) -> None:
    """The document is the version of `word` with `count` paragraphs (a chunk each), every part of it
    answerable, nothing of the version of `other`, and the registry and the store agree."""
    doc = engine.registry.document(WS, NAME)
    assert doc is not None, "the document is gone"
    assert engine.store.count(WS, NAME) == doc.chunks, "the registry and the store disagree"
    assert engine.store.count(WS) == engine.registry.chunk_total(WS)
    for i in sorted({0, count // 2, count - 1}):
        hits = engine.store.search(WS, f"tally{i:04d} {word}" if count > 1 else word, 3)
        assert hits and word in hits[0].text, f"paragraph {i} of the {word} version is not answerable"
    assert engine.store.search(WS, other, 5) == [], f"chunks of the {other} version are still answerable"
    assert engine.store.count(WS, NAME, unpublished=True) == 0


def test_two_uploads_of_one_name_at_once_end_with_the_later_one_whole(open_engine: Callable[[], Engine]) -> None:
    """The tracker's case: a big upload, and a one-line file of the same name a moment later."""
    engine = open_engine()
    held, waiting = Gate("first"), Flag("second")
    with hooked("ingest:upserted-batch", held), hooked("documents:waiting", waiting):
        first = Worker("first", lambda: engine.ingest(WS, [(NAME, document("heron", BIG))]))
        assert held.wait(), "the first upload never wrote a batch"
        second = Worker("second", lambda: engine.ingest(WS, [(NAME, ONE_LINE)]))
        assert first_of(waiting.raised, second.finished)  # it waits for the first (or, unserialized, ran)
        held.release()
        assert statuses(first.outcome()) == ["indexed"]
        assert statuses(second.outcome()) == ["indexed"]
    assert_whole(engine, "osprey", 1, other="heron")
    engine = open_engine()  # a restart
    assert engine.recovery.clean, engine.recovery
    assert_whole(engine, "osprey", 1, other="heron")


def test_a_double_submitted_upload_waits_for_the_first_and_is_unchanged(tmp_path: Path) -> None:
    with Engine(make_settings(tmp_path / "data")) as engine:
        held, waiting = Gate("first"), Flag("second")
        data = document("heron", BIG)
        with hooked("ingest:upserted-batch", held), hooked("documents:waiting", waiting):
            first = Worker("first", lambda: engine.ingest(WS, [(NAME, data)]))
            assert held.wait()
            second = Worker("second", lambda: engine.ingest(WS, [(NAME, data)]))
            assert first_of(waiting.raised, second.finished)
            held.release()
            assert statuses(first.outcome()) == ["indexed"]
            again = second.outcome()
        assert statuses(again) == ["unchanged"]
        assert again.results[0].chunks == engine.registry.document(WS, NAME).chunks  # type: ignore[union-attr]
        assert_whole(engine, "heron", BIG, other="osprey")


@pytest.mark.parametrize("first", ["removal", "upload"])
def test_a_removal_and_an_upload_of_one_name_go_one_after_the_other(tmp_path: Path, first: str) -> None:
    """Whichever comes first finishes first; the other then acts on what it left: the document removed and
    then uploaded again (whole), or uploaded and then removed (gone, from the registry and the store)."""
    settings = make_settings(tmp_path / "data")
    second = "upload" if first == "removal" else "removal"
    work: dict[str, Callable[[], object]] = {
        "removal": lambda: engine.remove_document(WS, NAME),
        "upload": lambda: engine.ingest(WS, [(NAME, document("heron", BIG))]),
    }
    with Engine(settings) as engine:
        assert statuses(engine.ingest(WS, [(NAME, ONE_LINE)])) == ["indexed"]
        held, waiting = Gate(first), Flag(second)
        point = "remove:checked" if first == "removal" else "ingest:upserted-batch"
        with hooked(point, held), hooked("documents:waiting", waiting):
            leader = Worker(first, work[first])
            assert held.wait()
            follower = Worker(second, work[second])
            assert first_of(waiting.raised, follower.finished)
            held.release()
            results = {first: leader.outcome(), second: follower.outcome()}
        assert statuses(results["upload"]) == ["indexed"]  # type: ignore[arg-type]
        if first == "removal":
            assert_whole(engine, "heron", BIG, other="osprey")
        else:
            assert engine.documents(WS) == [] and engine.store.count(WS) == 0
    with Engine(settings) as engine:
        assert engine.recovery.clean, engine.recovery
        if first == "removal":
            assert_whole(engine, "heron", BIG, other="osprey")
        else:
            assert engine.documents(WS) == [] and engine.store.count(WS) == 0


def _one_version(texts: Sequence[str]) -> set[str]:
    return {word for word in ("heron", "osprey") if any(word in text for text in texts)}


def test_a_reader_during_a_replacement_sees_one_version_whole(open_engine: Callable[[], Engine]) -> None:
    """While the new version is written, the old one answers alone and is listed; once the switch starts, a
    search shows one version of the document, never a mix and never nothing."""
    engine = open_engine()
    old_count = 40
    assert statuses(engine.ingest(WS, [(NAME, document("heron", old_count))])) == ["indexed"]
    old = engine.registry.document(WS, NAME)
    assert old is not None
    gates = {point: Gate("upload") for point in ("ingest:upserted-batch", "ingest:published", "ingest:recorded")}
    seen: dict[str, set[str]] = {}
    with hooked("ingest:upserted-batch", gates["ingest:upserted-batch"]), \
            hooked("ingest:published", gates["ingest:published"]), \
            hooked("ingest:recorded", gates["ingest:recorded"]):
        upload = Worker("upload", lambda: engine.ingest(WS, [(NAME, document("osprey", BIG))]))
        for point, gate in gates.items():
            assert gate.wait(), f"the replacement never reached {point}"
            hits = engine.store.search(WS, "ledger entry records the team filed report", 50)
            seen[point] = _one_version([h.text for h in hits])
            assert len(seen[point]) == 1, f"at {point} a search showed {seen[point] or 'nothing'}"
            if point == "ingest:upserted-batch":  # the old version, whole, and still the one listed
                assert engine.registry.document(WS, NAME) == old
                assert engine.store.count(WS, NAME) == old.chunks
                assert engine.store.search(WS, "osprey", 5) == []
                assert engine.store.search(WS, f"tally{old_count - 1:04d} heron", 1)[0].text.count("heron") > 0
            gate.release()
        assert statuses(upload.outcome()) == ["indexed"]
    assert seen["ingest:upserted-batch"] == {"heron"}
    assert_whole(engine, "osprey", BIG, other="heron")


class _FailsOnSecondBatch(EdgeStore):
    """The real embedded store, except that the second batch of `doc.txt`'s chunks fails to write (a store
    error no input file can cause on purpose)."""

    batches = 0

    def upsert(
        self,
        workspace_id: str,
        chunks: Sequence[ChunkRecord],
        vectors: Sequence[SparseVec] | None = None,
        versions: Mapping[str, str] | None = None,
    ) -> None:
        if any(chunk.doc_name == NAME for chunk in chunks):
            self.batches += 1
            if self.batches == 3:  # the first upload wrote one batch; the replacement's second fails
                raise OSError("disk full")
        super().upsert(workspace_id, chunks, vectors, versions)


def test_a_replacement_that_fails_half_way_keeps_the_previous_version(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "data")
    with Engine(settings, store=_FailsOnSecondBatch(settings.edge_store_path)) as engine:
        assert statuses(engine.ingest(WS, [(NAME, document("heron", 40))])) == ["indexed"]
        failed = engine.ingest(WS, [(NAME, document("osprey", BIG))])
        assert statuses(failed) == ["failed"]
        assert_whole(engine, "heron", 40, other="osprey")
    with Engine(settings) as engine:
        assert engine.recovery.clean, engine.recovery
        assert_whole(engine, "heron", 40, other="osprey")
