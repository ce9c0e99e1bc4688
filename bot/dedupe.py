"""At-most-once handling of Slack deliveries, persisted so a restarted bot still recognises a retry.

Slack redelivers an event (with `X-Slack-Retry-Num`) when the ack was slow or lost, and an @mention
arrives twice, as `app_mention` and as `message`, with different event ids. Both are claimed here: the
first caller of `claim(key)` gets True, every later one False, until the key expires.

While the database is unreachable, keys are claimed in this process's memory instead, so a message sent during
an outage still reaches its thread (which then says the database is unavailable) rather than vanishing.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict

from bot.db import BotDB
from masis.errors import DatabaseUnavailableError

log = logging.getLogger(__name__)

DEFAULT_TTL_SECONDS = 24 * 3600  # Slack retries for minutes; a day is generous and keeps the table small
MAX_LOCAL_KEYS = 10_000  # claimed in memory during an outage; the oldest are forgotten first


class Deduper:
    def __init__(self, db: BotDB, ttl_seconds: float = DEFAULT_TTL_SECONDS) -> None:
        self._db = db
        self._ttl = ttl_seconds
        self._claims = 0
        self._local: OrderedDict[str, float] = OrderedDict()
        self._local_guard = threading.Lock()
        self.purge()

    def claim(self, key: str) -> bool:
        """True the first time `key` is seen (within the expiry), False for a repeat."""
        with self._local_guard:
            if (seen := self._local.get(key)) is not None and seen >= time.time() - self._ttl:
                return False  # claimed here during an outage
        try:
            return self._claim(key)
        except DatabaseUnavailableError as exc:
            log.warning("claiming %s in memory: %s", key, exc)
            return self._claim_locally(key)

    def _claim_locally(self, key: str) -> bool:
        now = time.time()
        with self._local_guard:
            seen = self._local.get(key)
            if seen is not None and seen >= now - self._ttl:
                return False
            self._local[key] = now
            self._local.move_to_end(key)
            while len(self._local) > MAX_LOCAL_KEYS:
                self._local.popitem(last=False)
            return True

    def _claim(self, key: str) -> bool:
        now = time.time()
        with self._db.cursor() as cur:
            cur.execute("DELETE FROM deliveries WHERE key = ? AND seen_at < ?", (key, now - self._ttl))
            # the unique key decides, across replicas too: only one INSERT of a key inserts a row
            first = cur.execute(
                "INSERT INTO deliveries (key, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING", (key, now)
            ).rowcount == 1
        self._claims += 1
        if self._claims % 500 == 0:
            self.purge()
        return first

    def purge(self) -> int:
        """Forget expired keys; returns how many."""
        with self._db.cursor() as cur:
            return int(cur.execute("DELETE FROM deliveries WHERE seen_at < ?", (time.time() - self._ttl,)).rowcount)


def event_key(event_id: str) -> str:
    return f"event:{event_id}"


def message_key(channel_id: str, ts: str) -> str:
    return f"message:{channel_id}:{ts}"
