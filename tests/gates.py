"""Deterministic meeting points for concurrency tests: a gate that holds a thread at a pause point, a flag a
pause point raises, and a worker thread that keeps its result (no sleeps: every wait is for an event)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

# A safety net so a broken test fails instead of hanging; no test waits this long when it passes.
STUCK = 120.0


class Gate:
    """A pause-point hook that holds the first thread to arrive (of those named `only`, if given) until
    `release()`; later arrivals, and any arrival after the release, pass straight through."""

    def __init__(self, only: str | None = None) -> None:
        self.only = only
        self.reached = threading.Event()
        self._open = threading.Event()
        self._guard = threading.Lock()

    def __call__(self) -> None:
        if self.only is not None and threading.current_thread().name != self.only:
            return
        with self._guard:
            first = not self.reached.is_set()
            self.reached.set()
        if first and not self._open.wait(STUCK):
            raise AssertionError("a gate was never released")

    def wait(self) -> bool:
        """Whether a thread reached the gate (False after STUCK seconds: it never came)."""
        return self.reached.wait(STUCK)

    def release(self) -> None:
        self._open.set()


class Flag:
    """A pause-point hook that only records that a thread (named `only`, if given) passed by."""

    def __init__(self, only: str | None = None) -> None:
        self.only = only
        self.raised = threading.Event()

    def __call__(self) -> None:
        if self.only is None or threading.current_thread().name == self.only:
            self.raised.set()


class Worker(threading.Thread, Generic[T]):
    """`fn()` in a thread named `name`; `outcome()` is its result, or raises what it raised."""

    def __init__(self, name: str, fn: Callable[[], T]) -> None:
        super().__init__(name=name, daemon=True)
        self._fn = fn
        self._result: T | None = None
        self._error: BaseException | None = None
        self.finished = threading.Event()
        self.start()

    def run(self) -> None:
        try:
            self._result = self._fn()
        except BaseException as exc:  # handed to the test by outcome()
            self._error = exc
        finally:
            self.finished.set()

    def outcome(self) -> T:
        self.join(STUCK)
        assert not self.is_alive(), f"{self.name} is stuck"
        if self._error is not None:
            raise self._error
        return self._result  # type: ignore[return-value]


def first_of(*events: threading.Event) -> bool:
    """Wait until any of `events` is set (False after STUCK seconds)."""
    either = threading.Event()
    watchers = [threading.Thread(target=lambda e=e: e.wait(STUCK) and either.set(), daemon=True) for e in events]
    for watcher in watchers:
        watcher.start()
    return either.wait(STUCK)
