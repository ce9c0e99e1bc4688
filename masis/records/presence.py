"""Which MASIS processes are alive, across hosts, on a shared PostgreSQL: each holds a presence lock and beats
a heartbeat, and keeps both through a database restart.

A process holds a session advisory lock named after it (`<host>:<pid>`) on a connection of its own, and
every `heartbeat` seconds writes the database's clock into `masis_replicas`. PostgreSQL frees the lock when the
process dies, but also, for every process at once, when the server restarts; so another process counts an
owner dead only when its lock is free AND its heartbeat is older than `DEAD_AFTER_BEATS` beats. A live
process takes its lock back within a beat of the server's return (its pool's `configure` takes it on each
new connection), long before its heartbeat goes stale.

The keeper thread that beats is also the process's liveness: `Presence.problem()` names what is wrong when
the keeper has stopped, or when the database answers but this process has not held its lock for
`STUCK_AFTER_BEATS` beats (other replicas will take its work for lost: it must be restarted).
"""

from __future__ import annotations

import atexit
import logging
import os
import socket
import threading
import time
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from masis.pause import pause_point
from masis.records.pg import DEFAULT_WAIT_SECONDS, connect, database_errors, lock_key, open_pool

if TYPE_CHECKING:
    from psycopg import Connection
    from psycopg_pool import ConnectionPool

log = logging.getLogger(__name__)

DEFAULT_HEARTBEAT_SECONDS = 5.0
DEAD_AFTER_BEATS = 3
STUCK_AFTER_BEATS = 6
_SCHEMA = """
CREATE TABLE IF NOT EXISTS masis_replicas (
    owner TEXT COLLATE "C" PRIMARY KEY,
    started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    seen_at TIMESTAMPTZ NOT NULL
)
"""
_BEAT = ("INSERT INTO masis_replicas (owner, seen_at) VALUES (%s, now()) "
         "ON CONFLICT (owner) DO UPDATE SET seen_at = excluded.seen_at")
_FORGET_SILENT = "DELETE FROM masis_replicas WHERE seen_at < now() - interval '1 day'"
# Alive when its lock is held by some session, or it beat within the window. CASE evaluates in order: the lock
# is tried first, and given back at once when it was free.
_ALIVE = ("SELECT CASE WHEN pg_try_advisory_lock(%s) THEN NOT pg_advisory_unlock(%s) ELSE true END "
          "OR EXISTS (SELECT 1 FROM masis_replicas WHERE owner = %s "
          "AND seen_at > now() - make_interval(secs => %s))")


def process_owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def presence_key(owner: str) -> int:
    return lock_key(f"masis:process:{owner}")


class PresenceTaken(Exception):
    """Another session holds this process's presence lock (so it cannot take it)."""


class Presence:
    """This process's presence on one database, kept by a daemon thread for the life of the process."""

    def __init__(self, url: str, *, heartbeat: float, wait: float) -> None:
        self.url = url
        self.heartbeat = heartbeat
        self.owner = process_owner()
        self._stop = threading.Event()
        self._held_at = time.monotonic()  # the last beat that went through with the lock held
        self._held_since: float | None = None  # since when every beat went through
        self._reachable = True
        with connect(url, connect_timeout=max(1, round(wait))) as conn:  # an unreachable server: one clear line
            _create_schema(conn)
        self.pool: ConnectionPool[Any] = open_pool(url, min_size=1, max_size=1, wait=wait,
                                                   configure=self._take_lock, name="masis-presence",
                                                   shares_availability=False)
        self.beat()
        self._thread = threading.Thread(target=self._keep, name="masis-presence", daemon=True)
        self._thread.start()

    def _take_lock(self, conn: Connection[Any]) -> None:
        if not conn.execute("SELECT pg_try_advisory_lock(%s)", (presence_key(self.owner),)).fetchone()[0]:
            conn.close()
            raise PresenceTaken(f"another session holds the presence lock of {self.owner}")

    def beat(self) -> None:
        """Write the heartbeat on the connection that holds the lock (a new connection takes the lock first)."""
        with database_errors(), self.pool.connection(timeout=self.heartbeat) as conn:
            conn.execute(_BEAT, (self.owner,))
        self._held_at = time.monotonic()
        if self._held_since is None:
            self._held_since = self._held_at

    def _keep(self) -> None:
        beats = 0
        while not self._stop.wait(self.heartbeat):
            pause_point("presence:beat")
            try:
                self.beat()
            except Exception as exc:
                self._held_since = None
                self._reachable = _reachable(self.url, self.heartbeat)
                log.warning("could not renew this process's presence in the database: %s", exc)
                continue
            self._reachable = True
            beats += 1
            if beats % 1000 == 1:
                with suppress(Exception):  # housekeeping: the next round tries again
                    self._forget_silent()

    def _forget_silent(self) -> None:
        with self.pool.connection(timeout=self.heartbeat) as conn:
            conn.execute(_FORGET_SILENT)

    def steady(self) -> bool:
        """Whether this process has held its presence for the whole window in which an owner's silence means
        death: then every live replica has had as long to come back after an outage, and one whose lock is
        free and heartbeat stale is dead, not slower to reconnect."""
        since = self._held_since
        return since is not None and time.monotonic() - since >= DEAD_AFTER_BEATS * self.heartbeat

    def problem(self) -> str | None:
        """Why this process cannot recover by itself (a liveness probe should restart it), or None."""
        if not self._thread.is_alive() and not self._stop.is_set():
            return "the presence keeper has stopped"
        silent = time.monotonic() - self._held_at
        if self._reachable and silent > STUCK_AFTER_BEATS * self.heartbeat:
            return (f"the database answers but this process has not held its presence lock for {silent:.0f} s; "
                    "other replicas take its work for lost")
        return None

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=self.heartbeat + 1)
        self.pool.close()


def _create_schema(conn: Connection[Any]) -> None:
    """Once at a time (two replicas starting together would race on PostgreSQL's catalog)."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key("masis:schema:replicas"),))
        conn.execute(_SCHEMA)


def _reachable(url: str, timeout: float) -> bool:
    """Whether a fresh connection to the database succeeds (asked only while this process's own fails)."""
    try:
        with connect(url, connect_timeout=max(1, round(timeout))):
            return True
    except Exception:
        return False


_presences: dict[str, Presence] = {}
_guard = threading.Lock()


def announce_presence(url: str, *, heartbeat: float = DEFAULT_HEARTBEAT_SECONDS,
                      wait: float = DEFAULT_WAIT_SECONDS) -> Presence:
    """This process's presence on `url`, started by the first caller (its `heartbeat` and `wait` win)."""
    with _guard:
        presence = _presences.get(url)
        if presence is None:
            presence = _presences[url] = Presence(url, heartbeat=heartbeat, wait=wait)
        return presence


def close_presences(url_prefix: str = "") -> None:
    """Give up this process's presences on the databases whose URL starts with `url_prefix` (all of them at
    exit; a test's server that is about to stop)."""
    with _guard:
        presences = [_presences.pop(url) for url in list(_presences) if url.startswith(url_prefix)]
    for presence in presences:
        presence.close()


atexit.register(close_presences)


def presence_of(url: str) -> Presence | None:
    with _guard:
        return _presences.get(url)


def owner_alive(conn: Any, owner: str, *, heartbeat: float) -> bool:
    """Whether the process `owner` (`<host>:<pid>`) is alive, asked on `conn` (a psycopg connection or a
    `PgConnection`, any session but the owner's presence connection)."""
    key = presence_key(owner)
    row = conn.execute(_ALIVE, (key, key, owner, DEAD_AFTER_BEATS * heartbeat)).fetchone()
    return bool(row[0])
