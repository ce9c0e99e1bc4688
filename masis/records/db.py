"""The seam between MASIS's SQL and its two databases: SQLite files in the data directory (the embedded
default) or one PostgreSQL database (`MASIS_DATABASE_URL`) that several replicas share.

The registry and the bot write portable SQL (`?` placeholders, `INSERT … ON CONFLICT`); this module turns
it into PostgreSQL's where needed and gives the few things only a shared server can: a connection that
looks like sqlite3's, advisory locks that serialize work across processes, and "is the process that
wrote this row still alive" for a process on any host. psycopg is imported only when a URL is set.
"""

from __future__ import annotations

import hashlib
import os
import re
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any, Protocol

from masis.errors import MasisError

if TYPE_CHECKING:
    from psycopg import Connection
    from psycopg_pool import ConnectionPool

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


def lock_key(name: str) -> int:
    """A signed 64-bit advisory-lock key for a name (a thread id, a process, a table)."""
    return int.from_bytes(hashlib.blake2b(name.encode(), digest_size=8).digest(), "big", signed=True)


NEEDS_EXTRA = ("MASIS_DATABASE_URL needs PostgreSQL support: pip install 'masis[postgres]' "
               "(psycopg and langgraph-checkpoint-postgres)")


def connect(url: str) -> Connection[Any]:
    try:
        import psycopg
    except ImportError:
        raise MasisError(NEEDS_EXTRA) from None
    try:
        return psycopg.connect(url, autocommit=True)
    except psycopg.OperationalError as exc:  # its text names host and port, never the password
        raise MasisError(f"Cannot reach the database of MASIS_DATABASE_URL: {exc}") from None


class PgConnection:
    """One PostgreSQL connection with sqlite3's `execute` / `executemany` / `executescript` (in `?` SQL).

    In autocommit mode, like the `isolation_level=None` SQLite connections it stands in for: a
    transaction is an explicit BEGIN … COMMIT."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn = connect(url)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._conn.execute(to_postgres(sql) if params else sql, tuple(params) if params else None)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Any:
        cur = self._conn.cursor()
        batch = [tuple(row) for row in rows]
        if batch:
            cur.executemany(to_postgres(sql), batch)
        return cur

    def executescript(self, script: str) -> None:
        self._conn.execute(script)  # type: ignore[arg-type]

    def cursor(self) -> PgConnection:
        return self

    def close(self) -> None:
        self._conn.close()

    @contextmanager
    def transaction(self, lock: str) -> Iterator[PgConnection]:
        """BEGIN … COMMIT holding the advisory lock `lock` until the end: writers of one kind go one at a
        time across processes, as SQLite's BEGIN IMMEDIATE makes them on one file."""
        self._conn.execute("BEGIN")
        try:
            self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key(lock),))
            yield self
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def create_schema(self, script: str, lock: str) -> None:
        """Run a `CREATE … IF NOT EXISTS` script once at a time (two replicas starting together would
        otherwise race on PostgreSQL's catalog)."""
        with self.transaction(lock):
            self._conn.execute(schema_to_postgres(script))  # type: ignore[arg-type]

    def owner_alive(self, owner: str) -> bool:
        """Whether the process `<host>:<pid>` still holds its presence lock (see `announce_presence`)."""
        key = lock_key(f"masis:process:{owner}")
        row = self._conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
        if row and row[0]:
            self._conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
            return False
        return True


_presence: dict[str, Connection[Any]] = {}
_presence_guard = threading.Lock()


def process_owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def announce_presence(url: str) -> None:
    """Hold, for the life of this process, a session advisory lock named after it on its own connection:
    another replica on any host tells a live owner of a 'running:<host>:<pid>' row from a dead one by
    whether that lock is free (PostgreSQL frees it when the process, and so its connection, dies)."""
    with _presence_guard:
        if url in _presence and not _presence[url].closed:
            return
        conn = connect(url)
        conn.execute("SELECT pg_advisory_lock(%s)", (lock_key(f"masis:process:{process_owner()}"),))
        _presence[url] = conn


class Postgres:
    """The pool an Engine shares between LangGraph's checkpointer and its per-thread locks."""

    def __init__(self, url: str, *, max_size: int = 20) -> None:
        announce_presence(url)  # first: a missing extra or an unreachable server is one clear message
        try:
            from langgraph.checkpoint.postgres import PostgresSaver  # noqa: F401
            from psycopg.rows import dict_row
            from psycopg_pool import ConnectionPool
        except ImportError:
            raise MasisError(NEEDS_EXTRA) from None

        self.url = url
        # PostgresSaver's documented connection settings: autocommit, dict rows, no prepared statements
        self.pool: ConnectionPool[Any] = ConnectionPool(
            url, min_size=1, max_size=max_size, open=True,
            kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
        )

    @contextmanager
    def thread_lock(self, thread_id: str) -> Iterator[None]:
        """One run per conversation thread across every replica: a session advisory lock on a pooled
        connection, held for the run (PostgreSQL drops it if this process dies)."""
        key = lock_key(f"masis:thread:{thread_id}")
        with self.pool.connection() as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (key,))
            try:
                yield
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (key,))

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
        with connect(self.url) as conn:
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
