"""The registry's per-workspace document frequencies stay exact through ingest, replace and remove."""

from __future__ import annotations

import sqlite3
import threading
from collections import Counter
from collections.abc import Callable
from itertools import chain
from pathlib import Path

import pytest

from masis.errors import ThreadOwnershipError
from masis.records.registry import Conversation, DocumentInfo, Registry


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[str], Path | str]:
    """The registry's database by name: a SQLite file, or a fresh PostgreSQL database per name."""
    if request.param == "sqlite":
        return lambda name: tmp_path / name
    server = request.getfixturevalue("postgres_server")
    urls: dict[str, str] = {}

    def url(name: str) -> str:
        if name not in urls:
            urls[name] = server.create_database()
        return urls[name]

    return url


def _info(name: str, chunks: int) -> DocumentInfo:
    return DocumentInfo(name, chunks, 10, None, "tester", "2026-01-01T00:00:00+00:00", f"sha-{name}-{chunks}")


def test_document_frequencies_follow_documents(database: Callable[[str], Path | str]) -> None:
    registry = Registry(database("masis.db"))
    registry.save_document("ws", _info("a.txt", 2), [frozenset({1, 2}), frozenset({2, 3})])
    registry.save_document("ws", _info("b.txt", 1), [frozenset({2, 4})])
    registry.save_document("other", _info("c.txt", 1), [frozenset({1, 2, 3, 4})])
    assert registry.document_frequencies("ws", [1, 2, 3, 4, 5]) == {1: 1, 2: 3, 3: 1, 4: 1, 5: 0}
    assert registry.chunk_total("ws") == 3

    registry.save_document("ws", _info("a.txt", 1), [frozenset({5})])  # a changed version replaces the old
    assert registry.document_frequencies("ws", [1, 2, 3, 4, 5]) == {1: 0, 2: 1, 3: 0, 4: 1, 5: 1}
    assert registry.chunk_total("ws") == 2

    assert registry.delete_document("ws", "b.txt")
    assert registry.document_frequencies("ws", [2, 4, 5]) == {2: 0, 4: 0, 5: 1}
    assert registry.document_frequencies("other", [1, 2, 3, 4]) == {1: 1, 2: 1, 3: 1, 4: 1}
    assert not registry.delete_document("ws", "b.txt")
    registry.close()


def test_terms_in_documents_finds_terms_not_counts_or_bytes_across_two_numbers(
    database: Callable[[str], Path | str],
) -> None:
    registry = Registry(database("masis.db"))
    registry.save_document("ws", _info("a.txt", 2), [frozenset({1, 2}), frozenset({2, 3})])
    # stored as the pair (65536, 1): little-endian 00 00 01 00 | 01 00 00 00, so the bytes of 65537 (01 00 01 00)
    # start two bytes in, and those of 1 where the count is
    registry.save_document("ws", _info("b.txt", 1), [frozenset({65536})])
    registry.save_document("other", _info("a.txt", 1), [frozenset({5})])

    held = registry.terms_in_documents("ws", ["a.txt", "b.txt", "missing.txt"], [1, 2, 5, 65536, 65537])
    assert held == {"a.txt": {1, 2}, "b.txt": {65536}}
    assert registry.terms_in_documents("ws", ["b.txt"], [1, 65537]) == {}
    assert registry.terms_in_documents("other", ["a.txt"], [1, 5]) == {"a.txt": {5}}
    assert registry.terms_in_documents("ws", ["a.txt"], []) == {}
    registry.close()


def test_terms_in_documents_reads_a_version_another_connection_wrote(database: Callable[[str], Path | str]) -> None:
    """A process keeps a document's terms once read; a new version written by another process (another connection
    to the same registry) is read afresh, and this process's own writes forget what it kept."""
    reader, writer = Registry(database("masis.db")), Registry(database("masis.db"))
    writer.save_document("ws", _info("a.txt", 1), [frozenset({1, 2})])
    assert reader.terms_in_documents("ws", ["a.txt"], [1, 2, 3]) == {"a.txt": {1, 2}}
    # the same name, hash and upload time (which a real upload never repeats with other terms): the writer's own
    # write forgets what it kept
    writer.save_document("ws", _info("a.txt", 1), [frozenset({3, 2})])
    assert writer.terms_in_documents("ws", ["a.txt"], [1, 2, 3]) == {"a.txt": {2, 3}}
    newer = DocumentInfo("a.txt", 1, 10, None, "tester", "2026-01-02T00:00:00+00:00", "sha-a.txt-new")
    writer.save_document("ws", newer, [frozenset({3, 4})])
    assert reader.terms_in_documents("ws", ["a.txt"], [1, 2, 3, 4]) == {"a.txt": {3, 4}}
    reader.save_document("ws", _info("b.txt", 1), [frozenset({9})])
    writer.delete_document("ws", "a.txt")
    assert reader.terms_in_documents("ws", ["a.txt", "b.txt"], [3, 9]) == {"b.txt": {9}}
    reader.close()
    writer.close()


def test_a_thread_is_claimed_by_one_workspace_even_from_two_connections_at_once(
    database: Callable[[str], Path | str],
) -> None:
    """Two processes' registries on one file start a run in one thread at once, for two workspaces: one
    claims the thread, the other is refused, and the thread never moves."""
    first, second = Registry(database("masis.db")), Registry(database("masis.db"))
    barrier = threading.Barrier(2)
    results: dict[str, object] = {}

    def start(registry: Registry, workspace: str) -> None:
        barrier.wait()
        try:
            results[workspace] = registry.start_run("T1:C1:1.0", workspace)
        except ThreadOwnershipError as exc:
            results[workspace] = exc

    workers = [threading.Thread(target=start, args=(reg, ws)) for reg, ws in ((first, "ws-a"), (second, "ws-b"))]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    winners = [ws for ws, result in results.items() if isinstance(result, Conversation)]
    losers = [ws for ws, result in results.items() if isinstance(result, ThreadOwnershipError)]
    assert len(winners) == 1 and len(losers) == 1
    owner = first.conversation("T1:C1:1.0")
    assert owner is not None and owner.workspace_id == winners[0]
    with pytest.raises(ThreadOwnershipError):  # later, too
        second.start_run("T1:C1:1.0", losers[0])
    assert first.start_run("T1:C1:1.0", winners[0]).runs == 2, "the owner asks again in its thread"
    assert second.conversation("T1:C1:1.0").workspace_id == winners[0]  # type: ignore[union-attr]
    first.close()
    second.close()


def test_feedback_is_kept_per_answer(database: Callable[[str], Path | str]) -> None:
    registry = Registry(database("masis.db"))
    registry.start_run("t1", "ws")
    registry.start_run("t1", "ws")  # a second question in the thread
    registry.record_feedback("t1", 1, "U1", "up")
    registry.record_feedback("t1", 2, "U1", "down")  # a vote on the second answer leaves the first alone
    registry.record_feedback("t1", 2, "U2", "down")
    registry.record_feedback("t1", 2, "U2", "up")  # a change of mind replaces the earlier vote
    assert registry.feedback("t1", 1) == {"U1": "up"}
    assert registry.feedback("t1", 2) == {"U1": "down", "U2": "up"}
    assert registry.feedback_tally("t1", 2) == {"up": 1, "down": 1}
    registry.close()


def test_feedback_stored_per_thread_by_an_older_version_moves_to_the_latest_answer(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "masis.db"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE conversations (thread_id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, run_key TEXT NOT NULL,"
        " runs INTEGER NOT NULL DEFAULT 1, status TEXT NOT NULL, updated_at TEXT NOT NULL);"
        "CREATE TABLE feedback (thread_id TEXT NOT NULL, user_id TEXT NOT NULL, value TEXT NOT NULL,"
        " created_at TEXT NOT NULL, PRIMARY KEY (thread_id, user_id));"
        "INSERT INTO conversations VALUES ('t1', 'ws', 't1#run3', 3, 'answered', '2026-01-01');"
        "INSERT INTO feedback VALUES ('t1', 'U1', 'up', '2026-01-01'), ('gone', 'U2', 'down', '2026-01-01');"
    )
    old.commit()
    old.close()
    registry = Registry(path)
    assert registry.feedback("t1", 3) == {"U1": "up"}
    assert registry.feedback("gone", 1) == {"U2": "down"}
    registry.record_feedback("t1", 2, "U1", "down")
    assert registry.feedback("t1", 3) == {"U1": "up"}
    registry.close()
    reopened = Registry(path)  # opening a migrated file again changes nothing
    assert reopened.feedback("t1", 2) == {"U1": "down"} and reopened.feedback("t1", 3) == {"U1": "up"}
    reopened.close()


def test_run_numbers() -> None:
    from masis.records.registry import run_number

    assert [run_number(k) for k in ("T1:C1:1.2", "T1:C1:1.2#run2", "local:abc#run17")] == [1, 2, 17]


def _frequencies(registry: Registry, workspace: str) -> dict[int, int]:
    return {t: n for t, n in registry.document_frequencies(workspace, range(1, 10)).items() if n}


def test_a_batch_records_the_same_statistics_as_one_document_at_a_time(database: Callable[[str], Path | str]) -> None:
    batch = [
        (_info("a.txt", 2), [frozenset({1, 2}), frozenset({2, 3})]),
        (_info("b.txt", 1), [frozenset({2, 4})]),
        (_info("a.txt", 1), [frozenset({5})]),  # the same name again: it replaces the first a.txt
        (_info("c.txt", 1), [frozenset()]),
    ]
    one_by_one, batched = Registry(database("one.db")), Registry(database("batch.db"))
    for info, chunk_terms in batch:
        one_by_one.save_document("ws", info, chunk_terms)
    batched.save_documents("ws", [(info, Counter(chain.from_iterable(sets)), frozenset()) for info, sets in batch])
    for registry in (one_by_one, batched):
        assert _frequencies(registry, "ws") == {2: 1, 4: 1, 5: 1}
        assert [(d.name, d.chunks) for d in registry.documents("ws")] == [("a.txt", 1), ("b.txt", 1), ("c.txt", 1)]
        assert registry.chunk_total("ws") == 3
    batched.save_documents(
        "ws",
        [
            (_info("b.txt", 1), {4: 1, 6: 1}, frozenset({"acquisition", "board"})),
            (_info("d.txt", 1), {6: 1}, frozenset({"acquisition", "acquired"})),
        ],
    )
    assert _frequencies(batched, "ws") == {4: 1, 5: 1, 6: 2}
    assert batched.words_starting("ws", "acq") == ["acquired", "acquisition"]
    assert batched.delete_document("ws", "a.txt") and batched.delete_document("ws", "b.txt")
    assert _frequencies(batched, "ws") == {6: 1}
    assert batched.chunk_total("ws") == 2  # c.txt and d.txt
    assert batched.words_starting("ws", "acq") == ["acquired", "acquisition"]  # d.txt still holds both
    assert batched.words_starting("ws", "boa") == []  # only b.txt held "board"
    batched.save_document("ws", _info("d.txt", 1), [frozenset({6})], frozenset({"acquired"}))  # a new version
    assert batched.words_starting("ws", "acq") == ["acquired"]
    assert batched.words_starting("other", "acq") == []  # a vocabulary is its workspace's own
    with batched.transaction() as conn:  # terms no chunk holds any more leave the table
        assert conn.execute("SELECT COUNT(*) FROM term_df").fetchone()[0] == 1
    one_by_one.close()
    batched.close()


def test_the_chunk_count_of_a_registry_from_before_it_was_kept_is_counted_once(
    database: Callable[[str], Path | str],
) -> None:
    """`chunk_total` (BM25's N for the embedded store) reads one row a workspace; a registry written before
    that row existed gets it from its ready documents when it is first opened."""
    registry = Registry(database("masis.db"))
    registry.save_document("ws", _info("a.txt", 3), [frozenset({1})] * 3)
    registry.save_document("ws", _info("b.txt", 2), [frozenset({2})] * 2)
    registry.save_document("other", _info("c.txt", 4), [frozenset({3})] * 4)
    with registry.transaction() as conn:  # as an older MASIS left it: no counts, and a document left unfinished
        conn.execute("DELETE FROM workspace_chunks")
        conn.execute("UPDATE documents SET status = 'indexing:h:1' WHERE name = 'b.txt'")
    registry.close()
    reopened = Registry(database("masis.db"))
    assert (reopened.chunk_total("ws"), reopened.chunk_total("other"), reopened.chunk_total("none")) == (3, 4, 0)
    reopened.save_document("ws", _info("b.txt", 5), [frozenset({2})] * 5)  # the unfinished one, indexed again
    assert reopened.chunk_total("ws") == 8
    assert reopened.delete_document("ws", "a.txt") and reopened.delete_document("ws", "b.txt")
    assert reopened.chunk_total("ws") == 0
    reopened.close()


def test_a_batch_is_one_transaction_however_many_documents(tmp_path: Path) -> None:
    registry = Registry(tmp_path / "masis.db")
    statements: list[str] = []
    registry._conn.set_trace_callback(statements.append)
    infos = [_info(f"doc-{i}.txt", 1) for i in range(50)]
    versions = {info.name: f"v{i}" for i, info in enumerate(infos)}
    registry.begin_writes("ws", versions)
    registry.save_documents(
        "ws", [(info, {i % 7: 1, 100 + i: 1}, frozenset()) for i, info in enumerate(infos)], versions
    )
    registry.end_writes("ws", versions)
    assert sum(s.startswith("BEGIN") for s in statements) == 3
    assert _frequencies(registry, "ws") == {i: len(range(i, 50, 7)) for i in range(1, 7)}
    registry.close()


def test_a_registry_from_before_packed_term_counts_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "masis.db"
    legacy = sqlite3.connect(path)
    legacy.executescript(
        "CREATE TABLE doc_terms (workspace_id TEXT NOT NULL, name TEXT NOT NULL, term INTEGER NOT NULL, "
        "df INTEGER NOT NULL, PRIMARY KEY (workspace_id, name, term)) WITHOUT ROWID;"
        "CREATE TABLE term_df (workspace_id TEXT NOT NULL, term INTEGER NOT NULL, df INTEGER NOT NULL, "
        "PRIMARY KEY (workspace_id, term)) WITHOUT ROWID;"
        "INSERT INTO doc_terms VALUES ('ws', 'a.txt', 1, 2), ('ws', 'a.txt', 2, 1), ('ws', 'b.txt', 2, 1),"
        " ('other', 'a.txt', 3, 1);"
        "INSERT INTO term_df VALUES ('ws', 1, 2), ('ws', 2, 2), ('other', 3, 1);"
    )
    legacy.close()
    registry = Registry(path)
    tables = {row[0] for row in registry._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "doc_terms" not in tables
    assert _frequencies(registry, "ws") == {1: 2, 2: 2}
    registry.delete_document("ws", "a.txt")  # what a.txt added is known after the upgrade, and taken out
    assert _frequencies(registry, "ws") == {2: 1}
    assert _frequencies(registry, "other") == {3: 1}
    registry.close()
    Registry(path).close()  # opening it again is a no-op


def test_the_registry_keeps_its_file_name_so_an_existing_data_directory_keeps_its_documents(tmp_path: Path) -> None:
    """The SQLite registry is `masis.db` in the data directory, as it always was (a rename would open an empty
    registry beside the old one and lose every channel's documents)."""
    from masis.config import Settings

    settings = Settings(_env_file=None, data_dir=tmp_path, database_url=None)
    assert settings.registry_target == tmp_path / "masis.db"
