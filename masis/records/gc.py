"""`masis gc`: keep the SQLite files from growing without bound.

- A thread's earlier runs (a new question in a thread starts a new run) can never be resumed: their
  checkpoints are always pruned.
- A conversation whose last activity is older than the age (`--older-than`, default
  `MASIS_CHECKPOINT_TTL_DAYS`) is forgotten with its checkpoints, whatever its state. That includes a
  clarification nobody answered within the age: a reply after that is treated as new chatter. Feedback
  is kept.
- A kept vector (`embeddings.db`: the sentence encoder's passages, the OpenAI path's embeddings) not used
  within the same age is forgotten: a replaced or removed document's vectors go; one met again is read again.
- Then every database in the data directory is vacuumed and its WAL truncated.

Only SQLite is touched (never the vector store), so it runs beside a live bot; SQLite's busy timeout
serializes it with the bot's writes. With `MASIS_DATABASE_URL` the same pruning runs on PostgreSQL (no
SQLite file is opened but this replica's kept vectors; PostgreSQL's autovacuum reclaims the space, and the
sizes reported are the database's).
"""

from __future__ import annotations

import dataclasses
import math
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from masis.config import Settings
from masis.errors import MasisError
from masis.store.embeddings import CACHE_FILE, VectorCache

BOT_DB = "slack.db"


@dataclass(frozen=True)
class GcReport:
    conversations_forgotten: int
    pending_forgotten: int
    runs_pruned: int
    bytes_before: int
    bytes_after: int
    vectors_forgotten: int = 0


def idle_cutoff(days: float) -> datetime:
    """The moment before which a conversation counts as idle for `days` days. An age beyond the calendar
    (more than ~2700 centuries) is the calendar's first day: no conversation is that old."""
    if not math.isfinite(days) or days < 0:
        raise MasisError(f"The age must be a number of days, 0 or more (not {days!r}).")
    try:
        return datetime.now(UTC) - timedelta(days=days)
    except OverflowError:
        return datetime.min.replace(tzinfo=UTC)


def collect_garbage(settings: Settings, older_than_days: float | None = None) -> GcReport:
    days = settings.checkpoint_ttl_days if older_than_days is None else older_than_days
    cutoff = idle_cutoff(days).isoformat(timespec="seconds")
    if (url := settings.postgres_url) is not None:
        report = _collect_postgres(url, cutoff)
        return dataclasses.replace(report, vectors_forgotten=_forget_vectors(settings.data_dir / CACHE_FILE, days))
    vectors = settings.data_dir / CACHE_FILE
    paths = [settings.registry_path, settings.checkpoint_path, settings.data_dir / BOT_DB, vectors]
    before = sum(_size(p) for p in paths)
    vectors_forgotten = _forget_vectors(vectors, days)
    forgotten = pending = pruned = 0
    if settings.checkpoint_path.exists() and settings.registry_path.exists():
        checkpoints = _connect(settings.checkpoint_path)
        registry = _connect(settings.registry_path)
        try:
            from langgraph.checkpoint.sqlite import SqliteSaver

            saver = SqliteSaver(checkpoints)
            saver.setup()
            # checkpoint threads first, conversations second: a run that starts in between has no
            # checkpoints in this list yet, so it cannot be taken for garbage
            stored = {row[0] for row in checkpoints.execute("SELECT DISTINCT thread_id FROM checkpoints")}
            with registry:
                expired = registry.execute(
                    "SELECT status FROM conversations WHERE updated_at < ?", (cutoff,)).fetchall()
                registry.execute("DELETE FROM conversations WHERE updated_at < ?", (cutoff,))
            forgotten = len(expired)
            pending = sum(1 for (status,) in expired if status == "needs_clarification")
            live = {row[0] for row in registry.execute("SELECT run_key FROM conversations")}
            for run_key in sorted(stored - live):
                saver.delete_thread(run_key)
                pruned += 1
            checkpoints.commit()
        finally:
            checkpoints.close()
            registry.close()
    for path in paths:
        if path.exists():
            _vacuum(path)
    return GcReport(forgotten, pending, pruned, before, sum(_size(p) for p in paths), vectors_forgotten)


def _forget_vectors(path: Path, days: float) -> int:
    if not path.exists():
        return 0
    cache = VectorCache(path)
    try:
        return cache.forget_unused(days)
    finally:
        cache.close()


def _collect_postgres(url: str, cutoff: str) -> GcReport:
    from masis.records.db import Postgres
    from masis.records.registry import Registry

    postgres = Postgres(url, max_size=2)
    registry = Registry(url)  # creates the tables if this database is new
    try:
        saver = postgres.setup_checkpointer()
        with postgres.pool.connection() as conn:
            before = int(conn.execute("SELECT pg_database_size(current_database()) AS n").fetchone()["n"])
            stored = {row["thread_id"] for row in conn.execute("SELECT DISTINCT thread_id FROM checkpoints")}
        # as on SQLite: checkpoint threads first, then conversations, under the registry's write lock
        with registry.transaction() as tx:
            expired = tx.execute("SELECT status FROM conversations WHERE updated_at < ?", (cutoff,)).fetchall()
            tx.execute("DELETE FROM conversations WHERE updated_at < ?", (cutoff,))
            live = {row[0] for row in tx.execute("SELECT run_key FROM conversations").fetchall()}
        pruned = 0
        for run_key in sorted(stored - live):
            saver.delete_thread(run_key)
            pruned += 1
        with postgres.pool.connection() as conn:
            after = int(conn.execute("SELECT pg_database_size(current_database()) AS n").fetchone()["n"])
    finally:
        registry.close()
        postgres.close()
    pending = sum(1 for (status,) in expired if status == "needs_clarification")
    return GcReport(len(expired), pending, pruned, before, after)


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=30, check_same_thread=False)
    conn.execute("PRAGMA busy_timeout=30000")
    return conn


def _vacuum(path: Path) -> None:
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    try:
        conn.execute("PRAGMA busy_timeout=30000")
        conn.execute("VACUUM")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())
