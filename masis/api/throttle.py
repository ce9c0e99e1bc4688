"""A token bucket per key (a thread's votes): at most `per_minute` at once, refilled evenly over a minute.

The buckets are kept for the most recently used `keys` keys only, so a client inventing thread ids cannot
grow the process; a forgotten key starts again with a full bucket, which costs at most one burst.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable


class KeyedRateLimit:
    def __init__(self, per_minute: int, *, keys: int = 10_000, clock: Callable[[], float] = time.monotonic) -> None:
        if per_minute < 1:
            raise ValueError("per_minute must be at least 1")
        self.per_minute = per_minute
        self._rate = per_minute / 60.0  # tokens per second
        self._keys = keys
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, at)
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """Take one token for `key`: 0.0 when taken, else the seconds until one is there (nothing taken)."""
        now = self._clock()
        with self._lock:
            tokens, at = self._buckets.pop(key, (float(self.per_minute), now))
            tokens = min(float(self.per_minute), tokens + (now - at) * self._rate)
            wait = 0.0 if tokens >= 1.0 else (1.0 - tokens) / self._rate
            self._buckets[key] = (tokens - 1.0 if wait == 0.0 else tokens, now)
            while len(self._buckets) > self._keys:
                self._buckets.popitem(last=False)
        return wait

    @staticmethod
    def retry_after(wait: float) -> str:
        """`wait` as a Retry-After header value: whole seconds, at least 1."""
        return str(max(1, math.ceil(wait)))
