"""The bot's own small SQLite file (`<data_dir>/slack.db`): what Slack delivered and what the bot posted.

The engine's state lives in the engine's databases; this file holds only Slack bookkeeping, so it can be
deleted without losing a document or a pending question.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
    started_at REAL NOT NULL
);
"""


class BotDB:
    """One connection shared by the bot's threads, serialized by a lock (SQLite writes are tiny here)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._conn = sqlite3.connect(path, check_same_thread=False, timeout=10, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA busy_timeout=10000")
            self._conn.executescript(_SCHEMA)

    @contextmanager
    def cursor(self) -> Iterator[sqlite3.Cursor]:
        with self._lock:
            cur = self._conn.cursor()
            try:
                yield cur
            finally:
                cur.close()

    def close(self) -> None:
        with self._lock:
            self._conn.close()
