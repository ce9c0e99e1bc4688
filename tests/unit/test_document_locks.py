"""Writers of documents hold several names at once: every holder takes them in sorted order (so a waiter
holds nothing that sorts after the name it waits for, and overlapping holders cannot deadlock), a writer
that asked not to wait is told the name is busy and holds nothing, and a workspace's names are its own."""

from __future__ import annotations

import threading

import pytest

from masis.errors import DocumentBusyError
from masis.pause import hooked
from masis.records.document_locks import DocumentLocks
from masis.records.locks import KeyedLocks
from tests.gates import Worker


def _free(locks: KeyedLocks, key: str) -> bool:
    with locks.hold_all([key], wait=False) as held:
        return held


def test_a_busy_key_without_waiting_holds_nothing() -> None:
    locks = KeyedLocks()
    with locks.hold_all(["b"]), locks.hold_all(["a", "b", "c"], wait=False) as held:
        assert held is False
        assert _free(locks, "a") and _free(locks, "c")
    with locks.hold_all(["c", "a", "b"], wait=False) as held:
        assert held is True
        assert not _free(locks, "a") and not _free(locks, "b") and not _free(locks, "c")
    assert len(locks) == 0


def test_a_waiter_holds_only_what_sorts_before_the_key_it_waits_for() -> None:
    locks = KeyedLocks()
    seen: dict[str, bool] = {}
    waiting = threading.Event()

    def on_wait() -> None:  # in the waiter's thread, just before it blocks
        seen.update(a=_free(locks, "a"), c=_free(locks, "c"))
        waiting.set()

    def wait_for_all() -> bool:
        with locks.hold_all(["c", "b", "a"], on_wait=on_wait) as held:
            return held

    with locks.hold_all(["b"]):
        waiter = Worker("waiter", wait_for_all)
        assert waiting.wait(60)
        assert not waiter.finished.is_set()
    assert waiter.outcome() is True
    assert seen == {"a": False, "c": True}, "while waiting for b it held a, and not c"
    assert len(locks) == 0


def test_documents_are_held_per_workspace_and_a_busy_one_is_said_so() -> None:
    locks = DocumentLocks()
    assert locks.max_names is None
    with locks.hold("T1:C1", ["report.pdf", "notes.md"]):
        with locks.hold("T1:C2", ["report.pdf"], wait=False):
            pass  # another channel's report.pdf is another document
        with pytest.raises(DocumentBusyError, match=r"One of report\.pdf, other\.md is being uploaded or removed"), \
                locks.hold("T1:C1", ["report.pdf", "other.md"], wait=False):
            pass
        with locks.hold("T1:C1", ["other.md"], wait=False):
            pass  # the refused hold let go of what it had taken
    with locks.hold("T1:C1", ["report.pdf"], wait=False):
        pass


def test_a_writer_that_must_wait_passes_the_waiting_point_first() -> None:
    locks = DocumentLocks()
    waited = threading.Event()
    def take() -> None:
        with locks.hold("ws", ["a.txt"]):
            pass

    with hooked("documents:waiting", waited.set), locks.hold("ws", ["a.txt"]):
        other = Worker("other", take)
        assert waited.wait(60)
        assert not other.finished.is_set()
    other.outcome()
