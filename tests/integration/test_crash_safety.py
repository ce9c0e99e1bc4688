"""SIGKILL in the middle of ingesting a large document: after a restart the document is fully there or
absent (never half-indexed and listed as complete), the registry and the store agree, and re-running the
ingest succeeds."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from masis.engine import Engine
from masis.errors import NothingPendingError
from masis.judge.findings import Critique, Relatedness
from masis.llm.extractive import ExtractiveProvider
from masis.pause import ENV as PAUSE_ENV
from masis.records.registry import Registry, Write
from masis.state import EvidenceChunk
from masis.store.edge import EdgeStore
from tests.bigdoc import document, make_big_pdf
from tests.conftest import REPO, make_settings

PAGES = 80


def _write_status(db: Path, name: str) -> str | None:
    """The status of the write of `name` under way (`masis.records.registry`'s document_writes), if any."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
        row = conn.execute("SELECT status FROM document_writes WHERE name = ?", (name,)).fetchone()
    return row[0] if row else None


def _masis(data_dir: Path, *args: str, pause_at: str | None = None) -> subprocess.Popen[str]:
    env = {**os.environ, "MASIS_DATA_DIR": str(data_dir), "MASIS_LLM": "extractive", "PYTHONPATH": str(REPO)}
    env.pop("QDRANT_URL", None)
    env.pop(PAUSE_ENV, None)
    if pause_at is not None:
        env[PAUSE_ENV] = pause_at
    return subprocess.Popen([sys.executable, "-m", "masis.cli", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _masis_ingest(data_dir: Path, path: Path, pause_at: str | None = None) -> subprocess.Popen[str]:
    return _masis(data_dir, "ingest", "--workspace", "ws", str(path), pause_at=pause_at)


def _kill_at(proc: subprocess.Popen[str], reached: Path) -> None:
    """Wait until the child says it reached its pause point (it then waits there), and SIGKILL it."""
    deadline = time.monotonic() + 120
    while not reached.exists():
        assert proc.poll() is None, f"the child ended before its pause point: {proc.communicate()}"
        assert time.monotonic() < deadline, "the child never reached its pause point"
        time.sleep(0.01)  # polling for the child's signal, not waiting for time to pass
    assert int(reached.read_text()) == proc.pid
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL


def test_sigkill_mid_ingest_leaves_the_document_absent_and_a_rerun_succeeds(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    settings = make_settings(data_dir)
    with Engine(settings) as engine:
        assert not engine.ingest("ws", [("kept.txt", b"The Osprey launch is in April.")]).failed
    big = tmp_path / "archive.pdf"
    big.write_bytes(make_big_pdf(PAGES))

    reached = tmp_path / "reached"
    proc = _masis_ingest(data_dir, big, pause_at=f"ingest:upserted-batch={reached}")
    _kill_at(proc, reached)  # one batch of chunks is in the store, the rest are not
    with EdgeStore(settings.edge_store_path) as store:  # what the killed process left, before any recovery
        partial = store.count("ws", big.name, unpublished=True)
        assert store.count("ws", big.name) == 0, "an unfinished upload answers nothing"
    assert (_write_status(settings.registry_path, big.name) or "").startswith("writing:")

    with Engine(settings) as engine:  # the restart: start-up recovery runs here
        assert engine.recovery.removed_unfinished == [("ws", big.name)]
        assert [d.name for d in engine.documents("ws")] == ["kept.txt"]
        assert engine.store.count("ws", big.name) == 0
        assert engine.store.count("ws") == engine.registry.chunk_total("ws") == 1

    started = time.monotonic()
    rerun = _masis_ingest(data_dir, big)
    _out, err = rerun.communicate(timeout=180)
    seconds = time.monotonic() - started
    assert rerun.returncode == 0, err
    with Engine(settings) as engine:
        assert engine.recovery.clean
        doc = engine.registry.document("ws", big.name)
        assert doc is not None and doc.pages == PAGES
        assert engine.store.count("ws", big.name) == doc.chunks > 500
        assert 0 < partial < doc.chunks
        print(f"\nkilled with {partial} of {doc.chunks} points written")
        print(f"\nlargest document in the tests: {PAGES} pages, {doc.chunks} chunks, ingested in {seconds:.1f} s")
        page_80 = engine.store.search("ws", "annual archive", 300, doc_name=big.name)
        assert any("Page 61 of" in hit.text for hit in page_80)


@pytest.mark.parametrize(
    ("point", "survivor"),
    [("ingest:upserted-batch", "heron"), ("ingest:published", "heron"), ("ingest:recorded", "osprey")],
)
def test_sigkill_mid_replacement_leaves_one_version_whole(tmp_path: Path, point: str, survivor: str) -> None:
    """A replacement killed before it is listed comes back as the previous version, untouched; one killed
    after it is listed (its old points not yet deleted) comes back as the new version. Never neither."""
    data_dir = tmp_path / "data"
    settings = make_settings(data_dir)
    with Engine(settings) as engine:
        assert not engine.ingest("ws", [("doc.txt", document("heron", 40)), ("kept.txt", b"Kept.")]).failed
        old = engine.registry.document("ws", "doc.txt")
    new = tmp_path / "doc.txt"
    new.write_bytes(document("osprey", 900))  # about 680 chunks: two batches of 512

    reached = tmp_path / "reached"
    _kill_at(_masis_ingest(data_dir, new, pause_at=f"{point}={reached}"), reached)

    words = {"heron": 40, "osprey": 900}
    for restart in (1, 2):
        with Engine(settings) as engine:
            doc = engine.registry.document("ws", "doc.txt")
            assert doc is not None, f"recovery removed doc.txt: {engine.recovery}"
            assert (doc == old) is (survivor == "heron")
            assert engine.store.count("ws", "doc.txt") == doc.chunks
            assert engine.store.count("ws") == engine.registry.chunk_total("ws") == doc.chunks + 1
            last = words[survivor] - 1
            assert survivor in engine.store.search("ws", f"tally{last:04d} {survivor}", 1)[0].text
            other = "osprey" if survivor == "heron" else "heron"
            assert engine.store.search("ws", other, 5) == []
            assert engine.store.count("ws", "doc.txt", unpublished=True) == 0
            assert engine.recovery.removed_incomplete == engine.recovery.removed_unfinished == []
            if restart == 2:
                assert engine.recovery.clean, engine.recovery
            elif survivor == "heron":
                assert engine.recovery.rolled_back == [("ws", "doc.txt")] and engine.recovery.rolled_forward == []
            else:
                assert engine.recovery.rolled_forward == [("ws", "doc.txt")] and engine.recovery.rolled_back == []


def test_startup_removes_a_ready_document_whose_points_went_missing(tmp_path: Path) -> None:
    """Drift the other way round: the registry lists a document the store no longer fully holds."""
    settings = make_settings(tmp_path / "data")
    with Engine(settings) as engine:
        engine.ingest("ws", [("a.txt", b"Alpha one. " * 300), ("b.txt", b"Bravo two.")])
        engine.store.delete_document("ws", "a.txt")  # as a crash between a removal's two halves leaves it
    with Engine(settings) as engine:
        assert engine.recovery.removed_incomplete == [("ws", "a.txt")]
        assert [d.name for d in engine.documents("ws")] == ["b.txt"]
        assert engine.store.count("ws") == engine.registry.chunk_total("ws")


def test_a_document_another_live_process_is_writing_is_left_alone(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "data")
    registry = Registry(settings.registry_path)
    registry.begin_writes("ws", {"busy.txt": "v1"})
    live = f"{os.uname().nodename}:{os.getppid()}"  # as if a live process (our parent, pytest's runner) wrote it
    with registry.transaction() as conn:
        conn.execute("UPDATE document_writes SET status = ?", (f"writing:{live}",))
    assert registry.abandoned_writes() == []
    with registry.transaction() as conn:
        conn.execute("UPDATE document_writes SET status = 'writing:otherhost:1'")
    assert registry.abandoned_writes() == [Write("ws", "busy.txt", "v1", recorded=False)]
    # the marker an older MASIS left on the document itself while indexing it
    with registry.transaction() as conn:
        conn.execute(
            "INSERT INTO documents (workspace_id, name, sha256, chunks, size_bytes, pages, uploaded_by, uploaded_at, "
            "status) VALUES ('ws', 'old.txt', 'x', 1, 10, NULL, 'cli', '2026-01-01T00:00:00+00:00', ?)",
            (f"indexing:{live}",),
        )
    assert registry.unfinished_documents() == []
    with registry.transaction() as conn:
        conn.execute("UPDATE documents SET status = 'indexing:otherhost:1'")
    assert registry.unfinished_documents() == [("ws", "old.txt")]
    registry.close()
    EdgeStore(settings.edge_store_path).close()


def test_an_ask_killed_mid_run_is_settled_at_start_up_and_its_thread_answers_again(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    settings = make_settings(data_dir)
    with Engine(settings) as engine:
        assert not engine.ingest("ws", [("plan.md", b"The Osprey launch is in April in Lisbon.")]).failed
    reached = tmp_path / "reached"
    proc = _masis(data_dir, "ask", "--workspace", "ws", "--thread", "t-killed", "--json",
                  "When is the Osprey launch?", pause_at=f"ask:auditing={reached}")
    _kill_at(proc, reached)  # the draft is written; the critic never ran, and the run saved no state
    registry = Registry(settings.registry_path)
    killed = registry.conversation("t-killed")
    registry.close()
    assert killed is not None and killed.status.startswith("running")

    with Engine(settings) as engine:
        assert engine.recovery.settled_runs == [("t-killed", "interrupted")]
        assert engine.registry.conversation("t-killed").status == "interrupted"  # type: ignore[union-attr]
        with pytest.raises(NothingPendingError):
            engine.reply("t-killed", "April?")
        outcome = engine.ask("ws", "When is the Osprey launch?", thread_id="t-killed")
        assert outcome.status == "answered" and "April" in (outcome.answer or "")
        assert engine.registry.conversation("t-killed").status == "answered"  # type: ignore[union-attr]
    with Engine(settings) as engine:
        assert engine.recovery.settled_runs == [] and engine.recovery.clean


def test_a_reply_killed_mid_run_leaves_its_question_pending_and_the_reply_can_be_sent_again(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    settings = make_settings(data_dir)
    with Engine(settings) as engine:
        assert not engine.ingest("ws", [("plan.md", b"The Osprey launch is in April in Lisbon.")]).failed
        asked = engine.ask("ws", "Which colour is the Heron chassis?", thread_id="t-reply")
        assert asked.status == "needs_clarification"
    reached = tmp_path / "reached"
    proc = _masis(data_dir, "reply", "--thread", "t-reply", "--json", "When is the Osprey launch?",
                  pause_at=f"ask:auditing={reached}")
    _kill_at(proc, reached)  # the reply's draft is written; the run saved no state, so the question is still open

    with Engine(settings) as engine:
        assert engine.recovery.settled_runs == [("t-reply", "needs_clarification")]
        assert engine.registry.conversation("t-reply").status == "needs_clarification"  # type: ignore[union-attr]
        outcome = engine.reply("t-reply", "When is the Osprey launch?")
        assert outcome.status == "answered" and "April" in (outcome.answer or "")


class _BrokenCritic(ExtractiveProvider):
    def critique(
        self,
        question: str,
        answer: str,
        evidence: Sequence[EvidenceChunk],
        term_weights: Mapping[int, float] | None = None,
        relatedness: Relatedness | None = None,
    ) -> Critique:
        raise RuntimeError("the audit model is down")


def test_an_ask_that_fails_part_way_does_not_leave_its_thread_running(tmp_path: Path) -> None:
    with Engine(make_settings(tmp_path / "data"), llm=_BrokenCritic()) as engine:
        engine.ingest("ws", [("plan.md", b"The Osprey launch is in April in Lisbon.")])
        with pytest.raises(RuntimeError, match="audit model"):
            engine.ask("ws", "When is the Osprey launch?", thread_id="t-failed")
        assert engine.registry.conversation("t-failed").status == "interrupted"  # type: ignore[union-attr]
        assert engine.registry.stale_runs() == []
