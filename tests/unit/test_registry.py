"""The registry's per-workspace document frequencies stay exact through ingest, replace and remove."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from masis.errors import ThreadOwnershipError
from masis.registry import Conversation, DocumentInfo, Registry


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


def test_a_thread_is_claimed_by_one_workspace_even_from_two_connections_at_once(tmp_path: Path) -> None:
    """Two processes' registries on one file start a run in one thread at once, for two workspaces: one
    claims the thread, the other is refused, and the thread never moves."""
    first, second = Registry(tmp_path / "masis.db"), Registry(tmp_path / "masis.db")
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


def test_feedback_is_kept_per_answer(tmp_path: Path) -> None:
    registry = Registry(tmp_path / "masis.db")
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
    from masis.registry import run_number

    assert [run_number(k) for k in ("T1:C1:1.2", "T1:C1:1.2#run2", "local:abc#run17")] == [1, 2, 17]
