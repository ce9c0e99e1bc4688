"""The seam between MASIS's SQL and its two databases: SQLite files in the data directory (the embedded
default) or one PostgreSQL database (`MASIS_DATABASE_URL`) that several replicas share.

The registry and the bot write portable SQL (`?` placeholders, `INSERT … ON CONFLICT`); this module turns
it into PostgreSQL's where needed and gives the few things only a shared server can: a connection that
looks like sqlite3's, advisory locks that serialize work across processes, and "is the process that
wrote this row still alive" for a process on any host. psycopg is imported only when a URL is set.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any, Protocol

from masis.errors import MasisError
from masis.records.pg import (
    DEFAULT_WAIT_SECONDS,
    NEEDS_EXTRA,
    connect,
    database_errors,
    is_outage,
    lock_key,
    open_pool,
)
from masis.records.presence import (
    DEFAULT_HEARTBEAT_SECONDS,
    Presence,
    announce_presence,
    owner_alive,
    presence_of,
    process_owner,
)

if TYPE_CHECKING:
    from psycopg import Connection
    from psycopg_pool import ConnectionPool

__all__ = ["DEFAULT_HEARTBEAT_SECONDS", "DEFAULT_WAIT_SECONDS", "NEEDS_EXTRA", "Presence", "announce_presence",
           "connect", "database_errors", "is_outage", "lock_key", "presence_of", "process_owner"]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class Cursor(Protocol):
    rowcount: int

    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class Conn(Protocol):
    """What the registry and the bot use of a connection: sqlite3's, or `PgConnection`."""

    def execute(self, sql: str, params: Sequence[Any] = ...) -> Any: ...
    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Any: ...


def is_postgres_url(url: str | None) -> bool:
    return bool(url) and str(url).startswith(POSTGRES_SCHEMES)


def to_postgres(sql: str) -> str:
    """`?` placeholders to psycopg's `%s` (a literal `%` doubled first)."""
    return sql.replace("%", "%%").replace("?", "%s")


def schema_to_postgres(script: str) -> str:
    """A SQLite schema in PostgreSQL's types: 64-bit integers (BM25 term ids are u32), double precision
    for the bot's epoch seconds (PostgreSQL's REAL is 4 bytes), BYTEA for BLOB, no WITHOUT ROWID, and
    text compared byte by byte as SQLite's BINARY does (a prefix range scan, ORDER BY name)."""
    script = re.sub(r"\)\s*WITHOUT ROWID", ")", script)
    script = re.sub(r"\bTEXT\b", 'TEXT COLLATE "C"', script)
    script = re.sub(r"\bBLOB\b", "BYTEA", script)
    script = re.sub(r"\bINTEGER\b", "BIGINT", script)
    return re.sub(r"\bREAL\b", "DOUBLE PRECISION", script)


class PgConnection:
    """sqlite3's `execute` / `executemany` / `executescript` (in `?` SQL) over a small pool of autocommit
    connections (`masis.records.pg.open_pool`) that survives a database restart.

    Each statement takes a tested connection from the pool; its rows are read before the connection goes back
    (psycopg holds a result client-side). A transaction is an explicit BEGIN … COMMIT on one connection,
    held by the calling thread until its end. While the database is down a statement waits `wait` seconds
    for it, then raises `DatabaseUnavailableError`."""

    def __init__(self, url: str, *, wait: float = DEFAULT_WAIT_SECONDS) -> None:
        self.url = url
        self.wait = wait
        self.pool = open_pool(url, wait=wait, name="masis-records")
        self._held = threading.local()

    @contextmanager
    def connection(self) -> Iterator[Connection[Any]]:
        """The calling thread's transaction connection, else a tested one from the pool for the block."""
        held = getattr(self._held, "conn", None)
        if held is not None:
            yield held
            return
        with database_errors(), self.pool.connection() as conn:
            yield conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        with database_errors(), self.connection() as conn:
            return conn.execute(to_postgres(sql) if params else sql, tuple(params) if params else None)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Any:
        batch = [tuple(row) for row in rows]
        with database_errors(), self.connection() as conn:
            cur = conn.cursor()
            if batch:
                cur.executemany(to_postgres(sql), batch)
            return cur

    def executescript(self, script: str) -> None:
        with database_errors(), self.connection() as conn:
            conn.execute(script)  # type: ignore[arg-type]

    def cursor(self) -> PgConnection:
        return self

    def close(self) -> None:
        self.pool.close()

    @contextmanager
    def transaction(self, lock: str) -> Iterator[PgConnection]:
        """BEGIN … COMMIT holding the advisory lock `lock` until the end: writers of one kind go one at a
        time across processes, as SQLite's BEGIN IMMEDIATE makes them on one file."""
        with database_errors(), self.connection() as conn:
            self._held.conn = conn
            try:
                with conn.transaction():
                    conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key(lock),))
                    yield self
            finally:
                self._held.conn = None

    def create_schema(self, script: str, lock: str) -> None:
        """Run a `CREATE … IF NOT EXISTS` script once at a time (two replicas starting together would
        otherwise race on PostgreSQL's catalog)."""
        with self.transaction(lock):
            self.executescript(schema_to_postgres(script))

    def owner_alive(self, owner: str) -> bool:
        """Whether the process `<host>:<pid>` is still running, on any host (`masis.records.presence`)."""
        presence = presence_of(self.url)
        heartbeat = presence.heartbeat if presence is not None else DEFAULT_HEARTBEAT_SECONDS
        with database_errors(), self.connection() as conn:
            return owner_alive(conn, owner, heartbeat=heartbeat)


class Postgres:
    """The pool an Engine shares between LangGraph's checkpointer and its per-thread locks."""

    def __init__(self, url: str, *, max_size: int = 20, wait: float = DEFAULT_WAIT_SECONDS,
                 heartbeat: float = DEFAULT_HEARTBEAT_SECONDS) -> None:
        # first: a missing extra or an unreachable server is one clear message
        self.presence = announce_presence(url, heartbeat=heartbeat, wait=wait)
        try:
            from langgraph.checkpoint.postgres import PostgresSaver  # noqa: F401
            from psycopg.rows import dict_row
        except ImportError:
            raise MasisError(NEEDS_EXTRA) from None

        self.url = url
        # PostgresSaver's documented connection settings: autocommit, dict rows, no prepared statements
        self.pool: ConnectionPool[Any] = open_pool(url, max_size=max_size, wait=wait, name="masis-checkpoints",
                                                   prepare_threshold=0, row_factory=dict_row)

    @contextmanager
    def thread_lock(self, thread_id: str) -> Iterator[None]:
        """One run per conversation thread across every replica: a session advisory lock on a pooled
        connection, held for the run (PostgreSQL drops it if this process dies).

        A database restart during the run frees the lock with the session; the run goes on (its checkpoints
        go through fresh connections) and the unlock, which has nothing left to free, is skipped."""
        key = lock_key(f"masis:thread:{thread_id}")
        with database_errors(), self.pool.connection() as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (key,))
            try:
                yield
            finally:
                try:
                    conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
                except Exception as exc:
                    if not is_outage(exc):
                        raise

    @contextmanager
    def hold_locks(
        self, names: Iterable[str], *, wait: bool = True, on_wait: Callable[[], None] | None = None
    ) -> Iterator[bool]:
        """Session advisory locks on `names` for the block, across every replica, on a connection of its own
        (not the pool's: uploads holding documents for minutes must not starve the questions' thread locks);
        yields True. They are taken in the order of their keys, so two holders of overlapping sets cannot
        deadlock. With `wait=False`, a lock another session holds yields False instead, holding none.
        `on_wait` is called before blocking on a held lock."""
        keys = sorted({lock_key(name) for name in names})
        with database_errors(), connect(self.url) as conn:
            held: list[int] = []
            try:
                # all at once first (a try never blocks, so its order does not matter): one round trip when free
                rows = conn.execute(
                    "SELECT k, pg_try_advisory_lock(k) FROM unnest(%s::bigint[]) AS k", (keys,)
                ).fetchall()
                got = {key for key, locked in rows if locked}
                busy = [key for key in keys if key not in got]
                if busy:
                    # keep what sorts before the first busy key, give back the rest, then wait in key order
                    held = [key for key in keys if key < busy[0]]
                    _unlock(conn, [key for key in got if key > busy[0]])
                    if not wait:
                        _unlock(conn, held)
                        held = []
                        yield False
                        return
                    if on_wait is not None:
                        on_wait()
                    for key in keys[len(held):]:
                        conn.execute("SELECT pg_advisory_lock(%s)", (key,))
                        held.append(key)
                else:
                    held = keys
                yield True
            finally:
                with suppress(Exception):  # a broken connection: closing it below frees its locks anyway
                    _unlock(conn, held)

    def setup_checkpointer(self) -> Any:
        from langgraph.checkpoint.postgres import PostgresSaver

        saver = PostgresSaver(self.pool)  # type: ignore[arg-type]
        with self.pool.connection() as conn:  # its migrations, one replica at a time
            key = lock_key("masis:schema:checkpoints")
            # Polled, not a blocking pg_advisory_lock: the migrations CREATE INDEX CONCURRENTLY, which waits
            # for every open transaction, and a session blocked on this lock is one (the holder would wait
            # for the waiter for ever, a cycle PostgreSQL cannot see).
            while not conn.execute("SELECT pg_try_advisory_lock(%s) AS locked", (key,)).fetchone()["locked"]:
                time.sleep(0.1)
            try:
                saver.setup()
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
        return saver

    def close(self) -> None:
        self.pool.close()


def _unlock(conn: Any, keys: Sequence[int]) -> None:
    if keys:
        conn.execute("SELECT pg_advisory_unlock(k) FROM unnest(%s::bigint[]) AS k", (list(keys),))


def copy_rows(
    source: sqlite3.Connection, target: Conn, table: str, *, where: str = "", params: Sequence[Any] = (),
    batch: int = 500,
) -> tuple[int, int]:
    """Copy the rows of `table` (those matching `where`) from a SQLite file into the same table of another
    database, where a row whose key is already there stays as it is. Returns (copied, already there)."""
    columns = ", ".join(str(row[1]) for row in source.execute(f"PRAGMA table_info({table})"))
    rows = source.execute(f"SELECT {columns} FROM {table} {where}", tuple(params))
    marks = ", ".join("?" * len(columns.split(", ")))
    copied = seen = 0
    while chunk := rows.fetchmany(batch):
        seen += len(chunk)
        cursor = target.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks}) ON CONFLICT DO NOTHING", chunk)
        copied += max(0, int(cursor.rowcount))
    return copied, seen - copied
