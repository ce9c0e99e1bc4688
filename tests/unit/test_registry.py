"""The registry's per-workspace document frequencies stay exact through ingest, replace and remove."""

from __future__ import annotations

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
