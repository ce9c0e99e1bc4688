"""One lock per key (a conversation thread, a document), created on demand and dropped when nobody holds or
waits for it.

LangGraph does not serialize runs of one thread; two replies racing in a thread must resume it once, so
every piece of work on a thread runs under its lock. Writers of documents hold several keys at once
(`hold_all`), always taken in sorted order, so two holders of overlapping sets cannot deadlock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager


class KeyedLocks:
    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, tuple[threading.Lock, int]] = {}

    @contextmanager
    def hold(self, key: str) -> Iterator[None]:
        with self.hold_all([key]):
            yield

    @contextmanager
    def hold_all(
        self, keys: Iterable[str], *, wait: bool = True, on_wait: Callable[[], None] | None = None
    ) -> Iterator[bool]:
        """Hold every lock of `keys`, taken in sorted order; yields True. With `wait=False`, a key held by
        another yields False instead, holding none. `on_wait` is called before blocking on a held key."""
        ordered = sorted(set(keys))
        held: list[str] = []
        try:
            for key in ordered:
                lock = self._enter(key)
                try:
                    got = lock.acquire(blocking=False)
                    if not got and wait:
                        if on_wait is not None:
                            on_wait()
                        got = lock.acquire()
                except BaseException:
                    self._leave(key)
                    raise
                if not got:
                    self._leave(key)
                    self._release(held)
                    yield False
                    return
                held.append(key)
            yield True
        finally:
            self._release(held)

    def _release(self, held: list[str]) -> None:
        while held:
            key = held.pop()
            self._locks[key][0].release()
            self._leave(key)

    def _enter(self, key: str) -> threading.Lock:
        """The key's lock, counted as used (held or waited for) until `_leave`."""
        with self._guard:
            lock, users = self._locks.get(key, (None, 0))
            if lock is None:
                lock = threading.Lock()
            self._locks[key] = (lock, users + 1)
            return lock

    def _leave(self, key: str) -> None:
        with self._guard:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        with self._guard:
            return len(self._locks)
