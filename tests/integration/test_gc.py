"""`masis gc`: earlier runs and idle conversations are pruned, a pending clarification younger than the age
is kept (and still resumes), and the databases are vacuumed — beside a live engine holding the store."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from masis.cli import main
from masis.engine import Engine
from masis.records.gc import collect_garbage
from masis.store.embeddings import CACHE_FILE, SECONDS_A_DAY, VectorCache
from tests.conftest import SAMPLE_DIR, make_settings
from tests.integration.test_cli import masis


def _age(engine: Engine, thread_id: str, days: int) -> None:
    with engine.registry.transaction() as conn:
        conn.execute("UPDATE conversations SET updated_at = datetime('now', ?) || '+00:00' WHERE thread_id = ?",
                     (f"-{days} days", thread_id))


def _checkpoint_threads(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {row[0] for row in conn.execute("SELECT DISTINCT thread_id FROM checkpoints")}


def test_gc_prunes_old_and_superseded_runs_and_keeps_recent_pending_questions(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "data", checkpoint_ttl_days=30)
    with Engine(settings) as engine:
        assert not engine.ingest_paths("demo", [SAMPLE_DIR]).failed
        assert engine.ask("demo", "What is our AI investment strategy?", thread_id="old").status == "answered"
        assert engine.ask("demo", "What was Q3 2026 revenue?", thread_id="pending").status == "needs_clarification"
        engine.ask("demo", "What is our AI investment strategy?", thread_id="twice")
        engine.ask("demo", "What is the remote work policy?", thread_id="twice")
        assert engine.ask("demo", "What was Q3 2026 revenue?", thread_id="stale").status == "needs_clarification"
        for i in range(8):
            engine.ask("demo", "What is our AI investment strategy?", thread_id=f"bulk{i}")
            _age(engine, f"bulk{i}", 31)
        _age(engine, "old", 31)
        _age(engine, "stale", 45)
        _age(engine, "pending", 10)
        before = _checkpoint_threads(settings.checkpoint_path)
        assert {"old", "pending", "twice", "twice#run2", "stale"} <= before

        report = collect_garbage(settings)  # the engine stays open, as a running bot would

        after = _checkpoint_threads(settings.checkpoint_path)
        assert after == {"pending", "twice#run2"}
        assert report.conversations_forgotten == 10 and report.pending_forgotten == 1
        assert report.runs_pruned == len(before) - 2
        assert report.bytes_after < report.bytes_before
        assert engine.pending("stale") is None and engine.registry.conversation("old") is None
        assert engine.pending("pending") is not None
        assert engine.reply("pending", choice="source:q3_report.md").status == "answered"
        assert engine.ask("demo", "What is our AI investment strategy?", thread_id="old").status == "answered"


def test_masis_gc_runs_beside_a_process_holding_the_store(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "data")
    with Engine(settings) as engine:
        engine.ingest("ws", [("a.txt", b"The Falcon budget is $2 million.")])
        engine.ask("ws", "What is the Falcon budget?", thread_id="t1")
        engine.ask("ws", "What is the Falcon budget again?", thread_id="t1")
        result = masis(settings.data_dir, "gc", "--older-than", "7")
        assert result.returncode == 0, result.stderr
        assert "pruned 1 runs' checkpoints" in result.stdout



def test_a_negative_age_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MASIS_DATA_DIR", str(tmp_path / "data"))
    assert main(["gc", "--older-than", "-1"]) == 1
    assert capsys.readouterr().err.strip() == "masis: --older-than must be 0 days or more."


def test_gc_forgets_kept_vectors_nobody_used_within_the_age(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "data", checkpoint_ttl_days=30)
    with Engine(settings) as engine:
        assert not engine.ingest_paths("demo", [SAMPLE_DIR]).failed
    path = settings.data_dir / CACHE_FILE
    vector = b"\x00\x00\x80\x3f" * 384
    stale = VectorCache(path, clock=lambda: time.time() - 40 * SECONDS_A_DAY)
    stale.put("test-model", {"a passage of a replaced document": vector})
    stale.close()
    fresh = VectorCache(path)
    fresh.put("test-model", {"a passage read this week": vector})
    fresh.close()

    report = collect_garbage(settings)

    assert report.vectors_forgotten == 1
    kept = VectorCache(path)
    try:
        assert list(kept.get("test-model", ["a passage of a replaced document", "a passage read this week"])) == [
            "a passage read this week"]
    finally:
        kept.close()
