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
