"""The SQLite registry beside the vector store: documents, per-workspace term statistics,
conversations (which graph run a thread is on) and feedback.

Term statistics give the relevance score its IDF (see `masis.relevance`) per workspace, so one
channel's documents never shape another channel's scores.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from masis.errors import ThreadOwnershipError

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
CREATE TABLE IF NOT EXISTS doc_terms (
    workspace_id TEXT NOT NULL,
    name TEXT NOT NULL,
    term INTEGER NOT NULL,
    df INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, name, term)
) WITHOUT ROWID;
-- each document's words (lower case, long enough to have derived forms): the workspace's vocabulary, so a
-- question's "acquiring" can also search for the "acquisition" its documents say (masis.matching)
CREATE TABLE IF NOT EXISTS doc_words (
    workspace_id TEXT NOT NULL,
    word TEXT NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (workspace_id, word, name)
) WITHOUT ROWID;
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
class Conversation:
    thread_id: str
    workspace_id: str
    run_key: str
    runs: int
    status: str


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Registry:
    """Thread-safe access to the registry database (one connection, WAL, a busy timeout)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(path, check_same_thread=False, timeout=30, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.executescript(_SCHEMA)
        self._lock = threading.RLock()
        self._migrate_feedback()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def _migrate_feedback(self) -> None:
        """Feedback was once one vote per user per thread (no `run`): each such vote rated the thread's
        latest answer at the time, so it moves to that answer (the thread's last run)."""
        with self._tx() as conn:
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
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

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

    def begin_document(self, workspace_id: str, info: DocumentInfo) -> None:
        """Mark a document 'indexing' before its points are written (an older version stops being listed)."""
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO documents "
                "(workspace_id, name, sha256, chunks, size_bytes, pages, uploaded_by, uploaded_at, status) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (workspace_id, name) DO UPDATE SET status = excluded.status",
                (workspace_id, info.name, info.sha256, info.chunks, info.size_bytes, info.pages,
                 info.uploaded_by, info.uploaded_at, indexing_status()),
            )

    def unfinished_documents(self) -> list[tuple[str, str]]:
        """(workspace, name) of every document left 'indexing' by a process that is no longer running.

        A document another live process on this host is indexing right now (several processes can share
        a Qdrant server and this file) is not unfinished."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT workspace_id, name, status FROM documents WHERE status != 'ready' "
                "ORDER BY workspace_id, name"
            ).fetchall()
        return [(str(w), str(n)) for w, n, status in rows if not _owner_alive(str(status))]

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
        words: Iterable[str] = (),
    ) -> None:
        """Record a fully indexed document, its term statistics and its words in one transaction."""
        df = Counter(term for terms in chunk_terms for term in terms)
        with self._tx() as conn:
            _forget_terms(conn, workspace_id, info.name)
            conn.execute(
                "INSERT OR REPLACE INTO documents "
                "(workspace_id, name, sha256, chunks, size_bytes, pages, uploaded_by, uploaded_at, status) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'ready')",
                (
                    workspace_id,
                    info.name,
                    info.sha256,
                    info.chunks,
                    info.size_bytes,
                    info.pages,
                    info.uploaded_by,
                    info.uploaded_at,
                ),
            )
            conn.executemany(
                "INSERT INTO doc_terms (workspace_id, name, term, df) VALUES (?, ?, ?, ?)",
                ((workspace_id, info.name, term, count) for term, count in df.items()),
            )
            conn.executemany(
                "INSERT OR IGNORE INTO doc_words (workspace_id, word, name) VALUES (?, ?, ?)",
                ((workspace_id, word, info.name) for word in set(words)),
            )
            conn.executemany(
                "INSERT INTO term_df (workspace_id, term, df) VALUES (?, ?, ?) "
                "ON CONFLICT (workspace_id, term) DO UPDATE SET df = df + excluded.df",
                ((workspace_id, term, count) for term, count in df.items()),
            )

    def delete_document(self, workspace_id: str, name: str) -> bool:
        with self._tx() as conn:
            _forget_terms(conn, workspace_id, name)
            cursor = conn.execute("DELETE FROM documents WHERE workspace_id = ? AND name = ?", (workspace_id, name))
        return cursor.rowcount > 0

    def chunk_total(self, workspace_id: str) -> int:
        with self._lock:
            row = self._conn.execute(
                "SELECT COALESCE(SUM(chunks), 0) FROM documents WHERE workspace_id = ? AND status = 'ready'",
                (workspace_id,),
            ).fetchone()
        return int(row[0])

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

    def document_terms(self, workspace_id: str, names: Iterable[str], terms: Iterable[int]) -> dict[str, set[int]]:
        """Which of `terms` each of the documents `names` contains (documents with none are left out)."""
        wanted, documents = list(dict.fromkeys(terms)), list(dict.fromkeys(names))
        if not wanted or not documents:
            return {}
        term_marks, name_marks = ",".join("?" * len(wanted)), ",".join("?" * len(documents))
        with self._lock:
            rows = self._conn.execute(
                f"SELECT name, term FROM doc_terms WHERE workspace_id = ? AND name IN ({name_marks}) "
                f"AND term IN ({term_marks})",
                (workspace_id, *documents, *wanted),
            ).fetchall()
        found: dict[str, set[int]] = {}
        for name, term in rows:
            found.setdefault(str(name), set()).add(int(term))
        return found

    def words_starting(self, workspace_id: str, prefix: str, limit: int = 500) -> list[str]:
        """Words of the workspace's documents that start with `prefix` (an index range scan)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT DISTINCT word FROM doc_words WHERE workspace_id = ? AND word >= ? AND word < ? LIMIT ?",
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
        with self._tx() as conn:
            row = conn.execute(
                "SELECT runs, workspace_id FROM conversations WHERE thread_id = ?", (thread_id,)
            ).fetchone()
            if row is not None and row[1] != workspace_id:
                raise ThreadOwnershipError(thread_id)
            runs = (row[0] + 1) if row else 1
            run_key = thread_id if runs == 1 else f"{thread_id}#run{runs}"
            conn.execute(
                "INSERT INTO conversations (thread_id, workspace_id, run_key, runs, status, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (thread_id) DO UPDATE SET run_key = excluded.run_key, runs = excluded.runs, "
                "status = excluded.status, updated_at = excluded.updated_at",
                (thread_id, workspace_id, run_key, runs, running_status(), now_iso()),
            )
        return Conversation(thread_id, workspace_id, run_key, runs, running_status())

    def stale_runs(self) -> list[Conversation]:
        """Conversations left 'running' by a process that is no longer running (killed mid-answer)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT thread_id, workspace_id, run_key, runs, status FROM conversations "
                "WHERE status LIKE 'running%' ORDER BY thread_id"
            ).fetchall()
        return [Conversation(*row) for row in rows if not _owner_alive(str(row[4]))]

    def set_status(self, thread_id: str, status: str) -> None:
        with self._tx() as conn:
            conn.execute(
                "UPDATE conversations SET status = ?, updated_at = ? WHERE thread_id = ?",
                (status, now_iso(), thread_id),
            )

    # --- feedback ------------------------------------------------------------------------------------

    def record_feedback(self, thread_id: str, run: int, user_id: str, value: str) -> None:
        with self._tx() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO feedback (thread_id, run, user_id, value, created_at) VALUES (?, ?, ?, ?, ?)",
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


def run_number(run_key: str) -> int:
    """The question number of a graph run: `<thread>` is the first, `<thread>#run<n>` the n-th."""
    _, sep, n = run_key.rpartition("#run")
    return int(n) if sep and n.isdigit() else 1


def indexing_status() -> str:
    """'indexing:<host>:<pid>': whose ingest this is, so start-up recovery leaves a live one alone."""
    return f"indexing:{socket.gethostname()}:{os.getpid()}"


def running_status() -> str:
    """'running:<host>:<pid>': which process is answering in a thread, so start-up recovery can settle the
    runs of a process that died and leave a live one's alone."""
    return f"running:{socket.gethostname()}:{os.getpid()}"


def _owner_alive(status: str) -> bool:
    _, host, pid = [*status.split(":", 2), "", ""][:3]
    if host != socket.gethostname() or not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def _forget_terms(conn: sqlite3.Connection, workspace_id: str, name: str) -> None:
    """Take a document's terms out of the workspace's document frequencies."""
    conn.execute(
        "UPDATE term_df SET df = df - (SELECT d.df FROM doc_terms d WHERE d.workspace_id = term_df.workspace_id "
        "AND d.term = term_df.term AND d.name = ?) "
        "WHERE workspace_id = ? AND term IN (SELECT term FROM doc_terms WHERE workspace_id = ? AND name = ?)",
        (name, workspace_id, workspace_id, name),
    )
    conn.execute(
        "DELETE FROM term_df WHERE workspace_id = ? AND df <= 0 "
        "AND term IN (SELECT term FROM doc_terms WHERE workspace_id = ? AND name = ?)",
        (workspace_id, workspace_id, name),
    )
    conn.execute("DELETE FROM doc_terms WHERE workspace_id = ? AND name = ?", (workspace_id, name))
    conn.execute("DELETE FROM doc_words WHERE workspace_id = ? AND name = ?", (workspace_id, name))
