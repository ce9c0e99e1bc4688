"""The registry's per-workspace document frequencies stay exact through ingest, replace and remove."""

from __future__ import annotations

import sqlite3
from collections import Counter
from itertools import chain
from pathlib import Path

from masis.registry import DocumentInfo, Registry


def _info(name: str, chunks: int) -> DocumentInfo:
    return DocumentInfo(name, chunks, 10, None, "tester", "2026-01-01T00:00:00+00:00", f"sha-{name}-{chunks}")


def test_document_frequencies_follow_documents(tmp_path: Path) -> None:
    registry = Registry(tmp_path / "masis.db")
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


def _frequencies(registry: Registry, workspace: str) -> dict[int, int]:
    return {t: n for t, n in registry.document_frequencies(workspace, range(1, 10)).items() if n}


def test_a_batch_records_the_same_statistics_as_one_document_at_a_time(tmp_path: Path) -> None:
    batch = [
        (_info("a.txt", 2), [frozenset({1, 2}), frozenset({2, 3})]),
        (_info("b.txt", 1), [frozenset({2, 4})]),
        (_info("a.txt", 1), [frozenset({5})]),  # the same name again: it replaces the first a.txt
        (_info("c.txt", 1), [frozenset()]),
    ]
    one_by_one, batched = Registry(tmp_path / "one.db"), Registry(tmp_path / "batch.db")
    for info, chunk_terms in batch:
        one_by_one.save_document("ws", info, chunk_terms)
    batched.save_documents("ws", [(info, Counter(chain.from_iterable(sets))) for info, sets in batch])
    for registry in (one_by_one, batched):
        assert _frequencies(registry, "ws") == {2: 1, 4: 1, 5: 1}
        assert [(d.name, d.chunks) for d in registry.documents("ws")] == [("a.txt", 1), ("b.txt", 1), ("c.txt", 1)]
    batched.save_documents("ws", [(_info("b.txt", 1), {4: 1, 6: 1}), (_info("d.txt", 1), {6: 1})])
    assert _frequencies(batched, "ws") == {4: 1, 5: 1, 6: 2}
    assert batched.delete_document("ws", "a.txt") and batched.delete_document("ws", "b.txt")
    assert _frequencies(batched, "ws") == {6: 1}
    with batched._tx() as conn:  # terms no chunk holds any more leave the table
        assert conn.execute("SELECT COUNT(*) FROM term_df").fetchone()[0] == 1
    one_by_one.close()
    batched.close()


def test_a_batch_is_one_transaction_however_many_documents(tmp_path: Path) -> None:
    registry = Registry(tmp_path / "masis.db")
    statements: list[str] = []
    registry._conn.set_trace_callback(statements.append)
    infos = [_info(f"doc-{i}.txt", 1) for i in range(50)]
    registry.begin_documents("ws", infos)
    registry.save_documents("ws", [(info, {i % 7: 1, 100 + i: 1}) for i, info in enumerate(infos)])
    assert sum(s.startswith("BEGIN") for s in statements) == 2
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
