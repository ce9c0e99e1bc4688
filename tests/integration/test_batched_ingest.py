"""Ingest indexes files in groups (three registry transactions a group however many files, large store
upserts), and the result is the same as indexing them one at a time: the same points, the same term
statistics, the same search results, and each file still succeeds or fails on its own."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from qdrant_client import QdrantClient

from masis.engine import Engine
from masis.ingest import pipeline
from masis.judge.terms import terms
from masis.store.base import ChunkRecord
from masis.store.edge import EdgeStore
from masis.store.server import QdrantServerStore
from tests.conftest import make_settings

if TYPE_CHECKING:
    from masis.store.base import SparseVec

TOPICS = ["budget", "launch", "hiring", "security", "travel", "pricing", "roadmap", "benefits"]


def _files(count: int) -> list[tuple[str, bytes]]:
    files = []
    for i in range(count):
        topic = TOPICS[i % len(TOPICS)]
        body = " ".join(
            f"The {topic} review number {i} found item {j} costs ${i * 10 + j} thousand in quarter {j % 4 + 1}."
            for j in range(3 + i % 5)
        )
        if i % 3 == 0:  # a markdown file: chunks carry a section heading into the index
            files.append((f"note-{i}.md", f"# {topic.title()} plan {i}\n\n{body}\n\n## Details\n\n{body}".encode()))
        else:  # a text file with a title line
            files.append((f"memo-{i}.txt", f"{topic.title()} memo {i}\n\n{body}".encode()))
    return files


def _store(kind: str, tmp_path: Path, label: str) -> EdgeStore | QdrantServerStore:
    if kind == "server":
        return QdrantServerStore(QdrantClient(":memory:"), f"masis_{label}")
    return EdgeStore(tmp_path / label / "edge")


@pytest.fixture(params=["edge", "server"])
def engines(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Engine, Engine]]:
    """Two engines over fresh stores of the same backend."""
    one = Engine(make_settings(tmp_path / "one"), store=_store(request.param, tmp_path, "one"))
    two = Engine(make_settings(tmp_path / "two"), store=_store(request.param, tmp_path, "two"))
    with one, two:
        yield one, two


def test_one_call_indexes_exactly_like_one_file_at_a_time(engines: tuple[Engine, Engine]) -> None:
    batched, single = engines
    files = _files(40)
    report = batched.ingest("ws", files)
    for file in files:
        single.ingest("ws", [file])
    assert [r.status for r in report.results] == ["indexed"] * len(files)
    assert sorted((r.name, r.chunks) for r in report.results) == [(d.name, d.chunks) for d in single.documents("ws")]
    assert batched.documents("ws") != [] and [(d.name, d.chunks, d.sha256) for d in batched.documents("ws")] == [
        (d.name, d.chunks, d.sha256) for d in single.documents("ws")
    ]
    vocabulary = sorted(set().union(*(terms(data.decode()) for _, data in files)))
    assert batched.registry.document_frequencies("ws", vocabulary) == single.registry.document_frequencies(
        "ws", vocabulary
    )
    assert batched.store.count("ws") == single.store.count("ws") == batched.registry.chunk_total("ws")
    for query in ["budget review quarter", "security plan details", "pricing memo 13 item 2"]:
        # all hits with their scores (equal scores may come back in either order; float sums differ in the last bits)
        ours = {h.chunk_id: h.score for h in batched.store.search("ws", query, 1000)}
        theirs = {h.chunk_id: h.score for h in single.store.search("ws", query, 1000)}
        assert ours and ours == pytest.approx(theirs, rel=1e-5, abs=1e-6)


def test_files_of_the_same_name_in_one_call_apply_in_order(engines: tuple[Engine, Engine]) -> None:
    engine, _ = engines
    report = engine.ingest(
        "ws",
        [
            ("a/plan.txt", b"The Falcon budget is two million, says Heron."),
            ("other.txt", b"The Osprey launch is in April."),
            ("b/plan.txt", b"The Falcon budget is $3 million. The Falcon team has nine people."),
            ("c/plan.txt", b"The Falcon budget is $3 million. The Falcon team has nine people."),
        ],
    )
    assert [(r.name, r.status) for r in report.results] == [
        ("plan.txt", "indexed"),
        ("other.txt", "indexed"),
        ("plan.txt", "indexed"),
        ("plan.txt", "unchanged"),
    ]
    assert engine.store.count("ws", "plan.txt") == engine.registry.document("ws", "plan.txt").chunks  # type: ignore[union-attr]
    gone, present = terms("Heron"), terms("million nine Osprey")  # the first plan.txt's terms were replaced
    frequencies = engine.registry.document_frequencies("ws", [*gone, *present])
    assert gone and frequencies == {**{t: 0 for t in gone}, **{t: 1 for t in present}}


def test_registry_transactions_do_not_grow_with_the_number_of_files(tmp_path: Path) -> None:
    with Engine(make_settings(tmp_path / "data")) as engine:
        statements: list[str] = []
        engine.registry._conn.set_trace_callback(statements.append)
        report = engine.ingest("ws", _files(60))
        assert not report.failed
        # for the group: the writes begun, the documents listed, the writes closed
        assert sum(s.startswith("BEGIN") for s in statements) == 3


def test_many_files_are_indexed_in_several_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "GROUP_CHUNKS", 7)
    progress: list[tuple[int, int]] = []
    with Engine(make_settings(tmp_path / "data")) as engine:
        report = engine.ingest("ws", _files(25), on_progress=lambda done, total, _name: progress.append((done, total)))
        assert [r.status for r in report.results] == ["indexed"] * 25
        assert engine.store.count("ws") == engine.registry.chunk_total("ws") == sum(r.chunks for r in report.results)
    assert progress == [(done, 25) for done in range(1, 26)]


class _RefusesOneDocument(EdgeStore):
    """The real embedded store, except that writing any chunk of `poison.txt` fails (a store error that no
    input file can cause on purpose, to check that a failed group falls back to one file at a time)."""

    def upsert(
        self,
        workspace_id: str,
        chunks: Sequence[ChunkRecord],
        vectors: Sequence[SparseVec] | None = None,
        versions: Mapping[str, str] | None = None,
    ) -> None:
        if any(chunk.doc_name == "poison.txt" for chunk in chunks):
            raise OSError("disk full")
        super().upsert(workspace_id, chunks, vectors, versions)


def test_a_store_failure_fails_only_the_file_it_belongs_to(tmp_path: Path) -> None:
    store = _RefusesOneDocument(tmp_path / "edge")
    with Engine(make_settings(tmp_path / "data"), store=store) as engine:
        files = _files(6)
        report = engine.ingest("ws", [*files[:3], ("poison.txt", b"Poison text. It will not be written."), *files[3:]])
        assert [(r.name, r.status) for r in report.results if r.status != "indexed"] == [("poison.txt", "failed")]
        assert [d.name for d in engine.documents("ws")] == sorted(name for name, _ in files)
        assert engine.store.count("ws") == engine.registry.chunk_total("ws")
        assert engine.store.count("ws", "poison.txt") == 0
