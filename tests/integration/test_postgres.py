"""Several engines on one PostgreSQL (`MASIS_DATABASE_URL`), as replicas are: a clarification raised by one
is answered through another (in another process, too), one run per thread at a time across them, event
dedupe by a unique key, liveness of another host's process, and `masis gc`.

Each engine has its own embedded store holding the same documents (a copy of one store directory); in
production the replicas share a Qdrant server."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from bot.db import BotDB
from bot.dedupe import Deduper
from bot.ledger import Ledger, WorkInFlight
from masis.config import Settings
from masis.engine import Engine
from masis.errors import MasisError, NothingPendingError, StaleReplyError
from masis.ingest import pipeline
from masis.pause import hooked
from masis.records.db import Postgres, lock_key
from masis.records.gc import collect_garbage
from masis.records.registry import Registry
from masis.store.edge import EdgeStore
from tests.bigdoc import document
from tests.conftest import REPO, SAMPLE_DIR, make_settings
from tests.gates import Flag, Gate, Worker, first_of


@pytest.fixture
def replicas(postgres_url: str, tmp_path: Path) -> Iterator[tuple[Settings, Settings]]:
    """Settings of two replicas on one database, each data directory holding the same documents."""
    first = make_settings(tmp_path / "a", database_url=postgres_url)
    with Engine(first) as engine:
        assert not engine.ingest_paths("demo", [SAMPLE_DIR]).failed
    shutil.copytree(first.edge_store_path, tmp_path / "b" / first.edge_store_path.name)
    yield first, make_settings(tmp_path / "b", database_url=postgres_url)


def test_a_clarification_raised_by_one_replica_is_answered_through_the_other(
    replicas: tuple[Settings, Settings],
) -> None:
    with Engine(replicas[0]) as a, Engine(replicas[1]) as b:
        asked = a.ask("demo", "What was Q3 2026 revenue?", thread_id="T:C:1.0")
        assert asked.status == "needs_clarification"
        assert b.pending("T:C:1.0") == asked.clarification
        outcome = b.reply("T:C:1.0", choice="source:q3_report.md")
        assert outcome.status == "answered" and "$12.4 million" in (outcome.answer or "")
        assert a.pending("T:C:1.0") is None
        assert a.registry.conversation("T:C:1.0").status == "answered"  # type: ignore[union-attr]
    for settings in replicas:  # no SQLite file of the engine's state was opened
        assert not settings.registry_path.exists() and not settings.checkpoint_path.exists()


def _cli(settings: Settings, *args: str) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MASIS_", "QDRANT_", "OPENAI_"))}
    env.update({"PYTHONPATH": str(REPO), "MASIS_DATA_DIR": str(settings.data_dir), "MASIS_LLM": "extractive",
                "MASIS_DATABASE_URL": settings.postgres_url or ""})
    result = subprocess.run([sys.executable, "-m", "masis.cli", *args, "--json"], capture_output=True, text=True,
                            env=env, timeout=120, cwd=settings.data_dir.parent)
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout))


def test_ask_in_one_process_and_reply_in_another(replicas: tuple[Settings, Settings]) -> None:
    asked = _cli(replicas[0], "ask", "--workspace", "demo", "--thread", "T:C:2.0", "What was Q3 2026 revenue?")
    assert asked["status"] == "needs_clarification"
    replied = _cli(replicas[1], "reply", "--thread", "T:C:2.0", "Trust the Q3 report")
    assert replied["status"] == "answered" and replied["run"] == 1
    assert {c["doc_name"] for c in replied["citations"]} == {"q3_report.md"}  # type: ignore[union-attr]


@pytest.mark.parametrize("choices", [["accept", "cancel"], ["cancel", "source:q3_report.md"]])
def test_simultaneous_replies_on_two_replicas_resume_the_thread_once(
    replicas: tuple[Settings, Settings], choices: list[str]
) -> None:
    with Engine(replicas[0]) as a, Engine(replicas[1]) as b:
        asked = a.ask("demo", "What was Q3 2026 revenue?", thread_id="T:C:3.0")
        round_ = asked.clarification.round  # type: ignore[union-attr]
        barrier = threading.Barrier(6)
        results: list[object] = []

        def send(engine: Engine, choice: str) -> None:
            barrier.wait()
            try:
                results.append(engine.reply("T:C:3.0", choice=choice, round=round_))
            except (NothingPendingError, StaleReplyError) as exc:
                results.append(exc)

        workers = [threading.Thread(target=send, args=(engine, choices[i % 2]))
                   for i, engine in enumerate([a, b] * 3)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        resumed = [r for r in results if not isinstance(r, MasisError)]
        assert len(resumed) == 1 and len(results) == 6
        assert a.pending("T:C:3.0") is None


def _lock_waiters(url: str, key: int) -> int:
    """Sessions waiting for the advisory lock `key` (a bigint key is split in two 32-bit halves)."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
            "AND ((classid::bigint << 32) | objid::bigint) = %s", (key & 0xFFFFFFFFFFFFFFFF,),
        ).fetchone()
    return int(row[0]) if row else 0


def test_a_run_waits_for_another_replica_holding_its_thread(replicas: tuple[Settings, Settings]) -> None:
    """Replica A holds the thread's lock (as during a run); B's question in that thread waits for it, in
    PostgreSQL, and runs when A lets go."""
    url = replicas[0].postgres_url
    assert url is not None
    with Engine(replicas[0]) as a, Engine(replicas[1]) as b:
        assert a.postgres is not None
        done = threading.Event()
        with a.postgres.thread_lock("T:C:4.0"):
            worker = threading.Thread(target=lambda: (b.ask("demo", "What is the remote work policy?",
                                                            thread_id="T:C:4.0"), done.set()))
            worker.start()
            key = lock_key("masis:thread:T:C:4.0")
            for _ in range(600):  # until B's session is seen queued on the lock (not a timed guess)
                if _lock_waiters(url, key) == 1:
                    break
                threading.Event().wait(0.05)
            assert _lock_waiters(url, key) == 1
            assert not done.is_set() and b.registry.conversation("T:C:4.0") is None
        worker.join(timeout=60)
        assert done.is_set() and b.registry.conversation("T:C:4.0") is not None


def test_advisory_locks_of_several_names_are_taken_in_key_order(postgres_url: str) -> None:
    """A session that finds one of its names held keeps only the names whose keys sort before it while it
    waits (so two sessions with overlapping names cannot deadlock), and one that would not wait holds none."""
    low, middle, high = sorted((f"name-{i}" for i in range(3)), key=lock_key)
    a, b = Postgres(postgres_url, max_size=2), Postgres(postgres_url, max_size=2)
    seen: dict[str, bool] = {}
    waiting = threading.Event()

    def free(name: str) -> bool:
        with psycopg.connect(postgres_url, autocommit=True) as probe:
            got = bool(probe.execute("SELECT pg_try_advisory_lock(%s)", (lock_key(name),)).fetchone()[0])
            if got:
                probe.execute("SELECT pg_advisory_unlock(%s)", (lock_key(name),))
            return got

    def on_wait() -> None:  # in B's thread, just before it blocks
        seen.update({low: free(low), high: free(high)})
        waiting.set()

    def take_all() -> bool:
        with b.hold_locks([high, low, middle], on_wait=on_wait) as held:
            return held and not free(high)

    try:
        with a.hold_locks([middle]):
            with b.hold_locks([low, middle, high], wait=False) as held:
                assert held is False
                assert free(low) and free(high)
            worker = Worker("b", take_all)
            assert waiting.wait(60)
            assert not worker.finished.is_set()
        assert worker.outcome() is True
        assert seen == {low: False, high: True}, "while waiting for the middle key it held the low one only"
        assert free(low) and free(middle) and free(high)
    finally:
        a.close()
        b.close()


def test_two_replicas_uploading_one_document_at_once_go_one_after_the_other(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Replica A is writing a big `doc.txt`; B's one-line `doc.txt` waits in PostgreSQL for A's lock (the
    replicas share no lock in memory), then replaces it whole. The replicas share one store, as they share a
    Qdrant server in production."""
    monkeypatch.setattr(pipeline, "UPSERT_BATCH", 64)  # the same steps as 512, on fewer points
    first = make_settings(tmp_path / "a", database_url=postgres_url)
    store = EdgeStore(first.edge_store_path)  # A's, which A reopens after the restart
    a, b = Engine(first, store=store), Engine(make_settings(tmp_path / "b", database_url=postgres_url), store=store)
    try:
        held, waiting = Gate("a"), Flag("b")
        with hooked("ingest:upserted-batch", held), hooked("documents:waiting", waiting):
            big = Worker("a", lambda: a.ingest("ws", [("doc.txt", document("heron", 200))]))
            assert held.wait()
            small = Worker("b", lambda: b.ingest("ws", [("doc.txt", b"The osprey note says Porto.")]))
            assert first_of(waiting.raised, small.finished)
            assert not small.finished.is_set(), "B wrote the document while A was writing it"
            held.release()
            assert [r.status for r in big.outcome().results] == ["indexed"]
            assert [r.status for r in small.outcome().results] == ["indexed"]
    finally:
        a.close()
        b.close()
    with Engine(first) as engine:  # a restart, over the same store
        assert engine.recovery.clean, engine.recovery
        doc = engine.registry.document("ws", "doc.txt")
        assert doc is not None and doc.chunks == 1
        assert engine.store.count("ws") == engine.store.count("ws", "doc.txt") == 1
        assert engine.store.search("ws", "heron", 5) == []
        assert "Porto" in engine.store.search("ws", "osprey note", 1)[0].text


def _wait_until_backend_gone(url: str, pid: int, timeout: float = 30.0) -> None:
    """Block until the server has released the advisory locks of closed session `pid`."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as probe:
        while probe.execute("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = %s", (pid,)).fetchone():
            assert time.monotonic() < deadline, f"backend {pid} still alive after {timeout} s"
            time.sleep(0.01)


def test_a_live_replica_on_another_host_keeps_its_runs_and_a_dead_ones_are_settled(postgres_url: str) -> None:
    registry = Registry(postgres_url)
    for thread in ("alive", "dead"):
        registry.start_run(thread, "ws")
    registry.set_status("alive", "running:other-host:4242")
    registry.set_status("dead", "running:other-host:4343")
    with psycopg.connect(postgres_url, autocommit=True) as other:  # the other host's live process
        other.execute("SELECT pg_advisory_lock(%s)", (lock_key("masis:process:other-host:4242"),))
        assert [c.thread_id for c in registry.stale_runs()] == ["dead"]
        backend = other.info.backend_pid
    _wait_until_backend_gone(postgres_url, backend)  # the server frees a closed session's locks a moment later
    assert [c.thread_id for c in registry.stale_runs()] == ["alive", "dead"]  # its connection is gone
    registry.close()


def test_one_delivery_is_claimed_once_across_replicas(postgres_url: str) -> None:
    databases = [BotDB(postgres_url) for _ in range(4)]
    dedupers = [Deduper(db) for db in databases]
    barrier = threading.Barrier(len(dedupers))
    claims: list[bool] = []

    def claim(deduper: Deduper) -> None:
        barrier.wait()
        claims.append(deduper.claim("event:Ev1"))

    workers = [threading.Thread(target=claim, args=(d,)) for d in dedupers]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert sorted(claims) == [False, False, False, True]
    ledger = Ledger(databases[0])
    ledger.begin_work(WorkInFlight("T:C:5.0", "ask", "C", "5.0", None))
    assert ledger.unfinished_work() == []  # this process is alive: its work is not unfinished
    assert Ledger(databases[1]).end_work("T:C:5.0") and not ledger.end_work("T:C:5.0")  # one claim wins
    for db in databases:
        db.close()


def test_gc_on_postgres(replicas: tuple[Settings, Settings]) -> None:
    settings = replicas[0]
    with Engine(settings) as engine:
        engine.ask("demo", "What is our AI investment strategy?", thread_id="twice")
        engine.ask("demo", "What is the remote work policy?", thread_id="twice")
        engine.ask("demo", "What is our AI investment strategy?", thread_id="old")
        assert engine.ask("demo", "What was Q3 2026 revenue?", thread_id="pending").status == "needs_clarification"
        with engine.registry.transaction() as conn:
            conn.execute("UPDATE conversations SET updated_at = ? WHERE thread_id = ?",
                         ("2000-01-01T00:00:00+00:00", "old"))
        report = collect_garbage(settings, older_than_days=7)
        assert (report.conversations_forgotten, report.pending_forgotten, report.runs_pruned) == (1, 0, 2)
        assert engine.registry.conversation("old") is None
        assert engine.reply("pending", choice="source:q3_report.md").status == "answered"
        assert engine.ask("demo", "What is the remote work policy?", thread_id="twice").run == 3
    assert not settings.registry_path.exists() and not (settings.data_dir / "slack.db").exists()


def test_a_replica_waiting_to_migrate_the_checkpointer_does_not_stall_another_ones_migration(
    replicas: tuple[Settings, Settings],
) -> None:
    """While replica A migrates (it holds the migration lock and runs CREATE INDEX CONCURRENTLY, which waits
    for every open transaction), replica B starting up waits for the lock without holding a transaction
    open: A's index build finishes, then B starts."""
    url = replicas[0].postgres_url
    assert url is not None
    with psycopg.connect(url, autocommit=True) as holder, psycopg.connect(url, autocommit=True) as builder:
        holder.execute("SELECT pg_advisory_lock(%s)", (lock_key("masis:schema:checkpoints"),))
        started: list[Engine] = []
        worker = threading.Thread(target=lambda: started.append(Engine(replicas[1])))
        worker.start()
        for _ in range(600):  # until B has asked for the lock (seen in PostgreSQL, not a timed guess)
            row = builder.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                  "AND pid <> pg_backend_pid() AND query LIKE '%%pg_try_advisory_lock%%'").fetchone()
            if row and row[0]:
                break
            threading.Event().wait(0.05)
        builder.execute("SET statement_timeout = '20s'")
        builder.execute("CREATE TABLE IF NOT EXISTS probe (x int)")
        builder.execute("CREATE INDEX CONCURRENTLY probe_x ON probe (x)")  # would time out behind a waiter
        assert not started
        holder.execute("SELECT pg_advisory_unlock_all()")
        worker.join(timeout=120)
    assert started, "replica B never started"
    started[0].close()
