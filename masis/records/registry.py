"""The SQLite registry beside the vector store: documents, per-workspace term statistics,
conversations (which graph run a thread is on) and feedback.

Term statistics give the relevance score its IDF (see `masis.judge.relevance`) per workspace, so one
channel's documents never shape another channel's scores. `term_df` holds, per workspace and term, how
many chunks contain it; `doc_term_counts` holds each document's share of that (one packed row a document,
so that indexing a document writes one row, not one per term) to take back out when it is replaced or
removed.
"""

from __future__ import annotations

import itertools
import os
import socket
import sqlite3
import sys
import threading
from array import array
from bisect import bisect_left
from collections import Counter, OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from masis.errors import ThreadOwnershipError
from masis.records.db import Conn, PgConnection, announce_presence, is_postgres_url, process_owner

_SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    workspace_id TEXT NOT NULL,
    name TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    chunks INTEGER NOT NULL,
    size_bytes INTEGER NOT NULL,
    pages INTEGER,
    uploaded_by TEXT NOT NULL,
    uploaded_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'ready',
    PRIMARY KEY (workspace_id, name)
);
-- a version of a document being written (one upload): 'writing:<host>:<pid>' while its points go in,
-- 'recorded:<host>:<pid>' once `documents` lists it and the versions it replaces are being deleted; the row
-- goes when that is done, so start-up recovery can roll an interrupted write back (or, recorded, forward)
CREATE TABLE IF NOT EXISTS document_writes (
    workspace_id TEXT NOT NULL,
    name TEXT NOT NULL,
    version TEXT NOT NULL,
    status TEXT NOT NULL,
    PRIMARY KEY (workspace_id, name, version)
);
CREATE TABLE IF NOT EXISTS doc_term_counts (
    workspace_id TEXT NOT NULL,
    name TEXT NOT NULL,
    terms BLOB NOT NULL,
    PRIMARY KEY (workspace_id, name)
) WITHOUT ROWID;
-- the workspace's vocabulary (lower-case words long enough to have derived forms) and how many documents hold
-- each word, so a question's "acquiring" can also search for the "acquisition" its documents say
-- (masis.judge.matching); each document's own words, one row a document, to take back out when it goes
CREATE TABLE IF NOT EXISTS workspace_words (
    workspace_id TEXT NOT NULL,
    word TEXT NOT NULL,
    documents INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, word)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS document_words (
    workspace_id TEXT NOT NULL,
    name TEXT NOT NULL,
    words TEXT NOT NULL,
    PRIMARY KEY (workspace_id, name)
) WITHOUT ROWID;
-- the chunks of each workspace's ready documents (BM25's N), kept beside term_df so a query reads one row
-- rather than summing the workspace's documents (masis.store.idf weighs every query by both)
CREATE TABLE IF NOT EXISTS workspace_chunks (
    workspace_id TEXT NOT NULL PRIMARY KEY,
    chunks INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS term_df (
    workspace_id TEXT NOT NULL,
    term INTEGER NOT NULL,
    df INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, term)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS conversations (
    thread_id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    run_key TEXT NOT NULL,
    runs INTEGER NOT NULL DEFAULT 1,
    status TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
"""

# one vote per user per answer: `run` is the thread's question number (the Outcome's `run`)
_FEEDBACK = """
CREATE TABLE IF NOT EXISTS feedback (
    thread_id TEXT NOT NULL,
    run INTEGER NOT NULL,
    user_id TEXT NOT NULL,
    value TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (thread_id, run, user_id)
);
"""


@dataclass(frozen=True)
class DocumentInfo:
    name: str
    chunks: int
    size_bytes: int
    pages: int | None
    uploaded_by: str
    uploaded_at: str
    sha256: str


@dataclass(frozen=True)
class Write:
    """A version of a document a process was writing when it stopped."""

    workspace_id: str
    name: str
    version: str
    recorded: bool  # `documents` lists it: finish the switch rather than roll it back


@dataclass(frozen=True)
class Conversation:
    thread_id: str
    workspace_id: str
    run_key: str
    runs: int
    status: str


_SQL_VARIABLES = 500  # names per IN (...) list, well under SQLite's limit on bound parameters


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Registry:
    """Thread-safe access to the registry database: a SQLite file (one connection, WAL, a busy timeout)
    or, given a `postgresql://` URL, a PostgreSQL database several processes share (`masis.records.db`)."""

    def __init__(self, target: Path | str, *, wait: float | None = None) -> None:
        """`wait`: on PostgreSQL, how long a call waits for the database during an outage (default
        `masis.records.pg.DEFAULT_WAIT_SECONDS`)."""
        self._lock = threading.RLock()
        self._term_sets = _TermSets()
        self._pg: PgConnection | None = None
        if isinstance(target, str) and is_postgres_url(target):
            announce_presence(target)
            self._pg = PgConnection(target) if wait is None else PgConnection(target, wait=wait)
            self._conn: Conn = self._pg
            self._pg.create_schema(_SCHEMA + _FEEDBACK, lock="masis:schema:registry")
            self._count_workspace_chunks()
            return
        path = Path(target)
        path.parent.mkdir(parents=True, exist_ok=True)
        self._sqlite = sqlite3.connect(path, check_same_thread=False, timeout=30, isolation_level=None)
        self._conn = self._sqlite
        self._sqlite.execute("PRAGMA journal_mode=WAL")
        self._sqlite.execute("PRAGMA synchronous=NORMAL")
        self._sqlite.executescript(_SCHEMA)
        self._migrate_feedback()
        self._migrate_doc_terms()
        self._count_workspace_chunks()

    def close(self) -> None:
        with self._lock:
            (self._pg or self._sqlite).close()

    def _migrate_feedback(self) -> None:
        """Feedback was once one vote per user per thread (no `run`): each such vote rated the thread's
        latest answer at the time, so it moves to that answer (the thread's last run)."""
        with self.transaction() as conn:
            columns = {row[1] for row in conn.execute("PRAGMA table_info(feedback)")}
            if columns and "run" not in columns:
                conn.execute("ALTER TABLE feedback RENAME TO feedback_by_thread")
                conn.execute(_FEEDBACK)
                conn.execute(
                    "INSERT INTO feedback (thread_id, run, user_id, value, created_at) "
                    "SELECT f.thread_id, COALESCE(c.runs, 1), f.user_id, f.value, f.created_at "
                    "FROM feedback_by_thread f LEFT JOIN conversations c ON c.thread_id = f.thread_id"
                )
                conn.execute("DROP TABLE feedback_by_thread")
            else:
                conn.execute(_FEEDBACK)

    @contextmanager
    def transaction(self) -> Iterator[Conn]:
        """One write transaction, serialized with every other registry writer (in this process and, on
        PostgreSQL, across replicas)."""
        if self._pg is not None:
            with self._lock, self._pg.transaction("masis:registry:write") as conn:
                yield conn
            return
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _migrate_doc_terms(self) -> None:
        """Registries written before `doc_term_counts` kept one `doc_terms` row per (document, term)."""
        legacy = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'doc_terms'"
        if self._conn.execute(legacy).fetchone() is None:
            return
        with self.transaction() as conn:
            if conn.execute(legacy).fetchone() is None:  # another process migrated it meanwhile
                return
            rows = conn.execute("SELECT workspace_id, name, term, df FROM doc_terms ORDER BY workspace_id, name")
            for (workspace_id, name), group in itertools.groupby(rows, key=lambda row: (row[0], row[1])):
                conn.execute(
                    "INSERT INTO doc_term_counts (workspace_id, name, terms) VALUES (?, ?, ?) "
                    "ON CONFLICT (workspace_id, name) DO UPDATE SET terms = excluded.terms",
                    (workspace_id, name, _pack_terms({int(row[2]): int(row[3]) for row in group})),
                )
            conn.execute("DROP TABLE doc_terms")

    def _count_workspace_chunks(self) -> None:
        """Registries written before `workspace_chunks` get it counted from their documents, once."""
        counted = "SELECT 1 FROM workspace_chunks LIMIT 1"
        if self._conn.execute(counted).fetchone() is not None:
            return
        with self.transaction() as conn:
            if conn.execute(counted).fetchone() is None:
                conn.execute(
                    "INSERT INTO workspace_chunks (workspace_id, chunks) SELECT workspace_id, SUM(chunks) "
                    "FROM documents WHERE status = 'ready' GROUP BY workspace_id HAVING SUM(chunks) > 0"
                )

    # --- documents ---------------------------------------------------------------------------------

    def document(self, workspace_id: str, name: str) -> DocumentInfo | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT name, chunks, size_bytes, pages, uploaded_by, uploaded_at, sha256 FROM documents "
                "WHERE workspace_id = ? AND name = ? AND status = 'ready'",
                (workspace_id, name),
            ).fetchone()
        return DocumentInfo(*row) if row else None

    def documents(self, workspace_id: str) -> list[DocumentInfo]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT name, chunks, size_bytes, pages, uploaded_by, uploaded_at, sha256 FROM documents "
                "WHERE workspace_id = ? AND status = 'ready' ORDER BY name",
                (workspace_id,),
            ).fetchall()
        return [DocumentInfo(*row) for row in rows]

    def documents_named(self, workspace_id: str, names: Sequence[str]) -> dict[str, DocumentInfo]:
        """The listed documents among `names`, by name."""
        found: dict[str, DocumentInfo] = {}
        with self._lock:
            for start in range(0, len(names), _SQL_VARIABLES):
                part = names[start : start + _SQL_VARIABLES]
                rows = self._conn.execute(
                    "SELECT name, chunks, size_bytes, pages, uploaded_by, uploaded_at, sha256 FROM documents "
                    f"WHERE workspace_id = ? AND status = 'ready' AND name IN ({','.join('?' * len(part))})",
                    (workspace_id, *part),
                ).fetchall()
                found.update((str(row[0]), DocumentInfo(*row)) for row in rows)
        return found

    def begin_writes(self, workspace_id: str, versions: Mapping[str, str]) -> None:
        """Record that new versions of documents (name -> version id) are being written, before their first
        point is: the versions they replace stay listed until `save_documents`."""
        status = f"writing:{process_owner()}"
        with self.transaction() as conn:
            conn.executemany(
                "INSERT INTO document_writes (workspace_id, name, version, status) VALUES (?, ?, ?, ?)",
                [(workspace_id, name, version, status) for name, version in versions.items()],
            )

    def end_writes(self, workspace_id: str, versions: Mapping[str, str]) -> None:
        """Forget writes that are over: switched to (the replaced versions' points deleted) or rolled back."""
        with self.transaction() as conn:
            conn.executemany(
                "DELETE FROM document_writes WHERE workspace_id = ? AND name = ? AND version = ?",
                [(workspace_id, name, version) for name, version in versions.items()],
            )

    def abandoned_writes(self) -> list[Write]:
        """The writes of processes that are no longer running (a live one's are not abandoned)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT workspace_id, name, version, status FROM document_writes ORDER BY workspace_id, name, version"
            ).fetchall()
            return [
                Write(str(w), str(n), str(v), str(status).startswith("recorded:"))
                for w, n, v, status in rows
                if not self._owner_alive(str(status))
            ]

    def unfinished_documents(self) -> list[tuple[str, str]]:
        """(workspace, name) of every document an older MASIS left 'indexing' (it marked a document so while
        writing it, having deleted its previous version first) in a process that is no longer running.

        A document another live process on this host is indexing right now (several processes can share
        a Qdrant server and this file) is not unfinished."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT workspace_id, name, status FROM documents WHERE status != 'ready' "
                "ORDER BY workspace_id, name"
            ).fetchall()
            return [(str(w), str(n)) for w, n, status in rows if not self._owner_alive(str(status))]

    def _owner_alive(self, status: str) -> bool:
        return _owner_alive(status, self._pg)

    def chunk_totals(self) -> dict[str, int]:
        """Chunks of the ready documents, per workspace."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT workspace_id, SUM(chunks) FROM documents WHERE status = 'ready' GROUP BY workspace_id"
            ).fetchall()
        return {str(w): int(n) for w, n in rows}

    def save_document(
        self,
        workspace_id: str,
        info: DocumentInfo,
        chunk_terms: Iterable[frozenset[int]],
        words: AbstractSet[str] = frozenset(),
    ) -> None:
        """Record a fully indexed document, its term statistics (each chunk's terms) and its words in one
        transaction."""
        self.save_documents(workspace_id, [(info, Counter(itertools.chain.from_iterable(chunk_terms)), words)])

    def save_documents(
        self,
        workspace_id: str,
        documents: Sequence[tuple[DocumentInfo, Mapping[int, int], AbstractSet[str]]],
        versions: Mapping[str, str] | None = None,
    ) -> None:
        """Record fully indexed documents, each with how many of its chunks hold each term and its words, in one
        transaction; with `versions`, the writes of these versions (`begin_writes`) become 'recorded' in it,
        and any other write of these documents (abandoned: its version is replaced too) is forgotten.

        The workspace's document frequencies and vocabulary change once for the whole batch, by the sum of
        what each document adds less what the version it replaces had added."""
        self._forget_term_sets()
        delta: Counter[int] = Counter()
        word_delta: Counter[str] = Counter()
        latest: dict[str, Mapping[int, int]] = {}  # a name's counts so far in this batch, if it came up already
        latest_words: dict[str, AbstractSet[str]] = {}
        document_rows, term_rows, word_rows = [], [], []
        with self.transaction() as conn:
            names = [info.name for info, _, _ in documents]
            stored = _stored_terms_of(conn, workspace_id, names)
            stored_words = _stored_words_of(conn, workspace_id, names)
            chunks = dict(_rows_by_name(conn, "documents", "chunks", workspace_id, names, ready=True))
            chunk_delta = 0
            for info, counts, words in documents:
                chunk_delta += info.chunks - int(chunks.get(info.name, 0))
                chunks[info.name] = info.chunks
                replaced = latest[info.name] if info.name in latest else stored.get(info.name)
                if replaced:
                    delta.subtract(replaced)
                delta.update(_elements(counts))
                latest[info.name] = counts
                word_delta.subtract(latest_words.get(info.name, stored_words.get(info.name, ())))
                word_delta.update(words)
                latest_words[info.name] = words
                word_rows.append((workspace_id, info.name, "\n".join(sorted(words))))
                document_rows.append(
                    (workspace_id, info.name, info.sha256, info.chunks, info.size_bytes, info.pages,
                     info.uploaded_by, info.uploaded_at)
                )
                term_rows.append((workspace_id, info.name, _pack_terms(counts)))
            conn.executemany(
                "INSERT INTO documents "
                "(workspace_id, name, sha256, chunks, size_bytes, pages, uploaded_by, uploaded_at, status) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'ready') "
                "ON CONFLICT (workspace_id, name) DO UPDATE SET sha256 = excluded.sha256, "
                "chunks = excluded.chunks, size_bytes = excluded.size_bytes, pages = excluded.pages, "
                "uploaded_by = excluded.uploaded_by, uploaded_at = excluded.uploaded_at, status = excluded.status",
                document_rows,
            )
            conn.executemany(
                "INSERT INTO doc_term_counts (workspace_id, name, terms) VALUES (?, ?, ?) "
                "ON CONFLICT (workspace_id, name) DO UPDATE SET terms = excluded.terms",
                term_rows,
            )
            conn.executemany(
                "INSERT INTO document_words (workspace_id, name, words) VALUES (?, ?, ?) "
                "ON CONFLICT (workspace_id, name) DO UPDATE SET words = excluded.words",
                word_rows,
            )
            _apply_delta(conn, _TERM_COUNTS, workspace_id, delta)
            _apply_delta(conn, _WORD_COUNTS, workspace_id, word_delta)
            _add_chunks(conn, workspace_id, chunk_delta)
            if versions:
                recorded = f"recorded:{process_owner()}"
                conn.executemany(
                    "UPDATE document_writes SET status = ? WHERE workspace_id = ? AND name = ? AND version = ?",
                    [(recorded, workspace_id, name, version) for name, version in versions.items()],
                )
                conn.executemany(
                    "DELETE FROM document_writes WHERE workspace_id = ? AND name = ? AND version != ?",
                    [(workspace_id, name, version) for name, version in versions.items()],
                )

    def delete_document(self, workspace_id: str, name: str) -> bool:
        self._forget_term_sets()
        with self.transaction() as conn:
            stored = _stored_terms(conn, workspace_id, name)
            _apply_delta(conn, _TERM_COUNTS, workspace_id, {term: -n for term, n in stored.items()})
            words = _stored_words_of(conn, workspace_id, [name]).get(name, frozenset())
            _apply_delta(conn, _WORD_COUNTS, workspace_id, dict.fromkeys(words, -1))
            conn.execute("DELETE FROM doc_term_counts WHERE workspace_id = ? AND name = ?", (workspace_id, name))
            conn.execute("DELETE FROM document_words WHERE workspace_id = ? AND name = ?", (workspace_id, name))
            conn.execute("DELETE FROM document_writes WHERE workspace_id = ? AND name = ?", (workspace_id, name))
            chunks = dict(_rows_by_name(conn, "documents", "chunks", workspace_id, [name], ready=True))
            _add_chunks(conn, workspace_id, -int(chunks.get(name, 0)))
            cursor = conn.execute("DELETE FROM documents WHERE workspace_id = ? AND name = ?", (workspace_id, name))
        return cursor.rowcount > 0

    def chunk_total(self, workspace_id: str) -> int:
        """The chunks of the workspace's ready documents (one row, kept by every write of `documents`)."""
        with self._lock:
            row = self._conn.execute(
                "SELECT chunks FROM workspace_chunks WHERE workspace_id = ?", (workspace_id,)
            ).fetchone()
        return int(row[0]) if row else 0

    def workspaces(self) -> list[str]:
        """The workspaces that hold ready chunks."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT workspace_id FROM workspace_chunks WHERE chunks > 0 ORDER BY workspace_id"
            ).fetchall()
        return [str(row[0]) for row in rows]

    def document_frequencies(self, workspace_id: str, terms: Iterable[int]) -> dict[int, int]:
        """How many chunks of the workspace contain each term (absent terms are 0)."""
        wanted = list(dict.fromkeys(terms))
        if not wanted:
            return {}
        marks = ",".join("?" * len(wanted))
        with self._lock:
            rows = self._conn.execute(
                f"SELECT term, df FROM term_df WHERE workspace_id = ? AND term IN ({marks})",
                (workspace_id, *wanted),
            ).fetchall()
        found = {int(term): int(count) for term, count in rows}
        return {term: found.get(term, 0) for term in wanted}

    def _forget_term_sets(self) -> None:
        with self._lock:
            self._term_sets.clear()

    def terms_in_documents(
        self, workspace_id: str, names: Iterable[str], terms: Iterable[int]
    ) -> dict[str, set[int]]:
        """Which of `terms` each of the documents `names` contains (documents with none are left out).

        A document's terms are read from its packed row once and kept (`_TermSets`) under its version (its hash and
        upload time), so a version written by another process is read afresh; this process's own writes forget what
        it kept."""
        wanted = frozenset(terms)
        if not wanted:
            return {}
        names = list(dict.fromkeys(names))
        held: dict[str, set[int]] = {}
        with self._lock:
            unread = []
            for name, *version in _versions(self._conn, workspace_id, names):
                kept = self._term_sets.get((workspace_id, name, *version))
                if kept is None:
                    unread.append(name)
                elif found := kept.holding(wanted):
                    held[name] = found
            for name, blob, *version in _term_versions(self._conn, workspace_id, unread):
                read = _SortedTerms.of(bytes(blob))
                self._term_sets.put((workspace_id, name, *version), read)
                if found := read.holding(wanted):
                    held[name] = found
        return held

    def words_starting(self, workspace_id: str, prefix: str, limit: int = 500) -> list[str]:
        """Words of the workspace's documents that start with `prefix` (an index range scan)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT word FROM workspace_words WHERE workspace_id = ? AND word >= ? AND word < ? LIMIT ?",
                (workspace_id, prefix, prefix + "\U0010ffff", limit),
            ).fetchall()
        return [str(word) for (word,) in rows]

    # --- conversations -------------------------------------------------------------------------------

    def conversation(self, thread_id: str) -> Conversation | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT thread_id, workspace_id, run_key, runs, status FROM conversations WHERE thread_id = ?",
                (thread_id,),
            ).fetchone()
        return Conversation(*row) if row else None

    def start_run(self, thread_id: str, workspace_id: str) -> Conversation:
        """Begin a new question in a thread: a fresh graph run, so earlier questions' state stays apart.

        The first run claims the thread for its workspace, in one transaction (so across threads and
        processes); a thread never moves to another workspace."""
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT runs, workspace_id FROM conversations WHERE thread_id = ?", (thread_id,)
            ).fetchone()
            if row is not None and row[1] != workspace_id:
                raise ThreadOwnershipError(thread_id)
            runs = (row[0] + 1) if row else 1
            run_key = run_key_of(thread_id, runs)
            conn.execute(
                "INSERT INTO conversations (thread_id, workspace_id, run_key, runs, status, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (thread_id) DO UPDATE SET run_key = excluded.run_key, runs = excluded.runs, "
                "status = excluded.status, updated_at = excluded.updated_at",
                (thread_id, workspace_id, run_key, runs, running_status(), now_iso()),
            )
        return Conversation(thread_id, workspace_id, run_key, runs, running_status())

    def stale_runs(self, *, others_only: bool = False) -> list[Conversation]:
        """Conversations left 'running' by a process that is no longer running (killed mid-answer). At
        start-up a row naming this very process is stale too (a restarted container can get its old pid
        back); with `others_only`, while this process runs, its own are not."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT thread_id, workspace_id, run_key, runs, status FROM conversations "
                "WHERE status LIKE 'running%' ORDER BY thread_id"
            ).fetchall()
            own = running_status()
            return [Conversation(*row) for row in rows
                    if not (others_only and row[4] == own) and not self._owner_alive(str(row[4]))]

    def set_status(self, thread_id: str, status: str) -> None:
        with self.transaction() as conn:
            conn.execute(
                "UPDATE conversations SET status = ?, updated_at = ? WHERE thread_id = ?",
                (status, now_iso(), thread_id),
            )

    # --- feedback ------------------------------------------------------------------------------------

    def record_feedback(self, thread_id: str, run: int, user_id: str, value: str) -> None:
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO feedback (thread_id, run, user_id, value, created_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (thread_id, run, user_id) DO UPDATE SET value = excluded.value, "
                "created_at = excluded.created_at",
                (thread_id, run, user_id, value, now_iso()),
            )

    def feedback(self, thread_id: str, run: int) -> dict[str, str]:
        """user → "up" | "down" on one answer of a thread."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT user_id, value FROM feedback WHERE thread_id = ? AND run = ? ORDER BY user_id",
                (thread_id, run),
            ).fetchall()
        return dict(rows)

    def feedback_tally(self, thread_id: str, run: int) -> dict[str, int]:
        """{"up": n, "down": m} for one answer."""
        votes = self.feedback(thread_id, run)
        return {"up": sum(v == "up" for v in votes.values()), "down": sum(v == "down" for v in votes.values())}


def run_key_of(thread_id: str, run: int) -> str:
    """The graph run of a thread's `run`-th question (the inverse of `run_number`)."""
    return thread_id if run == 1 else f"{thread_id}#run{run}"


def run_number(run_key: str) -> int:
    """The question number of a graph run: `<thread>` is the first, `<thread>#run<n>` the n-th."""
    _, sep, n = run_key.rpartition("#run")
    return int(n) if sep and n.isdigit() else 1


def running_status() -> str:
    """'running:<host>:<pid>': which process is answering in a thread, so start-up recovery can settle the
    runs of a process that died and leave a live one's alone."""
    return f"running:{socket.gethostname()}:{os.getpid()}"


def _owner_alive(status: str, pg: PgConnection | None = None) -> bool:
    """Whether the process named in a '<state>:<host>:<pid>' status still runs. On one host, by its pid;
    on PostgreSQL, on any host, by its presence lock (`masis.records.db.announce_presence`)."""
    _, host, pid = [*status.split(":", 2), "", ""][:3]
    if not pid.isdigit() or f"{host}:{pid}" == process_owner():
        return False
    if pg is not None:
        return pg.owner_alive(f"{host}:{pid}")
    if host != socket.gethostname():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


# Term ids are Qdrant's BM25 token ids (u32) and counts are chunks of one document: both fit 32 bits.
_PACKED = "I"
if array(_PACKED).itemsize != 4:  # C's unsigned int is 32 bits on every platform Python supports today
    raise ImportError("masis.records.registry needs a 4-byte array('I')")


def _pack_terms(counts: Mapping[int, int]) -> bytes:
    """(term, chunk count) pairs as little-endian uint32s."""
    flat = array(_PACKED, itertools.chain.from_iterable(counts.items()))
    if sys.byteorder == "big":
        flat.byteswap()
    return flat.tobytes()


def _elements(counts: Mapping[int, int]) -> Iterator[int]:
    """Each term as many times as `counts` says (the counts are positive): `Counter.update` counts an
    iterable in C, a mapping in Python."""
    return itertools.chain.from_iterable(itertools.starmap(itertools.repeat, counts.items()))


def _pairs(blob: bytes) -> array:
    """A packed row's (term, count) pairs, flat: term, count, term, count, …"""
    flat = array(_PACKED)
    flat.frombytes(blob)
    if sys.byteorder == "big":
        flat.byteswap()
    return flat


def _unpack_terms(blob: bytes) -> dict[int, int]:
    flat = _pairs(blob)
    return dict(zip(flat[::2], flat[1::2], strict=True))


@dataclass(frozen=True)
class _SortedTerms:
    """A document's term ids, sorted (4 bytes a term), for asking which of a question's few terms it holds."""

    terms: array

    @classmethod
    def of(cls, blob: bytes) -> _SortedTerms:
        return cls(array(_PACKED, sorted(_pairs(blob)[::2])))

    @property
    def size(self) -> int:
        return len(self.terms) * self.terms.itemsize

    def holding(self, wanted: AbstractSet[int]) -> set[int]:
        terms = self.terms
        return {term for term in wanted if (at := bisect_left(terms, term)) < len(terms) and terms[at] == term}


# What a process keeps of its documents' terms: 32 MiB holds ~8 million term ids, the distinct terms of a few
# thousand typical documents (`terms_in_documents` reads the candidates' documents at every question).
TERM_SETS_BYTES = 32 * 2**20


class _TermSets:
    """The documents' sorted terms read recently, by (workspace, name, version), least recently used out first."""

    def __init__(self, limit: int = TERM_SETS_BYTES) -> None:
        self._limit = limit
        self._kept: OrderedDict[tuple[Any, ...], _SortedTerms] = OrderedDict()
        self._bytes = 0

    def get(self, key: tuple[Any, ...]) -> _SortedTerms | None:
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
        return kept

    def put(self, key: tuple[Any, ...], terms: _SortedTerms) -> None:
        if terms.size > self._limit or key in self._kept:
            return
        self._kept[key] = terms
        self._bytes += terms.size
        while self._bytes > self._limit:
            self._bytes -= self._kept.popitem(last=False)[1].size

    def clear(self) -> None:
        self._kept.clear()
        self._bytes = 0


def _versions(conn: Conn, workspace_id: str, names: Sequence[str]) -> Iterator[tuple[Any, ...]]:
    """(name, sha256, uploaded_at) of each of the documents `names`, from `documents` alone: the version a kept terms
    row is looked up by. Every write of a document gives it a new upload time, and the same hash has the same terms.
    Not joined to `doc_term_counts`: finding a name among its rows, which hold the packed terms, took 20 times as long
    (0.9 against 0.04 ms for 20 names, `bench_scaling`'s documents of 250 chunks)."""
    rows = _named_rows(conn, "SELECT name, sha256, uploaded_at FROM documents WHERE workspace_id = ? AND name",
                       workspace_id, names)
    return (tuple(row) for row in rows)


def _term_versions(conn: Conn, workspace_id: str, names: Sequence[str]) -> Iterator[tuple[Any, ...]]:
    """(name, terms, sha256, uploaded_at) of each of the documents `names` with a terms row, a bounded IN list at a
    time: the version is read in the same statement as the row it names."""
    rows = _named_rows(conn, "SELECT t.name, t.terms, d.sha256, d.uploaded_at FROM doc_term_counts t "
                       "JOIN documents d ON d.workspace_id = t.workspace_id AND d.name = t.name "
                       "WHERE t.workspace_id = ? AND t.name", workspace_id, names)
    return (tuple(row) for row in rows)


def _stored_terms(conn: Conn, workspace_id: str, name: str) -> dict[int, int]:
    """What a recorded document added to its workspace's document frequencies (empty if nothing)."""
    row = conn.execute(
        "SELECT terms FROM doc_term_counts WHERE workspace_id = ? AND name = ?", (workspace_id, name)
    ).fetchone()
    return _unpack_terms(row[0]) if row else {}


def _stored_terms_of(conn: Conn, workspace_id: str, names: Sequence[str]) -> dict[str, dict[int, int]]:
    """`_stored_terms` of several documents, by name (documents with nothing recorded are left out)."""
    rows = _rows_by_name(conn, "doc_term_counts", "terms", workspace_id, names)
    return {name: _unpack_terms(blob) for name, blob in rows}


def _stored_words_of(conn: Conn, workspace_id: str, names: Sequence[str]) -> dict[str, frozenset[str]]:
    """The words recorded for each of the documents `names` (documents with none are left out)."""
    rows = _rows_by_name(conn, "document_words", "words", workspace_id, names)
    return {name: frozenset(words.split("\n")) if words else frozenset() for name, words in rows}


def _rows_by_name(
    conn: Conn, table: str, column: str, workspace_id: str, names: Sequence[str], *, ready: bool = False
) -> Iterator[tuple[str, Any]]:
    """(name, `column`) of each of the documents `names` that has a row in `table`, a bounded IN list at a time;
    with `ready`, only rows whose status is 'ready' (of `documents`)."""
    status = " AND status = 'ready'" if ready else ""
    select = f"SELECT name, {column} FROM {table} WHERE workspace_id = ?{status} AND name"
    rows = _named_rows(conn, select, workspace_id, names)
    return ((str(name), value) for name, value in rows)


def _named_rows(conn: Conn, select: str, workspace_id: str, names: Sequence[str]) -> Iterator[tuple[Any, ...]]:
    """The rows of `select` (a statement ending in the name column it filters on, its one parameter the workspace)
    for the documents `names`, a bounded IN list at a time."""
    for start in range(0, len(names), _SQL_VARIABLES):
        part = names[start : start + _SQL_VARIABLES]
        yield from conn.execute(f"{select} IN ({','.join('?' * len(part))})", (workspace_id, *part)).fetchall()


# The per-workspace counts kept up to date by adding deltas: (table, key column, count column).
_TERM_COUNTS = ("term_df", "term", "df")  # chunks holding each term
_WORD_COUNTS = ("workspace_words", "word", "documents")  # documents holding each word


def _add_chunks(conn: Conn, workspace_id: str, delta: int) -> None:
    """Add `delta` to the workspace's chunk count; a count that reaches zero is dropped."""
    if not delta:
        return
    conn.execute(
        "INSERT INTO workspace_chunks (workspace_id, chunks) VALUES (?, ?) "
        "ON CONFLICT (workspace_id) DO UPDATE SET chunks = workspace_chunks.chunks + excluded.chunks",
        (workspace_id, delta),
    )
    conn.execute("DELETE FROM workspace_chunks WHERE workspace_id = ? AND chunks <= 0", (workspace_id,))


def _apply_delta(
    conn: Conn, counts: tuple[str, str, str], workspace_id: str, delta: Mapping[Any, int]
) -> None:
    """Add `delta` to one of the workspace's counts (`_TERM_COUNTS`, `_WORD_COUNTS`); a key whose count
    reaches zero is dropped."""
    table, key, count = counts
    conn.executemany(
        f"INSERT INTO {table} (workspace_id, {key}, {count}) VALUES (?, ?, ?) "
        f"ON CONFLICT (workspace_id, {key}) DO UPDATE SET {count} = {table}.{count} + excluded.{count}",
        ((workspace_id, item, n) for item, n in delta.items() if n),
    )
    conn.executemany(
        f"DELETE FROM {table} WHERE workspace_id = ? AND {key} = ? AND {count} <= 0",
        ((workspace_id, item) for item, n in delta.items() if n < 0),
    )
