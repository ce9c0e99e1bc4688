"""The memory budget of parsing: how many isolated parses may run at once in this process, served in order.

Each isolated parse may use `MASIS_PARSE_MEMORY_MB` on top of what the process maps, and the bot and the API
run many uploads at once (8 bot jobs, 40 API threads): without a bound, six uploads of a tag flood took
8.5 GB. At most `MASIS_PARSE_CONCURRENCY` parses run at once (by default as many as there are CPUs and as the
memory available when the first file is parsed holds caps); the others wait in arrival order.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections import deque
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path

from masis.config import Settings

log = logging.getLogger(__name__)

# While a parse waits, its place in line is reported when it changes, checked this often (seconds).
_RECHECK_SECONDS = 2.0


class FairSlots:
    """A semaphore that serves its waiters first come, first served (`threading.Semaphore` wakes any)."""

    def __init__(self, slots: int) -> None:
        self._lock = threading.Lock()
        self._slots = max(1, slots)
        self._busy = 0
        self._line: deque[threading.Event] = deque()

    @property
    def slots(self) -> int:
        return self._slots

    def resize(self, slots: int) -> None:
        with self._lock:
            self._slots = max(1, slots)
            self._admit()

    @contextlib.contextmanager
    def hold(self, on_wait: Callable[[int], None] | None = None) -> Iterator[None]:
        """Hold a slot for the block. When all are busy, wait in line; `on_wait(place)` is told this call's
        place in line (1: next) before it waits and again whenever the place changes."""
        self._acquire(on_wait)
        try:
            yield
        finally:
            with self._lock:
                self._busy -= 1
                self._admit()

    def _acquire(self, on_wait: Callable[[int], None] | None) -> None:
        with self._lock:
            if self._busy < self._slots and not self._line:
                self._busy += 1
                return
            turn = threading.Event()
            self._line.append(turn)
        told = 0
        try:
            while True:
                with self._lock:
                    place = self._line.index(turn) + 1 if turn in self._line else 0
                if place and place != told and on_wait is not None:
                    told = place
                    _tell(on_wait, place)
                if turn.wait(_RECHECK_SECONDS):
                    return  # admitted: the slot was counted as ours by whoever let us in
        except BaseException:  # interrupted while waiting: leave the line, or give back the slot just granted
            with self._lock:
                if turn in self._line:
                    self._line.remove(turn)
                else:
                    self._busy -= 1
                    self._admit()
            raise

    def _admit(self) -> None:
        while self._line and self._busy < self._slots:
            self._busy += 1
            self._line.popleft().set()


def _tell(on_wait: Callable[[int], None], place: int) -> None:
    try:
        on_wait(place)
    except Exception:  # telling the user is never worth failing the parse for
        log.warning("could not report a parse waiting in line", exc_info=True)


_PARSES = FairSlots(1)


def parse_slots(settings: Settings) -> FairSlots:
    """This process's parse slots, sized for `settings`."""
    _PARSES.resize(parse_concurrency(settings))
    return _PARSES


def parse_concurrency(settings: Settings) -> int:
    """`MASIS_PARSE_CONCURRENCY`, or when it is 0: as many parses as CPUs, and as the available memory holds
    parse memory caps, at least one."""
    if settings.parse_concurrency > 0:
        return settings.parse_concurrency
    return _automatic(settings.parse_memory_mb * 1024 * 1024)


@lru_cache(maxsize=4)
def _automatic(cap_bytes: int) -> int:
    available = available_memory()
    by_memory = available // cap_bytes if available is not None and cap_bytes > 0 else 1
    return max(1, min(os.cpu_count() or 1, by_memory))


def available_memory() -> int | None:
    """Bytes of memory this process can still get: the least of the machine's available memory and what
    its container (cgroup v2 or v1) still allows; None when neither can be read."""
    limits = [limit for limit in (_meminfo_available(), _cgroup_room()) if limit is not None]
    return min(limits) if limits else None


def _meminfo_available() -> int | None:
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    with contextlib.suppress(OSError, ValueError, AttributeError):
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    return None


def _cgroup_room() -> int | None:
    for limit_file, usage_file in (
        ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
        ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"),
    ):
        with contextlib.suppress(OSError, ValueError):
            limit = Path(limit_file).read_text().strip()
            if limit == "max" or int(limit) >= 1 << 60:  # no limit (v1 writes a huge number)
                return None
            return max(0, int(limit) - int(Path(usage_file).read_text().strip()))
    return None
