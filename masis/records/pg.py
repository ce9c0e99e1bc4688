"""PostgreSQL connections that outlive a server restart or failover: psycopg_pool pools that test a connection
before handing it out, and the one place psycopg's connection errors become `DatabaseUnavailableError`.

After a restart every open connection is dead, though nothing says so until it is used. A pool made by
`open_pool` tests each connection it hands out (`check`): one the server has written to while it sat idle (a
server going down tells each client, then closes) gets a round trip (psycopg_pool's `check_connection`), the
rest none; the first one found dead makes the pool test all its idle ones at once (`ConnectionPool.check`),
so a caller waits for one fresh connection, not for one back-off per dead connection.

While the server is down a caller waits up to `MASIS_DATABASE_WAIT_SECONDS` for it, then gets
`DatabaseUnavailableError`; after one such failure, callers of the same database wait at most
`DOWN_WAIT_SECONDS` until a connection succeeds again, so a Slack turn that touches the database four times
fails in seconds, not minutes. psycopg is imported only when a URL is set.
"""

from __future__ import annotations

import hashlib
import select
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar

from masis.errors import DatabaseUnavailableError, MasisError

if TYPE_CHECKING:
    from psycopg import Connection
    from psycopg_pool import ConnectionPool

NEEDS_EXTRA = ("MASIS_DATABASE_URL needs PostgreSQL support: pip install 'masis[postgres]' "
               "(psycopg and langgraph-checkpoint-postgres)")
DEFAULT_WAIT_SECONDS = 10.0
DOWN_WAIT_SECONDS = 2.0
# How long a pool keeps retrying a lost connection (psycopg_pool backs off 1, 2, 4 ... s) before it gives up
# and lets the next caller start afresh: bounds the wait between the server coming back and a new connection
# (psycopg_pool's default, 5 minutes, could leave a caller waiting a minute for a server that is back).
RECONNECT_SECONDS = 2.0
# PostgreSQL's SQLSTATEs that mean the connection, not the statement, failed: class 08 (connection exception),
# and the server shutting down or not yet accepting connections.
_OUTAGE_STATES = ("08", "57P01", "57P02", "57P03")


def lock_key(name: str) -> int:
    """A signed 64-bit advisory-lock key for a name (a thread id, a process, a table)."""
    return int.from_bytes(hashlib.blake2b(name.encode(), digest_size=8).digest(), "big", signed=True)


def connect(url: str, **options: Any) -> Connection[Any]:
    """One autocommit connection of its own (not a pool's); an unreachable server is one clear message."""
    try:
        import psycopg
    except ImportError:
        raise MasisError(NEEDS_EXTRA) from None
    try:
        return psycopg.connect(url, autocommit=True, **options)
    except psycopg.OperationalError as exc:  # its text names host and port, never the password; one line
        raise DatabaseUnavailableError(f"Cannot reach the database of MASIS_DATABASE_URL: {_one_line(exc)}") from None


def is_outage(exc: BaseException) -> bool:
    """Whether `exc` says the database could not be reached (a lost connection, a server shutting down or
    starting, no connection within the wait), as opposed to a statement it refused."""
    try:
        import psycopg
        from psycopg_pool import PoolTimeout
    except ImportError:
        return False
    if isinstance(exc, PoolTimeout):
        return True
    if not isinstance(exc, psycopg.OperationalError):
        return False
    state = getattr(exc, "sqlstate", None)
    return state is None or state.startswith(_OUTAGE_STATES)


@contextmanager
def database_errors() -> Iterator[None]:
    """Within the block, an outage (`is_outage`) is raised as `DatabaseUnavailableError`."""
    try:
        yield
    except DatabaseUnavailableError:
        raise
    except Exception as exc:
        if not is_outage(exc):
            raise
        reason = _one_line(exc)[:200] or type(exc).__name__
        raise DatabaseUnavailableError(
            f"The database (MASIS_DATABASE_URL) is unavailable right now ({reason}); try again in a minute."
        ) from exc


class Availability:
    """Whether a database was last found down, shared by every pool of one URL in this process."""

    _by_url: ClassVar[dict[str, Availability]] = {}
    _guard: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self) -> None:
        self.down_since: float | None = None

    @classmethod
    def of(cls, url: str) -> Availability:
        with cls._guard:
            return cls._by_url.setdefault(url, cls())

    def wait(self, full: float) -> float:
        """How long the next caller waits for a connection: `full`, or a short wait while the database is down."""
        return min(full, DOWN_WAIT_SECONDS) if self.down_since is not None else full

    def down(self) -> None:
        if self.down_since is None:
            self.down_since = time.monotonic()

    def up(self) -> None:
        self.down_since = None


def open_pool(
    url: str,
    *,
    min_size: int = 1,
    max_size: int = 2,
    wait: float = DEFAULT_WAIT_SECONDS,
    configure: Callable[[Connection[Any]], None] | None = None,
    name: str | None = None,
    shares_availability: bool = True,
    **kwargs: Any,
) -> ConnectionPool[Any]:
    """An open pool of autocommit connections to `url` that tests each connection it hands out and replaces
    lost ones (see the module's docstring); `kwargs` go to each connection, `configure` runs on each new one.
    A caller that does not say how long to wait waits `wait` seconds, or `DOWN_WAIT_SECONDS` while the
    database is known to be down (`shares_availability`: what one pool of the URL found, all know)."""
    try:
        from psycopg_pool import ConnectionPool, PoolTimeout
    except ImportError:
        raise MasisError(NEEDS_EXTRA) from None
    availability = Availability.of(url) if shares_availability else Availability()

    class Pool(ConnectionPool[Any]):
        def getconn(self, timeout: float | None = None) -> Any:
            try:
                conn = super().getconn(availability.wait(self.timeout) if timeout is None else timeout)
            except PoolTimeout:
                availability.down()
                raise
            availability.up()
            return conn

    holder: list[Pool] = []

    def check(conn: Connection[Any]) -> None:
        if not _has_unread_input(conn):
            return
        try:
            ConnectionPool.check_connection(conn)
        except Exception:
            holder[0].check()  # the others idle beside it were most likely cut by the same restart
            raise

    pool = Pool(
        url, min_size=min_size, max_size=max_size, open=False, check=check, configure=configure, name=name,
        timeout=wait, reconnect_timeout=RECONNECT_SECONDS, kwargs={"autocommit": True, **kwargs},
    )
    holder.append(pool)
    try:
        pool.open(wait=True, timeout=wait)
    except Exception as exc:
        pool.close()
        if is_outage(exc):
            raise DatabaseUnavailableError(
                f"Cannot reach the database of MASIS_DATABASE_URL: {_one_line(exc)}") from None
        raise
    return pool


def _one_line(exc: BaseException) -> str:
    """psycopg's message without its line breaks (it adds a hint on a second line)."""
    return " ".join(str(exc).split())


def _has_unread_input(conn: Connection[Any]) -> bool:
    """Whether an idle connection has something to read: a server that shuts down, restarts or ends a session
    says so (an error, then the end of the stream) to every client; nothing else arrives unasked here (MASIS
    never LISTENs). Only then is the connection worth a round trip to test; a closed one is always."""
    if conn.closed:
        return True
    try:
        readable, _, _ = select.select([conn.fileno()], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)
