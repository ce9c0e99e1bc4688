"""Background work after the ack: a thread pool where work on one Slack thread runs one at a time.

Slack wants an ack within 3 s; answering takes longer. Listeners ack, then `submit` the work here. A job
that fails calls its `on_error` (which posts a friendly message in the thread); nothing is ever silent.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from masis.locks import KeyedLocks

log = logging.getLogger(__name__)


class Jobs:
    def __init__(self, max_workers: int = 8, locks: KeyedLocks | None = None) -> None:
        self._pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="masis-job")
        self.locks = locks or KeyedLocks()
        self._count_lock = threading.Lock()
        self._in_flight = 0

    def submit(
        self,
        fn: Callable[[], None],
        *,
        key: str | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        name: str = "job",
    ) -> Future[None]:
        """Run `fn` in the background, under the lock of `key` when given."""

        def run() -> None:
            try:
                if key is None:
                    fn()
                else:
                    with self.locks.hold(key):
                        fn()
            except Exception as exc:
                log.exception("%s failed", name)
                if on_error is not None:
                    try:
                        on_error(exc)
                    except Exception:
                        log.exception("%s: reporting the failure failed too", name)
            finally:
                with self._count_lock:
                    self._in_flight -= 1

        with self._count_lock:
            self._in_flight += 1
        try:
            return self._pool.submit(run)
        except RuntimeError:  # shutting down
            with self._count_lock:
                self._in_flight -= 1
            raise

    @property
    def in_flight(self) -> int:
        with self._count_lock:
            return self._in_flight

    def shutdown(self, *, wait: bool = True) -> None:
        """Stop taking work; with `wait`, let running jobs finish (queued ones are dropped)."""
        self._pool.shutdown(wait=wait, cancel_futures=True)
