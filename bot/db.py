"""The bot's own small SQLite file (`<data_dir>/slack.db`): what Slack delivered and what the bot posted.
With `MASIS_DATABASE_URL` the same tables live in the shared PostgreSQL database instead, so every
replica sees every delivery and post.

The engine's state lives in the engine's databases; this file holds only Slack bookkeeping, so it can be
deleted without losing a document or a pending question.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from masis.records.db import DEFAULT_WAIT_SECONDS, PgConnection, announce_presence, is_postgres_url

_SCHEMA = """
CREATE TABLE IF NOT EXISTS deliveries (
    key TEXT PRIMARY KEY,
    seen_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS deliveries_seen_at ON deliveries (seen_at);
CREATE TABLE IF NOT EXISTS clarification_posts (
    thread_id TEXT PRIMARY KEY,
    channel_id TEXT NOT NULL,
    message_ts TEXT NOT NULL,
    outcome_json TEXT NOT NULL,
    posted_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS answers (
    channel_id TEXT NOT NULL,
    message_ts TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    outcome_json TEXT NOT NULL,
    posted_at REAL NOT NULL,
    PRIMARY KEY (channel_id, message_ts)
);
CREATE TABLE IF NOT EXISTS assistant_contexts (
    team_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (team_id, user_id)
);
CREATE TABLE IF NOT EXISTS work_in_flight (
    key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    thread_ts TEXT,
    status_ts TEXT,
    started_at REAL NOT NULL,
    owner TEXT
);
"""


class BotDB:
    """One connection shared by the bot's threads, serialized by a lock (SQLite writes are tiny here); on
    PostgreSQL, a small pool that survives a restart of the database (`masis.records.db.PgConnection`)."""

    def __init__(self, target: Path | str, *, wait: float = DEFAULT_WAIT_SECONDS) -> None:
        """`wait`: on PostgreSQL, how long a statement waits for the database during an outage."""
        self._lock = threading.Lock()
        self.pg: PgConnection | None = None
        if isinstance(target, str) and is_postgres_url(target):
            announce_presence(target)
            self.pg = PgConnection(target, wait=wait)
            self.pg.create_schema(_SCHEMA, lock="masis:schema:bot")
            return
        path = Path(target)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._conn = sqlite3.connect(path, check_same_thread=False, timeout=10, isolation_level=None)
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA busy_timeout=10000")
            self._conn.executescript(_SCHEMA)
            columns = {row[1] for row in self._conn.execute("PRAGMA table_info(work_in_flight)")}
            if "owner" not in columns:  # files written before replicas
                self._conn.execute("ALTER TABLE work_in_flight ADD COLUMN owner TEXT")

    @contextmanager
    def cursor(self) -> Iterator[Any]:
        """Something with sqlite3's `execute(sql, params)` (in `?` SQL) whose result has `fetchone`,
        `fetchall` and `rowcount`."""
        with self._lock:
            if self.pg is not None:
                yield self.pg
                return
            cur = self._conn.cursor()
            try:
                yield cur
            finally:
                cur.close()

    def owner_alive(self, owner: str | None) -> bool:
        """Whether the bot process `<host>:<pid>` that began some work still runs. Only asked on PostgreSQL,
        where replicas share the tables; one SQLite file has one bot, so whatever it finds at start-up
        was left by a process that is gone."""
        if self.pg is None or not owner:
            return False
        with self._lock:
            return self.pg.owner_alive(owner)

    def close(self) -> None:
        with self._lock:
            (self.pg or self._conn).close()
